package score

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// What DuckDB keeps from part to part outside its cap (the part files'
// footers, its eviction queue's records of past queries' blocks) does not
// add up over the parts: datg score reopens DuckDB every reopenEvery
// parts. Without the reopens the C heap at the parts' starts grew
// through the run, at ten times the paper's design 20 MB by the last of
// 30 parts.
func TestScoreHeapDoesNotGrowWithTheParts(t *testing.T) {
	if duck.MallocInUse() < 0 {
		t.Skip("the C heap cannot be read here")
	}
	defer func(n int) { partAlignments = n }(partAlignments)
	partAlignments = 300
	dir := t.TempDir()
	designWorld(rand.New(rand.NewPCG(11, 12)), 12_000, 6).write(t, dir)
	var atPart []int64
	beforeQuery = func(ctx context.Context, conn *sql.Conn, query string) {
		// Each part's first query counts its stale alignments.
		if strings.Contains(query, "count(*) FILTER") {
			atPart = append(atPart, duck.MallocInUse())
		}
	}
	defer func() { beforeQuery = nil }()
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	const round = 8 // parts
	if len(atPart) < 4*round {
		t.Fatalf("%d parts: too few to see a growth", len(atPart))
	}
	// The second round of parts (the first reopen is after the copy)
	// against the last.
	second := slices.Max(atPart[round : 2*round])
	last := slices.Max(atPart[len(atPart)-round:])
	t.Logf("%d parts, DuckDB reopened every %d; C heap in use at a part's start: at most %d KB in parts %d-%d, %d KB in the last %d",
		len(atPart), reopenEvery, second>>10, round+1, 2*round, last>>10, round)
	if grown := last - second; grown > 1<<20 {
		t.Errorf("the C heap at the parts' starts grew %d KB from the second round of parts to the last", grown>>10)
	}
}
