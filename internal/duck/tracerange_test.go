package duck

import (
	"context"
	"database/sql"
	"slices"
	"testing"
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
