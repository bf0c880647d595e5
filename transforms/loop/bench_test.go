package loop

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// checkpoint is a realistic low-difficulty checkpoint (C = 1024): 1024
// tokens, a derivation that falls into a 12-token loop, and its 4,000
// character decoded text.
func checkpoint() ([]int, string) {
	r := rand.New(rand.NewPCG(1, 1))
	tokens := make([]int, 1024)
	for i := range 700 {
		tokens[i] = r.IntN(32000)
	}
	unit := tokens[688:700]
	for i := 700; i < len(tokens); i++ {
		tokens[i] = unit[(i-700)%len(unit)]
	}
	var b strings.Builder
	b.WriteString("Kwanza tunahesabu mayai yanayobaki kila siku.\n16 - 3 - 4 = 9.\nKwa siku 7: 9 \\times 7 = 63.\n")
	for b.Len() < 4000 {
		b.WriteString("Mayai yaliyobaki ni 9. ")
	}
	return tokens, b.String()[:4000]
}

// BenchmarkDetect is one Loop-Retry decision at a checkpoint. Run with
//
//	go test ./transforms/loop -run '^$' -bench . -benchmem
func BenchmarkDetect(b *testing.B) {
	tokens, text := checkpoint()
	if s := Detect(tokens, text, 4096); !s.Trigger {
		b.Fatalf("the benchmark checkpoint should trigger: %+v", s)
	}
	b.ReportAllocs()
	for b.Loop() {
		Detect(tokens, text, 4096)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
}

// BenchmarkMathProgress60KB is the guard alone on a long (60 KB) trace.
func BenchmarkMathProgress60KB(b *testing.B) {
	text := swahiliLines
	for len(text) < 60000 {
		text += "Kwa siku 7: 9 \\times 7 = 63. Mayai yaliyobaki ni 9.\n"
	}
	b.ReportAllocs()
	for b.Loop() {
		MathProgress(text)
	}
}
