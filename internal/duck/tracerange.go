package duck

import (
	"context"
	"database/sql"
	"strings"
)

// ChooseTraceRange sets, on conn, the trace ids that the partitioned views
// of sql/macros/score_partition.sql read: from (inclusive) to to
// (exclusive); "" leaves that end open. score scores a run, and tables
// checks its scores, one such range at a time so that DuckDB holds one
// part's rows whatever the run's size.
func ChooseTraceRange(ctx context.Context, conn *sql.Conn, from, to string) error {
	for _, v := range [2]struct{ name, bound string }{{"datg_score_from", from}, {"datg_score_to", to}} {
		value := "NULL::VARCHAR"
		if v.bound != "" {
			value = "'" + strings.ReplaceAll(v.bound, "'", "''") + "'"
		}
		if _, err := conn.ExecContext(ctx, "SET VARIABLE "+v.name+" = "+value); err != nil {
			return err
		}
	}
	return nil
}

// TraceRange is the trace ids from From (inclusive) to To (exclusive); ""
// leaves that end open, so the zero TraceRange is every trace.
type TraceRange struct{ From, To string }

// TraceRangesBetween is the consecutive ranges that ascending cuts make:
// n cuts, n+1 ranges, the first open below and the last open above, so
// together they hold every trace id once.
func TraceRangesBetween(cuts []string) []TraceRange {
	ranges := make([]TraceRange, 0, len(cuts)+1)
	from := ""
	for _, c := range cuts {
		ranges = append(ranges, TraceRange{from, c})
		from = c
	}
	return append(ranges, TraceRange{from, ""})
}

// Choose makes r the range the partitioned views read on conn
// (ChooseTraceRange).
func (r TraceRange) Choose(ctx context.Context, conn *sql.Conn) error {
	return ChooseTraceRange(ctx, conn, r.From, r.To)
}
