package score

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// maxHeapPerScore bounds the live heap datg score may hold, once every
// score is written and before the commit, per score beyond a constant:
// the scores file's footer entry every 20,000 rows. A writer that kept a
// digest of every score's key held 23 bytes a score here (20 MB at
// 675,000, twice that resident with the collector's headroom).
const maxHeapPerScore = 6

// TestScoreHeapFlat scores runs of 20,000 and 100,000 alignments (the
// scores table's row groups of 20,000 are then all written in both) and measures
// the live heap before the commit: it may grow with the alignments by a
// few bytes a score at most.
func TestScoreHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 140,000 alignments")
	}
	held := map[int]int64{}
	// The first run also makes what every run shares (the driver's and
	// the queries' state): it is run again.
	for _, pairs := range []int{20_000, 20_000, 100_000} {
		dir := t.TempDir()
		designWorld(rand.New(rand.NewPCG(1, 2)), pairs, 2).write(t, dir)
		before := testenv.LiveHeap()
		beforeCommit = func() { held[pairs] = testenv.LiveHeap() - before }
		sum, err := Run(context.Background(), Config{Data: dir})
		beforeCommit = nil
		if err != nil {
			t.Fatal(err)
		}
		if sum.Scored != pairs {
			t.Fatalf("scored %d of %d", sum.Scored, pairs)
		}
	}
	per := (held[100_000] - held[20_000]) / 80_000
	t.Logf("live heap before the commit: %d KB at 20,000 scores, %d KB at 100,000: %d bytes a score", held[20_000]>>10, held[100_000]>>10, per)
	if per > maxHeapPerScore {
		t.Errorf("datg score holds %d bytes of live heap per score until the commit (at most %d): its memory grows with the run", per, maxHeapPerScore)
	}
}
