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

// staleCheck finds an input's stale rows: rows selects the trace_id of
// each (a trace may come more than once, each row counting), and format
// says what their count means ("%d %s ...": the count and the scope's
// name). One query counts them for every scope at once.
type staleCheck struct {
	rows   string
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
	// allTraces are every trace of the run (and a row whose trace is no
	// longer in it).
	allTraces = traceScope{"traces", "true"}
	scopes    = []traceScope{probeTraces, controlTraces, referenceTraces, allTraces}
)

// perTrace is the check of a table with a row per trace: every trace has one
// for its current text (text_hash).
func perTrace(table string) []staleCheck {
	return []staleCheck{{
		fmt.Sprintf(`SELECT t.trace_id FROM traces t LEFT JOIN %s x USING (trace_id)
			WHERE x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash`, table),
		"%d %s have no " + table + " row for their current text"}}
}

var inputs = map[string]input{
	// Annotations are imported, not derived: nothing to go stale.
	"annotations": {"datg import annotations", ErrStale, nil},
	// Every controlled trace (Base included: one attempt each) has its
	// attempts: its cost is their tokens.
	"trials": {"datg control", ErrStale, []staleCheck{{
		`SELECT t.trace_id FROM traces t WHERE t.method IN ('control-base', 'loop-retry', 'formula-retry')
			AND NOT EXISTS (SELECT 1 FROM trials x WHERE x.trace_id = t.trace_id)`,
		"%d %s have no trials rows"}}},
	"answers":    {"datg verify", ErrNotGraded, perTrace("answers")},
	"compliance": {"datg langcheck", ErrStale, perTrace("compliance")},
	// Every trace has every grader's verdict on its current text.
	"verdicts": {"datg verify", ErrNotGraded, []staleCheck{{
		`SELECT t.trace_id FROM traces t LEFT JOIN (
				SELECT trace_id, text_hash, count(DISTINCT grader) AS graders FROM verdicts GROUP BY ALL) v
			ON v.trace_id = t.trace_id AND v.text_hash = t.text_hash
			WHERE coalesce(v.graders, 0) < (SELECT count(DISTINCT grader) FROM verdicts)`,
		"%d %s lack a grader's verdict for their current text"}}},
	"detections": {"datg langcheck", ErrStale, detectionChecks},
	// Scores cover the aligned traces, not all: they must come from
	// alignments of the current trace text and DAG content (lineage, see
	// stg_alignment_lineage), be computed from those very alignments (the
	// hashes a score records; NULL in scores from before they were
	// recorded), and cover every scorable alignment.
	"scores": {"datg align and datg score", ErrStale, []staleCheck{
		{`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE NOT l.current_text`,
			"%d scores of %s come from alignments of an older trace text"},
		{`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE l.current_text AND NOT l.current_dag`,
			"%d scores of %s come from alignments of a DAG that has changed since"},
		{`SELECT l.trace_id FROM scores s JOIN stg_alignment_lineage l USING (trace_id, dag_id, aligner)
			WHERE s.alignment_hash IS DISTINCT FROM l.alignment_hash AND s.alignment_hash IS NOT NULL
			   OR s.text_hash IS DISTINCT FROM l.text_hash AND s.text_hash IS NOT NULL
			   OR s.dag_hash IS DISTINCT FROM l.dag_hash AND s.dag_hash IS NOT NULL`,
			"%d scores of %s were computed from alignments made again since"},
		{`SELECT l.trace_id FROM stg_alignment_lineage l LEFT JOIN scores s USING (trace_id, dag_id, aligner)
			WHERE l.scorable AND s.trace_id IS NULL`,
			"%d alignments of %s have no scores row"},
	}},
}

// countQuery counts a check's stale rows in every scope, in scopes' order.
func countQuery(check staleCheck) string {
	counts := make([]string, len(scopes))
	for i, s := range scopes {
		counts[i] = fmt.Sprintf("count(*) FILTER (WHERE %s)", s.where)
	}
	return fmt.Sprintf("SELECT %s FROM (%s) stale LEFT JOIN traces t USING (trace_id)", strings.Join(counts, ", "), check.rows)
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

// inputCheck checks outputs' inputs, each input once per run however many
// outputs read it, in every scope at once.
type inputCheck struct {
	db    *duck.DB
	found map[string]map[traceScope]string // input -> scope -> what is stale in it ("" when nothing)
}

func newInputCheck(db *duck.DB) *inputCheck {
	return &inputCheck{db: db, found: map[string]map[traceScope]string{}}
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
		found, ok := c.found[t]
		if !ok {
			if found, err = c.staleRows(ctx, inputs[t]); err != nil {
				return nil, nil, fmt.Errorf("%s: checking %s: %w", output.Name, t, err)
			}
			c.found[t] = found
		}
		if what := found[output.Reads]; what != "" {
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

// staleRows describes, for each scope, the first check an input fails over
// the scope's traces ("" when none).
func (c *inputCheck) staleRows(ctx context.Context, in input) (map[traceScope]string, error) {
	found := map[traceScope]string{}
	for _, check := range in.checks {
		n := make([]int64, len(scopes))
		dest := make([]any, len(scopes))
		for i := range n {
			dest[i] = &n[i]
		}
		if err := c.db.QueryRowContext(ctx, countQuery(check)).Scan(dest...); err != nil {
			return nil, err
		}
		for i, s := range scopes {
			if _, done := found[s]; !done && n[i] > 0 {
				found[s] = fmt.Sprintf(check.format, n[i], s.name)
			}
		}
	}
	return found, nil
}
