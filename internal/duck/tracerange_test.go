package duck

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// The bounds reach DuckDB as the values given, quotes included, and ""
// leaves an end open (NULL).
func TestChooseTraceRange(t *testing.T) {
	db := open(t, t.TempDir())
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, c := range []struct{ from, to string }{{"t'1", "t9"}, {"", "a'; DROP"}, {"x", ""}, {"", ""}} {
		if err := ChooseTraceRange(ctx, conn, c.from, c.to); err != nil {
			t.Fatal(err)
		}
		var from, to sql.NullString
		if err := conn.QueryRowContext(ctx, "SELECT getvariable('datg_score_from'), getvariable('datg_score_to')").Scan(&from, &to); err != nil {
			t.Fatal(err)
		}
		if from.Valid != (c.from != "") || from.String != c.from || to.Valid != (c.to != "") || to.String != c.to {
			t.Errorf("ChooseTraceRange(%q, %q): DuckDB holds %v, %v", c.from, c.to, from, to)
		}
	}
}

// The ranges between cuts hold every id once: open at both outer ends,
// each range beginning where the last ended.
func TestTraceRangesBetween(t *testing.T) {
	for _, c := range []struct {
		cuts []string
		want []TraceRange
	}{
		{nil, []TraceRange{{}}},
		{[]string{"t5"}, []TraceRange{{To: "t5"}, {From: "t5"}}},
		{[]string{"a", "b'c", "z"}, []TraceRange{{To: "a"}, {From: "a", To: "b'c"}, {From: "b'c", To: "z"}, {From: "z"}}},
	} {
		if got := TraceRangesBetween(c.cuts); !slices.Equal(got, c.want) {
			t.Errorf("TraceRangesBetween(%q) = %v, want %v", c.cuts, got, c.want)
		}
	}
}

// The sampled ranges hold every row once, in consecutive ranges of about
// the size asked (within a fifth here: 1,000 sampled ids a range put the
// cuts within about 3%), with traces of 1 to 9 rows each.
func TestSampledTraceRanges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 9))
	var aligns []schema.Alignment
	for tr := range 3_000 {
		for d := range 1 + rng.IntN(9) {
			aligns = append(aligns, schema.Alignment{TraceID: fmt.Sprintf("t%05d", tr), DagID: fmt.Sprint(d), Aligner: "a"})
		}
	}
	if err := store.WriteAll(dir, schema.Alignments, store.Meta{}, aligns); err != nil {
		t.Fatal(err)
	}
	conn, err := open(t, dir).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, per := range []int{1_000, 2_500, len(aligns)} {
		ranges, err := SampledTraceRanges(ctx, conn, "alignments", per)
		if err != nil {
			t.Fatal(err)
		}
		want := (len(aligns) + per - 1) / per
		if len(ranges) != want || ranges[0].From != "" || ranges[len(ranges)-1].To != "" {
			t.Fatalf("ranges of %d: %v, want %d ranges open at both ends", per, ranges, want)
		}
		total := 0
		for i, r := range ranges {
			if i > 0 && r.From != ranges[i-1].To {
				t.Errorf("range %d begins at %q, the last ended at %q", i, r.From, ranges[i-1].To)
			}
			n := 0
			for _, a := range aligns {
				if (r.From == "" || a.TraceID >= r.From) && (r.To == "" || a.TraceID < r.To) {
					n++
				}
			}
			if n < per*4/5 && len(ranges) > 1 || n > per*6/5 {
				t.Errorf("ranges of %d: %v holds %d rows", per, r, n)
			}
			total += n
		}
		if total != len(aligns) {
			t.Errorf("ranges of %d hold %d rows of %d", per, total, len(aligns))
		}
	}
}
