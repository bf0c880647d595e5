package outdir

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchSet is a paper run's outputs in number and about in size: 16
// tables, each as csv, md and tex, two of them with a figure; 32 KiB each.
func benchSet(version byte) map[string][]byte {
	files := map[string][]byte{}
	for i := range 16 {
		exts := []string{"csv", "md", "tex"}
		if i < 2 {
			exts = append(exts, "svg", "png")
		}
		for _, ext := range exts {
			b := make([]byte, 32<<10)
			for j := range b {
				b[j] = byte(i+j) ^ version
			}
			files[fmt.Sprintf("table_%02d.%s", i, ext)] = b
		}
	}
	return files
}

// BenchmarkReplace commits a paper run's outputs over the previous run's
// (every file changed) and over the same outputs (none changed). mix-µs/op
// is how long a reader could see a mix: from the first rename to the last.
func BenchmarkReplace(b *testing.B) {
	for _, c := range []struct {
		name     string
		versions [2]byte
	}{{"changed", [2]byte{1, 2}}, {"unchanged", [2]byte{1, 1}}} {
		b.Run(c.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "out")
			sets := [2]map[string][]byte{benchSet(c.versions[0]), benchSet(c.versions[1])}
			var first time.Time
			var mix time.Duration
			Fault = func(step string) error {
				switch {
				case strings.HasPrefix(step, "rename "):
					if first.IsZero() {
						first = time.Now()
					}
				case step == "sync outputs" && !first.IsZero():
					mix += time.Since(first)
					first = time.Time{}
				}
				return nil
			}
			defer func() { Fault = nil }()
			for i := 0; b.Loop(); i++ {
				if _, err := Replace(out, sets[i%2], nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mix.Microseconds())/float64(b.N), "mix-µs/op")
		})
	}
}
