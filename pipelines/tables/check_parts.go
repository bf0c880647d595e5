package tables

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/datg/datg/internal/duck"
)

// checkPartAlignments is the most alignments (more when one trace alone
// has more) that the scores check reads in one query: its joins (every
// alignment's lineage against the traces, DAGs and scores) then hold the
// paper's design at most (67,500 alignments), whatever the run's size,
// and the check's memory stays flat from one times to ten times it (it
// took 106 MB at the paper's design and 272 MB at ten times it in one
// query). A variable so that a test can check a small run in many parts.
var checkPartAlignments = 100_000

// checkPart is a range of consecutive trace ids, from (inclusive) to to
// (exclusive); "" leaves that end open. The part is chosen by the session
// variables sql/macros/score_partition.sql reads (in_score_partition),
// as datg score chooses its parts.
type checkPart struct{ from, to string }

// checkParts cuts the trace ids of the run's alignments, in order, into
// consecutive ranges of at most perPart alignments each (more when one
// trace alone has more; duck.AlignmentCuts, as datg score cuts its parts)
// that together cover every id: where they fall changes only the parts'
// sizes, never what the parts count together. One part, open at both
// ends, when the run is that small.
func checkParts(ctx context.Context, conn *sql.Conn, perPart int) ([]checkPart, error) {
	cuts, err := duck.AlignmentCuts(ctx, conn, perPart)
	if err != nil {
		return nil, err
	}
	parts := make([]checkPart, 0, len(cuts)+1)
	from := ""
	for _, c := range cuts {
		parts = append(parts, checkPart{from, c})
		from = c
	}
	return append(parts, checkPart{from, ""}), nil
}

// choose makes p the part the partitioned views and checks read on conn;
// the zero checkPart is every trace.
func (p checkPart) choose(ctx context.Context, conn *sql.Conn) error {
	if err := duck.ChooseTraceRange(ctx, conn, p.from, p.to); err != nil {
		return fmt.Errorf("choosing the traces to check: %w", err)
	}
	return nil
}
