package tables

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// input is a table derived from traces that an output table needs
// (outputTable.Needs): who writes it, the error a stale one gives, and the
// checks that find its stale rows among the traces an output reads.
type input struct {
	producer string
	stale    error
	checks   []staleCheck
}

// staleCheck counts an input's stale rows among the traces of a scope:
// query(s) is the count, format says what it means ("%d %s ...", the count
// and the scope's name).
type staleCheck struct {
	query  func(s traceScope) string
	format string
}

// traceScope is a set of traces an output table reads (outputTable.Reads).
type traceScope struct {
	name  string // what its traces are called in a message ("probe traces")
	where string // a predicate over traces t
}

var (
	// probeTraces are the direction probe's: base traces at the probe's
	// seed (sql/macros/probe.sql).
	probeTraces = traceScope{"probe traces", "probe_trace(t.method, t.seed)"}
	// controlTraces are the control study's (Table 3).
	controlTraces = traceScope{"control traces", "t.method IN ('control-base', 'loop-retry', 'formula-retry')"}
	// referenceTraces are the accepted reference derivations.
	referenceTraces = traceScope{"reference traces", "t.method = 'reference'"}
	// allTraces are every trace of the run.
	allTraces = traceScope{"traces", "true"}
)

// holds is a predicate saying that the trace id in col is one of the
// scope's traces (true for every trace, even one no longer in traces).
func (s traceScope) holds(col string) string {
	if s == allTraces {
		return "true"
	}
	return fmt.Sprintf("%s IN (SELECT t.trace_id FROM traces t WHERE %s)", col, s.where)
}

// perTrace is the check of a table with a row per trace: every trace has one
// for its current text (text_hash).
func perTrace(table string) []staleCheck {
	return []staleCheck{{
		func(s traceScope) string {
			return fmt.Sprintf(`SELECT count(*) FROM traces t LEFT JOIN %s x USING (trace_id)
				WHERE (x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash) AND %s`, table, s.where)
		},
		"%d %s have no " + table + " row for their current text"}}
}

var inputs = map[string]input{
	// Annotations are imported, not derived: nothing to go stale.
	"annotations": {"datg import annotations", ErrStale, nil},
	// Every controlled trace (Base included: one attempt each) has its
	// attempts: its cost is their tokens.
	"trials": {"datg control", ErrStale, []staleCheck{{
		func(s traceScope) string {
			return fmt.Sprintf(`SELECT count(*) FROM traces t WHERE t.method IN ('control-base', 'loop-retry', 'formula-retry')
				AND NOT EXISTS (SELECT 1 FROM trials x WHERE x.trace_id = t.trace_id) AND %s`, s.where)
		},
		"%d %s have no trials rows"}}},
	"answers":    {"datg verify", ErrNotGraded, perTrace("answers")},
	"compliance": {"datg langcheck", ErrStale, perTrace("compliance")},
	// Every trace has every grader's verdict on its current text.
	"verdicts": {"datg verify", ErrNotGraded, []staleCheck{{
		func(s traceScope) string {
			return fmt.Sprintf(`SELECT count(*) FROM traces t LEFT JOIN (
					SELECT trace_id, text_hash, count(DISTINCT grader) AS graders FROM verdicts GROUP BY ALL) v
				ON v.trace_id = t.trace_id AND v.text_hash = t.text_hash
				WHERE coalesce(v.graders, 0) < (SELECT count(DISTINCT grader) FROM verdicts) AND %s`, s.where)
		},
		"%d %s lack a grader's verdict for their current text"}}},
	"detections": {"datg langcheck", ErrStale, detectionChecks},
	// Scores cover the aligned traces, not all: they must come from
	// alignments of the current trace text and DAG content (lineage, see
	// stg_alignment_lineage), be computed from those very alignments (the
	// hashes a score records; NULL in scores from before they were
	// recorded), and cover every scorable alignment.
	"scores": {"datg align and datg score", ErrStale, []staleCheck{
		{func(s traceScope) string {
			return `SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
				WHERE NOT l.current_text AND ` + s.holds("l.trace_id")
		}, "%d scores of %s come from alignments of an older trace text"},
		{func(s traceScope) string {
			return `SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
				WHERE l.current_text AND NOT l.current_dag AND ` + s.holds("l.trace_id")
		}, "%d scores of %s come from alignments of a DAG that has changed since"},
		{func(s traceScope) string {
			return `SELECT count(*) FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
				WHERE (s.alignment_hash IS DISTINCT FROM l.alignment_hash AND s.alignment_hash IS NOT NULL
				   OR s.text_hash IS DISTINCT FROM l.text_hash AND s.text_hash IS NOT NULL
				   OR s.dag_hash IS DISTINCT FROM l.dag_hash AND s.dag_hash IS NOT NULL) AND ` + s.holds("l.trace_id")
		}, "%d scores of %s were computed from alignments made again since"},
		{func(s traceScope) string {
			return `SELECT count(*) FROM stg_alignment_lineage l LEFT JOIN scores s USING (trace_id, dag_id, aligner)
				WHERE l.scorable AND s.trace_id IS NULL AND ` + s.holds("l.trace_id")
		}, "%d alignments of %s have no scores row"},
	}},
}

// producers are the commands that write the tables, each named once, in
// the order first needed.
func producers(tables []string) string {
	var out []string
	for _, t := range tables {
		if p := inputs[t].producer; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// staleInput is an input found stale over the traces of an output: what is
// stale in it.
type staleInput struct {
	input string
	what  string
}

// inputCheck checks outputs' inputs, each input once per scope however many
// outputs read it.
type inputCheck struct {
	db    *duck.DB
	found map[string]string // input and scope -> what is stale in it ("" when nothing)
}

func newInputCheck(db *duck.DB) *inputCheck {
	return &inputCheck{db: db, found: map[string]string{}}
}

// ready checks an output's inputs over the traces it reads: it returns the
// inputs the run lacks when there are any (the output is then skipped), else
// the stale ones (the output is then refused, since its numbers would
// silently count old verdicts).
func (c *inputCheck) ready(ctx context.Context, output outputTable) (missing []string, stale []staleInput, err error) {
	if missing = c.absent(output); len(missing) > 0 {
		return missing, nil, nil
	}
	for _, t := range output.Needs {
		key := t + "/" + output.Reads.name
		what, ok := c.found[key]
		if !ok {
			if what, err = c.staleRows(ctx, inputs[t], output.Reads); err != nil {
				return nil, nil, fmt.Errorf("%s: checking %s: %w", output.Name, t, err)
			}
			c.found[key] = what
		}
		if what != "" {
			stale = append(stale, staleInput{t, what})
		}
	}
	return nil, stale, nil
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

// staleRows describes the first check an input fails over the scope's
// traces ("" when none).
func (c *inputCheck) staleRows(ctx context.Context, in input, s traceScope) (string, error) {
	for _, check := range in.checks {
		var n int64
		if err := c.db.QueryRowContext(ctx, check.query(s)).Scan(&n); err != nil {
			return "", err
		}
		if n > 0 {
			return fmt.Sprintf(check.format, n, s.name), nil
		}
	}
	return "", nil
}
