package score

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/schema"
)

// maxHalvings is how many times datg score halves a part that ran out of
// memory before it gives up: a sixteenth of a part at the least.
const maxHalvings = 4

// errNoHalves means a part that ran out of memory cannot be cut in two:
// more than half its alignments are of its first trace.
var errNoHalves = errors.New("the part cannot be cut in two")

// scoreOrHalve scores part p (stale counts into sum, rows to add). When
// its query runs out of memory before giving a row, it scores the part's
// two halves in turn instead, halving again up to halvings times. A
// part's query takes DuckDB's whole cap, and whether it fits depends on
// which of its joins and aggregates DuckDB keeps in memory and which of
// them run at once, which the threads' timing decides: under 128 MiB a
// part of 25,000 alignments ran out of memory one run in three, alone in
// a fresh process, where the same part passed the other two (issue 23;
// nothing accumulates from part to part: the spill files are gone after
// each query). Every score is of one trace, so the halves give the
// part's rows, in its order.
func scoreOrHalve(ctx context.Context, conn *sql.Conn, q string, p part, halvings int, sum *Summary, add func(schema.Score) error) error {
	if err := p.Choose(ctx, conn); err != nil {
		return fmt.Errorf("choosing the traces to score: %w", err)
	}
	// The stale and unusable alignments are counted a part at a time
	// too: counted over the whole run at once, the lineage's join held
	// every trace, and DuckDB kept the memory after it (about 120 MB
	// more at ten times the paper's design).
	var unscored Summary
	if err := countUnscored(ctx, conn, &unscored); err != nil {
		return err
	}
	given := 0
	err := scorePart(ctx, conn, q, func(s schema.Score) error {
		given++
		return add(s)
	})
	if err == nil {
		sum.StaleText += unscored.StaleText
		sum.StaleDAG += unscored.StaleDAG
		sum.Unusable += unscored.Unusable
		return nil
	}
	if !duck.IsOutOfMemory(err) || given > 0 || halvings == 0 {
		return err
	}
	low, high, herr := halves(ctx, conn, p)
	if herr != nil {
		return fmt.Errorf("%w (%w)", err, herr)
	}
	for _, h := range []part{low, high} {
		if err := scoreOrHalve(ctx, conn, q, h, halvings-1, sum, add); err != nil {
			return err
		}
	}
	return nil
}

// halves cuts p, the part chosen on conn, in two at the median trace id of
// its alignments.
func halves(ctx context.Context, conn *sql.Conn, p part) (part, part, error) {
	var median sql.NullString
	if err := queryRow(ctx, conn, "SELECT quantile_disc(trace_id, 0.5) FROM alignments WHERE in_score_partition(trace_id)").Scan(&median); err != nil {
		return p, p, fmt.Errorf("cutting the part in two: %w", err)
	}
	if !median.Valid || median.String <= p.From {
		return p, p, errNoHalves
	}
	return part{From: p.From, To: median.String}, part{From: median.String, To: p.To}, nil
}
