package lingua

import (
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// BenchmarkDetectMany measures the detection of the 24 segments langcheck
// reads in each of 120 different traces (10 in each study language,
// internal/tracegen), in CPU time per trace: as in a run, each trace's
// n-grams are new to the cache (BenchmarkDetect reads one trace's again
// and again).
//
//	go test ./internal/lingua -run '^$' -bench DetectMany -cpu 1 -count 3
func BenchmarkDetectMany(b *testing.B) {
	english := testenv.DemoQuestions(b, "en")
	d, err := New()
	if err != nil {
		b.Fatal(err)
	}
	var traces [][]string
	for _, l := range study.Languages() {
		for range 10 {
			text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, l.Code), English: english, Bytes: 30_000, Seed: uint64(len(traces) + 1)})
			traces = append(traces, transforms.Segments(transforms.StripMath(text), 200, 24))
		}
	}
	start := testenv.CPUTime()
	for b.Loop() {
		for _, segments := range traces {
			for _, s := range segments {
				d.Detect(s)
			}
		}
	}
	b.ReportMetric(float64(testenv.CPUTime()-start)/float64(b.N*len(traces)), "cpu-ns/trace")
}
