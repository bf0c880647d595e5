package langdetect

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/study"
)

// BenchmarkDetectLangs measures one trace's detection: 20 KB of reasoning
// prose, of which langdetect reads the first 10,000 characters, in CPU
// time per trace (cpu-ns/op); "reference" is the detector before issue 23
// (reference_test.go) on the same text.
//
//	go test ./transforms/langdetect -run '^$' -bench DetectLangs -cpu 1
func BenchmarkDetectLangs(b *testing.B) {
	for _, c := range []struct{ name, prose string }{
		{"sw", writtenStarting(b, "Sawa, hebu nifikirie. Bata")},
		{"zh", writtenStarting(b, "好的")},
		{"mixed", writtenStarting(b, "Sawa, hebu nifikirie kuhusu")},
	} {
		d, rm := newBoth(b, Options{})
		text := strings.Repeat(c.prose+"\n\n", 20000/len(c.prose)+1)
		text = strings.ToValidUTF8(text[:20000], "")
		for _, impl := range []struct {
			name   string
			detect func() error
		}{
			{"", func() error { _, err := d.DetectLangs(text); return err }},
			{"-reference", func() error { _, _, err := refDetectLangs(rm, d.m, Options{}, text); return err }},
		} {
			b.Run(c.name+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				start := testenv.CPUTime()
				for b.Loop() {
					if err := impl.detect(); err != nil {
						b.Fatal(err)
					}
				}
				testenv.ReportCPU(b, start, int64(len(text)))
			})
		}
	}
}

func writtenStarting(b *testing.B, prefix string) string {
	for _, s := range written {
		if strings.HasPrefix(s, prefix) {
			return s
		}
	}
	b.Fatalf("no written sentence starts with %q", prefix)
	return ""
}

// BenchmarkLoad measures reading the embedded profiles (once per process).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := buildModel(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDetectLangsMany measures the detection of 120 different traces,
// 10 in each study language (internal/tracegen, English mixed in, 30 KB),
// in CPU time per trace: as in a run, each trace's grams and their entries
// are new to the cache (BenchmarkDetectLangs reads one text again and
// again).
//
//	go test ./transforms/langdetect -run '^$' -bench DetectLangsMany -cpu 1 -count 3
func BenchmarkDetectLangsMany(b *testing.B) {
	d, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	english := testenv.DemoQuestions(b, "en")
	var texts []string
	for _, l := range study.Languages() {
		for range 10 {
			texts = append(texts, tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, l.Code), English: english, Bytes: 30_000, Seed: uint64(len(texts) + 1)}))
		}
	}
	start := testenv.CPUTime()
	for b.Loop() {
		for _, text := range texts {
			if _, err := d.DetectLangs(text); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(testenv.CPUTime()-start)/float64(b.N*len(texts)), "cpu-ns/trace")
}
