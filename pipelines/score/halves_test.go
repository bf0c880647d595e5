package score

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// A part that ran out of memory is cut at its median trace: the halves
// hold its alignments between them, each once, about half each; a part
// of one trace cannot be cut.
func TestHalvesCutAPartInTwo(t *testing.T) {
	dir := t.TempDir()
	w := randomWorld(rand.New(rand.NewPCG(3, 4)), 60)
	w.write(t, dir)
	ctx := context.Background()
	conn := runConn(t, dir)
	count := func(p part) int {
		if err := p.Choose(ctx, conn); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM alignments WHERE in_score_partition(trace_id)").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, p := range []part{{}, {From: "t010", To: "t050"}, {From: "t020"}, {To: "t031"}} {
		n := count(p)
		low, high, err := halves(ctx, conn, p)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if low.From != p.From || high.To != p.To || low.To != high.From {
			t.Fatalf("%v cut into %v and %v: not its two halves", p, low, high)
		}
		a, b := count(low), count(high)
		if a+b != n || a < n/3 || b < n/3 {
			t.Errorf("%v (%d alignments) cut into %v (%d) and %v (%d)", p, n, low, a, high, b)
		}
	}
	one := part{From: "t007", To: "t008"}
	if err := one.Choose(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if _, _, err := halves(ctx, conn, one); !errors.Is(err, errNoHalves) {
		t.Errorf("a part of one trace cut in two: %v", err)
	}
}
