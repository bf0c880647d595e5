package tables

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/datg/datg/internal/duck"
)

// checkPartAlignments is the most alignments, about, that the scores
// check reads in one query: its joins (every alignment's lineage against
// the traces, DAGs and scores) then hold the paper's design at most
// (67,500 alignments), whatever the run's size, and the check's memory
// stays flat from one times to ten times it (it took 106 MB at the
// paper's design and 272 MB at ten times it in one query). A variable so
// that a test can check a small run in many parts.
var checkPartAlignments = 100_000

// checkPartSample is how many alignments' trace ids per part the cut
// points are drawn from.
const checkPartSample = 200

// checkPart is a range of consecutive trace ids, chosen by the session
// variables sql/macros/score_partition.sql reads (in_score_partition), as
// datg score chooses its parts.
type checkPart = duck.TraceRange

// checkParts cuts the trace ids of the run's alignments into about
// n/checkPartAlignments ranges that together cover every id: the cut
// points are quantiles of a sample of the alignments' trace ids, so the
// parts hold about as many alignments each, and where they fall changes
// only the parts' sizes, never what the parts count together. One part,
// open at both ends, when the run is that small.
func checkParts(ctx context.Context, conn *sql.Conn, perPart int) ([]checkPart, error) {
	var n int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM alignments").Scan(&n); err != nil {
		return nil, fmt.Errorf("counting alignments: %w", err)
	}
	k := int((n + int64(perPart) - 1) / int64(perPart))
	if k <= 1 {
		return []checkPart{{}}, nil
	}
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(
		"SELECT trace_id FROM alignments USING SAMPLE reservoir(%d ROWS) REPEATABLE (23)", k*checkPartSample))
	if err != nil {
		return nil, fmt.Errorf("sampling alignments: %w", err)
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
	return duck.TraceRangesBetween(cuts), nil
}
