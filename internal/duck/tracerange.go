package duck

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
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
			value = Quote(v.bound)
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

// samplePerRange is how many rows' trace ids per range SampledTraceRanges
// draws its cuts from: a range between two quantiles of the sample then
// holds perRange rows give or take about 3% (1/sqrt(1,000)).
const samplePerRange = 1_000

// SampledTraceRanges cuts the trace ids of table's rows into ranges of
// about perRange rows each, which together hold every trace id once
// (TraceRangesBetween): the cuts are quantiles of a sample of the rows'
// trace ids, so DuckDB holds the sample, not a count of every trace, and
// where they fall changes only the ranges' sizes, never which rows they
// hold together. One range, open at both ends, when the table has at
// most perRange rows. table is a table of the run with a trace_id column.
func SampledTraceRanges(ctx context.Context, conn *sql.Conn, table string, perRange int) ([]TraceRange, error) {
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		return nil, fmt.Errorf("counting %s: %w", table, err)
	}
	k := int((n + int64(perRange) - 1) / int64(perRange))
	if k <= 1 {
		return []TraceRange{{}}, nil
	}
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(
		"SELECT trace_id FROM %s USING SAMPLE reservoir(%d ROWS) REPEATABLE (23)", table, k*samplePerRange))
	if err != nil {
		return nil, fmt.Errorf("sampling %s: %w", table, err)
	}
	defer rows.Close()
	var sample []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		sample = append(sample, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(sample)
	var cuts []string
	for i := 1; i < k; i++ {
		c := sample[i*len(sample)/k]
		if len(cuts) == 0 || c > cuts[len(cuts)-1] {
			cuts = append(cuts, c)
		}
	}
	return TraceRangesBetween(cuts), nil
}
