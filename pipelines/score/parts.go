package score

import (
	"context"
	"database/sql"

	"github.com/datg/datg/internal/duck"
)

// partAlignments is the most alignments datg score scores in one query,
// give or take a few percent (the parts are cut from a sample,
// duck.SampledTraceRanges): the paper's design (67,500) in 3 parts, and
// any larger run in parts of this size too, so that a part's query
// holds the same at every scale. Parts of 50,000 cut the design in 2
// parts of 33,750 and ten times it in 14 of 48,200: the parts, and a
// part's memory, grew 1.4 times from 1x to 10x (issue 23; BENCHMARKS.md,
// "score's peak flat"). Smaller parts were set aside before (25,000)
// only because one ran out of memory under 128 MiB now and then; such
// a part is now scored in halves (scoreOrHalve), which under stageMemory
// happened to none in the runs seen (under 160 MiB: to 1-7 of 27-30 at
// 10x in designWorld, to 28 of 30 in scripts/scale.sh 10's run). A part
// more costs a query more (30 parts at 10x against 14). A variable so
// that a test can score a small run in many parts.
var partAlignments = 22_500

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
