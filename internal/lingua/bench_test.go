package lingua

import (
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/transforms"
)

// BenchmarkDetect measures the detection of the 24 segments of about 200
// characters langcheck reads in a 30 KB trace, by this package and by
// lingua-go (low-accuracy mode, the study's languages, models preloaded),
// in CPU time per trace.
//
//	go test ./internal/lingua -run '^$' -bench Detect -cpu 1 -count 3
func BenchmarkDetect(b *testing.B) {
	english := testenv.DemoQuestions(b, "en")
	fast, err := New()
	if err != nil {
		b.Fatal(err)
	}
	ref, _ := reference(b)
	for _, code := range []string{"sw", "zh", "en", "ru"} {
		text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, code), English: english, Bytes: 30_000, Cut: true, Seed: 1})
		segments := transforms.Segments(transforms.StripMath(text), 200, 24)
		b.Run(code+"-internal", func(b *testing.B) {
			start := testenv.CPUTime()
			for b.Loop() {
				for _, s := range segments {
					fast.Detect(s)
				}
			}
			testenv.ReportCPU(b, start, int64(len(text)))
		})
		b.Run(code+"-lingua-go", func(b *testing.B) {
			start := testenv.CPUTime()
			for b.Loop() {
				for _, s := range segments {
					ref.DetectLanguageOf(s)
				}
			}
			testenv.ReportCPU(b, start, int64(len(text)))
		})
	}
}

// BenchmarkLoadModels measures reading the embedded models (once per
// process), in CPU time (cpu-ns/op: the garbage collector's share included).
//
//	go test ./internal/lingua -run '^$' -bench LoadModels -cpu 1 -count 3
func BenchmarkLoadModels(b *testing.B) {
	start := testenv.CPUTime()
	for b.Loop() {
		if _, err := loadModels(modelFiles); err != nil {
			b.Fatal(err)
		}
	}
	testenv.ReportCPU(b, start, 0)
}
