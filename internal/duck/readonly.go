package duck

import (
	"context"
	"fmt"
)

// CheckQuery refuses a query string holding any statement that is not a
// query. DuckDB's own parser decides: json_serialize_sql serializes SELECT
// statements (with DESCRIBE, SHOW, SUMMARIZE and the like, which are
// SELECTs over a catalog view) and reports anything else. The lock-down of
// Open already stops file access; this also stops writes to the run's own
// files (COPY ... TO an allowed path) and catalog changes.
//
// DuckDB reads its own JSON: a query's constants are serialized as they
// are, and an infinite or NaN one (select 1e400) is written Infinity or
// NaN, which JSON has not and encoding/json refuses.
func (db *DB) CheckQuery(ctx context.Context, query string) error {
	var failed bool
	var errorType, message string
	err := db.QueryRowContext(ctx, `SELECT coalesce(j->>'error' = 'true', true), coalesce(j->>'error_type', ''), coalesce(j->>'error_message', '')
		FROM (SELECT json_serialize_sql(?::VARCHAR) AS j)`, query).Scan(&failed, &errorType, &message)
	switch {
	case err != nil:
		return fmt.Errorf("checking the query: %w", err)
	case !failed:
		return nil
	case errorType == "not implemented":
		return ErrNotAQuery
	}
	return fmt.Errorf("%s: %s", errorType, message)
}
