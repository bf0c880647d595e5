package langcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// BenchmarkCheck measures the language check of one 20 KB trace by each
// detector (built once per run and shared by the workers; langcheck runs
// both on every trace).
//
//	go test ./pipelines/langcheck -run '^$' -bench Check -cpu 1
func BenchmarkCheck(b *testing.B) {
	long := strings.Repeat(prose(b, "sw")+"\n\n", 8)
	t := trace("bench", "sw", long[:min(len(long), 20000)])
	for _, name := range study.Strings(study.Detectors...) {
		b.Run(name, func(b *testing.B) {
			c, err := newChecker(name)
			if err != nil {
				b.Fatal(err)
			}
			d := c.detectors[c.chosen]
			r, _ := reasoningOf(&t)
			b.SetBytes(int64(len(t.Text)))
			for b.Loop() {
				if v, err := d.check(t.ReasoningLang, r); err != nil || !v.compliant {
					b.Fatalf("%+v %v", v, err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "traces/s")
		})
	}
}

// BenchmarkCheckMany measures langcheck's whole check over 120 different
// traces, 10 in each study language, 20-40 KB (internal/tracegen, a fifth
// cut at the budget): 3.6 MB, so the detectors' tables are read as in a
// run, where each trace's n-grams are new, not from cache as when one
// trace is checked again and again (BenchmarkCheckLong). MB of trace text
// per CPU second.
//
//	go test ./pipelines/langcheck -run '^$' -bench CheckMany -cpu 1 -count 3
func BenchmarkCheckMany(b *testing.B) {
	c, err := newChecker(string(study.Langdetect))
	if err != nil {
		b.Fatal(err)
	}
	english := testenv.DemoQuestions(b, "en")
	var traces []schema.Trace
	bytes := 0
	for _, l := range study.Languages() {
		lp, _ := prompts.Lookup(l.Code)
		for i := range 10 {
			seed := uint64(len(traces) + 1)
			text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, l.Code), English: english, Bytes: 20_000 + 2_000*i, Cut: i%5 == 0, Answer: "42", Seed: seed})
			text = strings.Replace(text, transforms.ThinkOpen, transforms.ThinkOpen+lp.Prefix+" ", 1)
			traces = append(traces, schema.Trace{TraceID: fmt.Sprint(seed), ReasoningLang: l.Code, Text: text, Prefix: lp.Prefix, TextHash: transforms.TextHash(text)})
			bytes += len(text)
		}
	}
	b.SetBytes(int64(bytes))
	start := testenv.CPUTime()
	for b.Loop() {
		for i := range traces {
			if _, _, err := c.check(&traces[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	testenv.ReportCPU(b, start, int64(bytes))
}
