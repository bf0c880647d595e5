package score

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/datg/datg/internal/duck"
)

// partAlignments is the most alignments datg score scores in one query:
// scores.sql's joins, aggregates, window and sort then take the memory of
// the paper's design at most (67,500 alignments ran in 260-380 MB, DuckDB
// capped at 256 MiB or not), whatever the run's size. Parts of 25,000
// peaked lower at 10x (316-338 MB against 411-424) but ran out of memory
// under 128 MiB where parts of 50,000 complete (TestScoreSpillsUnderASmallCap):
// not taken. A variable so that a test can score a small run in many parts.
var partAlignments = 50_000

// part is a range of consecutive trace ids, chosen by the session
// variables the scoring views read (sql/macros/score_partition.sql).
type part = duck.TraceRange

// partsOf cuts the run's traces, in trace id order, into parts of at most
// max alignments each (more when one trace has more): consecutive, so the
// rows of the parts in turn are the rows of the run in scores.sql's order,
// which sorts by trace first. One part, open at both ends, when the run
// is that small.
func partsOf(ctx context.Context, conn *sql.Conn, max int) ([]part, error) {
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
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return duck.TraceRangesBetween(cuts), nil
}
