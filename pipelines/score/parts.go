package score

import (
	"context"
	"database/sql"

	"github.com/datg/datg/internal/duck"
)

// partAlignments is about the most alignments datg score scores in one
// query: scores.sql's joins, aggregates, window and sort then take the
// memory of the paper's design at most (67,500 alignments ran in 260-380
// MB, DuckDB capped at 256 MiB or not), whatever the run's size. The parts
// are cut from a sample (duck.SampledTraceRanges), so each holds this
// many give or take a few percent. A part's query takes the whole cap
// whatever its size (its hash tables fill it), and a part of 25,000 runs
// out of memory under 128 MiB now and then where parts of 50,000 did not
// (TestScoreSpillsUnderASmallCap): not a cost that accumulates over the
// parts (the same part fails alone in a fresh process, one run in three),
// but DuckDB choosing to keep more of a smaller part's operators in
// memory at once. Such a part is scored in halves (scoreOrHalve). Parts
// of 25,000 peaked lower at 10x (316-338 MB against 411-424): not taken.
// A variable so that a test can score a small run in many parts.
var partAlignments = 50_000

// part is a range of consecutive trace ids, chosen by the session
// variables the scoring views read (sql/macros/score_partition.sql).
type part = duck.TraceRange

// partsOf cuts the run's traces, in trace id order, into parts of about
// perPart alignments each: consecutive, so the rows of the parts in turn
// are the rows of the run in scores.sql's order, which sorts by trace
// first. One part, open at both ends, when the run is that small. The
// cuts come from a sample of the alignments' trace ids: counting every
// trace's alignments (a GROUP BY over the run) held every trace id.
func partsOf(ctx context.Context, conn *sql.Conn, perPart int) ([]part, error) {
	return duck.SampledTraceRanges(ctx, conn, "alignments", perPart)
}
