package explain

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkExplainRun writes the index and 675 pages (the demo's count of
// aligned traces): each page's DAG drawn, its math marked, the assets
// written once.
func BenchmarkExplainRun(b *testing.B) {
	ids := make([]string, 675)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%d", i)
	}
	dir := writeRun(b, ids...)
	out := b.TempDir()
	for b.Loop() {
		if _, err := Run(context.Background(), Config{Data: dir, Out: out}); err != nil {
			b.Fatal(err)
		}
	}
}
