package duck

import (
	"context"
	"database/sql"
	"fmt"
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

// AlignmentCuts is where to cut the run's trace ids, in order, into
// consecutive ranges of at most max alignments each (more when one trace
// alone has more): the first range ends before the first cut, each cut
// starts the next, the last is open. None when the run is that small.
// score scores, and tables checks the scores of, one range at a time.
func AlignmentCuts(ctx context.Context, conn *sql.Conn, max int) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT trace_id, count(*) FROM alignments GROUP BY trace_id ORDER BY trace_id`)
	if err != nil {
		return nil, fmt.Errorf("alignments per trace: %w", err)
	}
	defer rows.Close()
	var cuts []string
	n := 0
	for rows.Next() {
		var id string
		var k int
		if err := rows.Scan(&id, &k); err != nil {
			return nil, err
		}
		if n > 0 && n+k > max {
			cuts = append(cuts, id)
			n = 0
		}
		n += k
	}
	return cuts, rows.Err()
}
