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
// its memory grew with the run, a part's does not.
func TestScoreSpillsUnderASmallCap(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 150,000 alignments")
	}
	dir := t.TempDir()
	scaleWorld(rand.New(rand.NewPCG(5, 6)), 150_000, 3).write(t, dir)
	defer func(m int64) { stageMemory = m }(stageMemory)
	stageMemory = 128 << 20
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatalf("under %d MiB: %v", stageMemory>>20, err)
	}
	got, err := store.ReadAll(dir, schema.Scores)
	if err != nil {
		t.Fatal(err)
	}
	stageMemory = 2 << 30
	want := scoresByTheQueryBefore(t, dir)
	if sum.Scored != len(want) {
		t.Errorf("scored %d, want %d", sum.Scored, len(want))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("under 128 MiB, %d scores; with memory to spare %d (-spare +capped):\n%s", len(got), len(want), d)
	}
}
