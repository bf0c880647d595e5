package tables

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The scores check counts a run in parts of its traces (issue 23: its
// memory then follows a part, not the run) and gives, scope by scope,
// the counts the four queries before gave over the whole run: in parts
// cut from the run's alignments (of one alignment to all of them, a
// single part), and in parts chosen by hand with empty ones, ones
// holding no trace of the run, and trace ids beyond every trace's.
func TestScoresCheckInPartsCountsAsTheWholeRun(t *testing.T) {
	check := inputs["scores"].checks[0]
	if check.parts != byAlignments {
		t.Fatal("the scores check is not counted in parts")
	}
	defer func(n int) { checkPartAlignments = n }(checkPartAlignments)
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			ctx := context.Background()
			// 50 to 80 traces (about 230 to 380 alignments): with parts of
			// 1 or 3 alignments the count runs once for about every trace
			// id, the test's cost, and every kind of staleness staleWorld
			// draws (each in 1 of 8 to 12 alignments or scores) is still
			// there dozens of times, which the check of nonzero counts
			// below holds it to (worlds of 80 to 140 traces took twice
			// the time for no other case).
			dir := staleWorld(t, rand.New(rand.NewPCG(seed, 29)), 40+10*int(seed))
			db, err := openRun(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			c := newInputCheck(db)
			var want []int64
			for _, b := range scoresChecksBefore {
				want = append(want, staleCounts(t, c, b)...)
			}
			nonzero := 0
			for _, n := range want {
				if n > 0 {
					nonzero++
				}
			}
			if nonzero < 8 {
				t.Errorf("only %d counts above 0 (%v): the world tests little", nonzero, want)
			}
			for _, per := range []int{1, 3, 17, 100_000} {
				checkPartAlignments = per
				got, err := c.count(ctx, check)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("parts of %d alignments: counts %v, the whole run %v", per, got, want)
				}
			}
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			parts, err := checkParts(ctx, conn, "alignments", 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) < 5 {
				t.Errorf("%d parts of 5 alignments: want one for about every 5", len(parts))
			}
			for _, parts := range [][]checkPart{
				{{}},
				{{From: "", To: "t0010"}, {From: "t0010", To: "t0010"}, {From: "t0010", To: "t0033"}, {From: "t0033", To: "t0033x"}, {From: "t0033x", To: "u"}, {From: "u", To: ""}},
				{{From: "", To: "a"}, {From: "a", To: "t0001"}, {From: "t0001", To: ""}},
			} {
				got, err := countParts(ctx, conn, check, parts)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("parts %v: counts %v, the whole run %v", parts, got, want)
				}
			}
			if err := (checkPart{}).Choose(ctx, conn); err != nil {
				t.Fatal(err)
			}
			conn.Close()
			// count leaves its connection reading every trace again.
			if _, err := c.count(ctx, check); err != nil {
				t.Fatal(err)
			}
			var from, to any
			if err := db.QueryRowContext(ctx, "SELECT getvariable('datg_score_from'), getvariable('datg_score_to')").Scan(&from, &to); err != nil {
				t.Fatal(err)
			}
			if from != nil || to != nil {
				t.Errorf("after a count in parts a connection reads from %v to %v, want every trace", from, to)
			}
		})
	}
}
