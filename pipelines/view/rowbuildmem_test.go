package view

import (
	"context"
	"slices"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/study"
)

// TestViewerMemoryIsCapped: the viewer's DuckDB runs under viewMemory
// (the row file's build held 650 MB at 382,500 traces without it), and a
// run whose build needs more than the cap still opens, built again
// uncapped, into the same row file.
func TestViewerMemoryIsCapped(t *testing.T) {
	ctx := context.Background()
	dir := writeIndexRun(t, 2500, 9)
	limit := func(r *runDB) int64 {
		t.Helper()
		var s string // a size with units, as DuckDB prints it
		if err := r.db.QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&s); err != nil {
			t.Fatal(err)
		}
		v, err := duck.ParseSize(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	r, err := openRunDB(ctx, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	if got := limit(r); got > viewMemory*101/100 || got < viewMemory*99/100 {
		t.Errorf("DuckDB's memory_limit is %d bytes, want viewMemory (%d)", got, viewMemory)
	}
	defer func(m int64) { viewMemory = m }(viewMemory)
	viewMemory = 2 << 20 // far under what the build's tables take
	if _, err := openRunDBWith(ctx, dir, t.TempDir(), study.ProbeSeed, viewLimits()); err == nil {
		t.Fatal("a build under 2 MB succeeded: the test proves nothing")
	}
	over, err := openRunDB(ctx, dir, t.TempDir())
	if err != nil {
		t.Fatalf("a build over the cap: %v", err)
	}
	defer over.close()
	if limit(over) <= viewMemory {
		t.Errorf("the build over the cap ran under it")
	}
	if over.rows.N != r.rows.N || !slices.Equal(over.rows.Aligners, r.rows.Aligners) || !slices.Equal(over.rows.data, r.rows.data) {
		t.Errorf("the row file built uncapped differs from the capped one")
	}
}
