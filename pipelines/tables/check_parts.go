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

// checkPartTraces is the most traces, about, that a check of one row per
// trace (answers, compliance, verdicts, detections, trials) reads in one
// query: its join of the traces with the input (and the verdicts' count
// of graders per trace, the detections' distinct traces) then holds a
// part, not the run. Over the whole run at ten times the paper's design
// the verdicts check alone took DuckDB 130-256 MB (its cap; the stage's
// peak), the detections check 100 MB; in parts of this size 43 and 37 MB.
// Each part scans the traces and the input again (trace ids are hashes:
// no row group is skipped), so parts of 50,000 cost twice the CPU of
// these for a few MB less: the paper's design (38,250) is one part.
var checkPartTraces = 100_000

// checkPartition says how a check cuts the run into parts: by the trace
// ids of table's rows, about *rows of them a part.
type checkPartition struct {
	table string
	rows  *int
}

var (
	// byAlignments cuts the run by its alignments (the scores check).
	byAlignments = &checkPartition{"alignments", &checkPartAlignments}
	// byTraces cuts it by its traces (the checks of a row per trace).
	byTraces = &checkPartition{"traces", &checkPartTraces}
)

// checkPart is a range of consecutive trace ids, chosen by the session
// variables sql/macros/score_partition.sql reads (in_score_partition), as
// datg score chooses its parts.
type checkPart = duck.TraceRange

// checkParts cuts the trace ids of table's rows into ranges of about
// perPart rows each that together cover every id
// (duck.SampledTraceRanges).
func checkParts(ctx context.Context, conn *sql.Conn, table string, perPart int) ([]checkPart, error) {
	return duck.SampledTraceRanges(ctx, conn, table, perPart)
}
