package tables

import (
	"context"
	"database/sql"

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

// checkPart is a range of consecutive trace ids, chosen by the session
// variables sql/macros/score_partition.sql reads (in_score_partition), as
// datg score chooses its parts.
type checkPart = duck.TraceRange

// checkParts cuts the trace ids of the run's alignments into ranges of
// about perPart alignments each that together cover every id
// (duck.SampledTraceRanges).
func checkParts(ctx context.Context, conn *sql.Conn, perPart int) ([]checkPart, error) {
	return duck.SampledTraceRanges(ctx, conn, "alignments", perPart)
}
