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
