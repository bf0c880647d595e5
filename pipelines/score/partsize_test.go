package score

import (
	"context"
	"math/rand/v2"
	"testing"
)

// designAlignments is the paper's design: 3 models x 12 pairs x 375
// problems x 5 DAGs, alignments of one aligner.
const designAlignments = 67_500

// The paper's design and ten and twenty times it are cut in parts of the
// same size, at most partAlignments each: a part's query then holds the
// same at every scale, which is what keeps datg score's peak flat (issue
// 23). Parts of 50,000 cut the design in 2 parts of 33,750 and ten times
// it in 14 of 48,200: 1.4 times the memory a part. The runs here are the
// scales divided by 100, cut in parts of partAlignments/100.
func TestPartsAreTheSameSizeAtEveryScale(t *testing.T) {
	defer func(n int) { partAlignments = n }(partAlignments)
	perPart := partAlignments / 100
	partAlignments = perPart
	ctx := context.Background()
	mean := map[int]float64{}
	for _, scale := range []int{1, 10, 20} {
		pairs := scale * designAlignments / 100
		dir := t.TempDir()
		designWorld(rand.New(rand.NewPCG(uint64(scale), 9)), pairs, 1).write(t, dir)
		conn := runConn(t, dir)
		parts, err := partsOf(ctx, conn, perPart)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, p := range parts {
			if err := p.Choose(ctx, conn); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM alignments WHERE in_score_partition(trace_id)").Scan(&n); err != nil {
				t.Fatal(err)
			}
			// A part is cut between traces (five alignments each).
			if n > perPart+5 {
				t.Errorf("%dx: a part of %d alignments, more than %d", scale, n, perPart)
			}
			total += n
		}
		if total != pairs {
			t.Fatalf("%dx: the parts hold %d alignments of %d", scale, total, pairs)
		}
		mean[scale] = float64(pairs) / float64(len(parts))
		t.Logf("%dx (%d alignments): %d parts of %.0f on average", scale, pairs, len(parts), mean[scale])
	}
	for _, scale := range []int{10, 20} {
		if r := mean[scale] / mean[1]; r > 1.1 || r < 0.9 {
			t.Errorf("a part holds %.0f alignments at %dx, %.0f at the paper's design: %.2f times", mean[scale], scale, mean[1], r)
		}
	}
}
