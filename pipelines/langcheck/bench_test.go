package langcheck

import (
	"strings"
	"testing"

	"github.com/datg/datg/study"
)

// BenchmarkCheck measures the language check of one 20 KB trace by each
// detector (built once per run and shared by the workers; langcheck runs
// both on every trace).
//
//	go test ./pipelines/langcheck -run '^$' -bench Check -cpu 1
func BenchmarkCheck(b *testing.B) {
	reasoning := strings.Repeat(prose(b, "sw")+"\n\n", 8)
	t := trace("bench", "sw", reasoning[:min(len(reasoning), 20000)])
	for _, name := range study.Strings(study.Detectors...) {
		b.Run(name, func(b *testing.B) {
			c, err := newChecker(name)
			if err != nil {
				b.Fatal(err)
			}
			d := c.detectors[c.chosen]
			text := reasoningOf(&t)
			b.SetBytes(int64(len(t.Text)))
			for b.Loop() {
				if v, err := d.check(t.ReasoningLang, text, len(text)); err != nil || !v.compliant {
					b.Fatalf("%+v %v", v, err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traces/s")
		})
	}
}
