package langdetect

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
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
