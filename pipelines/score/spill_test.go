package score

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/google/go-cmp/cmp"
)

// datg score completes under a memory cap below what one query over the
// whole run needs, and writes the rows the query before gave with memory
// to spare. Scoring the run in one query (issue 23) ran out of memory here:
// its memory grew with the run, a part's does not. Parts of 25,000 run out
// of memory under this cap now and then (a part's query takes the whole
// cap, and whether it fits depends on which of its operators DuckDB runs
// in memory and which at once; 3 runs in 3 on the code before, on a
// different part each time): datg score then scores such a part in halves.
func TestScoreSpillsUnderASmallCap(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 150,000 alignments twice")
	}
	dir := t.TempDir()
	scaleWorld(rand.New(rand.NewPCG(5, 6)), 150_000, 3).write(t, dir)
	defer func(m int64) { stageMemory = m }(stageMemory)
	defer func(n int) { partAlignments = n }(partAlignments)
	stageMemory = 2 << 30
	want := scoresByTheQueryBefore(t, dir)
	stageMemory = 128 << 20
	for _, perPart := range []int{50_000, 25_000} {
		partAlignments = perPart
		sum, err := Run(context.Background(), Config{Data: dir})
		if err != nil {
			t.Fatalf("parts of %d under %d MiB: %v", perPart, stageMemory>>20, err)
		}
		got, err := store.ReadAll(dir, schema.Scores)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Scored != len(want) {
			t.Errorf("parts of %d: scored %d, want %d", perPart, sum.Scored, len(want))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("parts of %d under 128 MiB, %d scores; with memory to spare %d (-spare +capped):\n%s", perPart, len(got), len(want), d)
		}
	}
}
