package langcheck

import (
	"strings"
	"testing"
)

// BenchmarkCheck measures the language check of one 20 KB trace (the
// detector is built once per run and shared by the workers).
//
//	go test ./pipelines/langcheck -run '^$' -bench Check -cpu 1
func BenchmarkCheck(b *testing.B) {
	d := NewDetector()
	reasoning := strings.Repeat(prose(b, "sw")+"\n\n", 8)
	t := trace("bench", "sw", reasoning[:min(len(reasoning), 20000)])
	b.SetBytes(int64(len(t.Text)))
	for b.Loop() {
		if c := d.Check(&t); !c.Compliant {
			b.Fatalf("%+v", c)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traces/s")
}
