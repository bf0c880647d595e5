package tables

import (
	"context"
	"fmt"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// input is a table derived from traces that an output table needs
// (outputTable.Needs): who writes it, the error a stale one gives, and the
// checks that find its stale rows (each query counts them; format says
// what the count means).
type input struct {
	producer string
	stale    error
	checks   []staleCheck
}

type staleCheck struct{ query, format string }

// perTrace is the check of a table with a row per trace: every trace has one
// for its current text (text_hash).
func perTrace(table string) []staleCheck {
	return []staleCheck{{
		fmt.Sprintf(`SELECT count(*) FROM traces t LEFT JOIN %s x USING (trace_id)
			WHERE x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash`, table),
		"%d traces have no " + table + " row for their current text"}}
}

var inputs = map[string]input{
	// Annotations are imported, not derived: nothing to go stale.
	"annotations": {"datg import annotations", ErrStale, nil},
	// Every controlled trace has its attempts: its cost is their tokens.
	"trials": {"datg control", ErrStale, []staleCheck{{
		`SELECT count(*) FROM traces t WHERE t.method IN ('loop-retry', 'formula-retry')
			AND NOT EXISTS (SELECT 1 FROM trials x WHERE x.trace_id = t.trace_id)`,
		"%d controlled traces have no trials rows"}}},
	"answers":    {"datg verify", ErrNotGraded, perTrace("answers")},
	"compliance": {"datg langcheck", ErrStale, perTrace("compliance")},
	// Every trace has every grader's verdict on its current text.
	"verdicts": {"datg verify", ErrNotGraded, []staleCheck{{
		`SELECT count(*) FROM traces t LEFT JOIN (
				SELECT trace_id, text_hash, count(DISTINCT grader) AS graders FROM verdicts GROUP BY ALL) v
			ON v.trace_id = t.trace_id AND v.text_hash = t.text_hash
			WHERE coalesce(v.graders, 0) < (SELECT count(DISTINCT grader) FROM verdicts)`,
		"%d traces lack a grader's verdict for their current text"}}},
	"detections": {"datg langcheck", ErrStale, detectionChecks},
	// Scores cover the aligned traces, not all: they must come from
	// alignments of the current trace text and DAG content (lineage, see
	// stg_alignment_lineage), be computed from those very alignments (the
	// hashes a score records; NULL in scores from before they were
	// recorded), and cover every scorable alignment.
	"scores": {"datg align and datg score", ErrStale, []staleCheck{
		{`SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE NOT l.current_text`,
			"%d scores come from alignments of an older trace text"},
		{`SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE l.current_text AND NOT l.current_dag`,
			"%d scores come from alignments of a DAG that has changed since"},
		{`SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE s.alignment_hash IS DISTINCT FROM l.alignment_hash AND s.alignment_hash IS NOT NULL
			   OR s.text_hash IS DISTINCT FROM l.text_hash AND s.text_hash IS NOT NULL
			   OR s.dag_hash IS DISTINCT FROM l.dag_hash AND s.dag_hash IS NOT NULL`,
			"%d scores were computed from alignments made again since"},
		{`SELECT count(*) FROM stg_alignment_lineage l LEFT JOIN scores s USING (trace_id, dag_id, aligner)
			WHERE l.scorable AND s.trace_id IS NULL`,
			"%d alignments have no scores row"},
	}},
}

func producers(tables []string) string {
	var out []string
	for _, t := range tables {
		out = append(out, inputs[t].producer)
	}
	return strings.Join(out, ", ")
}

// inputCheck checks outputs' inputs, each input once per run however many
// outputs read it.
type inputCheck struct {
	db    *duck.DB
	found map[string]string // input -> what is stale in it ("" when nothing)
}

func newInputCheck(db *duck.DB) *inputCheck {
	return &inputCheck{db: db, found: map[string]string{}}
}

// ready checks an output's inputs in order: it returns the missing ones
// when it meets one, and fails when one before it is stale, since the
// output's numbers would silently count old verdicts.
func (c *inputCheck) ready(ctx context.Context, output outputTable) (missing []string, err error) {
	for _, t := range output.Needs {
		if !c.db.Present[t] {
			return c.absent(output), nil
		}
		stale, ok := c.found[t]
		if !ok {
			if stale, err = c.staleRows(ctx, inputs[t]); err != nil {
				return nil, err
			}
			c.found[t] = stale
		}
		if stale != "" {
			return nil, fmt.Errorf("%s: %w: %s (run %s)", output.Name, inputs[t].stale, stale, inputs[t].producer)
		}
	}
	return nil, nil
}

// absent are the inputs of an output that the run lacks.
func (c *inputCheck) absent(output outputTable) []string {
	var out []string
	for _, t := range output.Needs {
		if !c.db.Present[t] {
			out = append(out, t)
		}
	}
	return out
}

// staleRows describes the first check an input fails ("" when none).
func (c *inputCheck) staleRows(ctx context.Context, in input) (string, error) {
	for _, check := range in.checks {
		var n int64
		if err := c.db.QueryRowContext(ctx, check.query).Scan(&n); err != nil {
			return "", err
		}
		if n > 0 {
			return fmt.Sprintf(check.format, n), nil
		}
	}
	return "", nil
}
