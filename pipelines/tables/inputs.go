package tables

import (
	"context"
	"database/sql"
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
//
// Checks that read the same costly view (scores': stg_alignment_lineage,
// an MD5 of every alignment's reply) are one staleCheck, so the view is
// read once: formats then has one entry per check, and rows selects,
// besides trace_id, a boolean column stale_1, stale_2, ... for each, true
// where the row fails that check.
//
// A check in parts (parts set) counts over one part of the traces at a
// time (checkParts) and adds the parts' counts: its rows read only the
// part's trace ids (in_score_partition), and so does countQuery's join of
// traces. Unset, in_score_partition holds every trace: rows then selects
// the whole run's.
type staleCheck struct {
	rows    string
	formats []string
	parts   *checkPartition
}

// tracesCheck is the staleCheck of one check of a row per trace, counted
// in parts of the run's traces (byTraces): its rows must read only the
// traces of the part, and of the input only their rows.
func tracesCheck(rows, format string) staleCheck {
	return staleCheck{rows: rows, formats: []string{format}, parts: byTraces}
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
	return []staleCheck{tracesCheck(
		fmt.Sprintf(`SELECT t.trace_id FROM traces t LEFT JOIN (SELECT * FROM %s WHERE in_score_partition(trace_id)) x USING (trace_id)
			WHERE in_score_partition(t.trace_id) AND (x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash)`, table),
		"%d %s have no "+table+" row for their current text")}
}

var inputs = map[string]input{
	// Annotations are imported, not derived: nothing to go stale.
	"annotations": {"datg import annotations", ErrStale, nil},
	// Every controlled trace (Base included: one attempt each) has its
	// attempts: its cost is their tokens.
	"trials": {"datg control", ErrStale, []staleCheck{tracesCheck(
		`SELECT t.trace_id FROM traces t WHERE in_score_partition(t.trace_id)
			AND t.method IN ('control-base', 'loop-retry', 'formula-retry')
			AND NOT EXISTS (SELECT 1 FROM trials x WHERE in_score_partition(x.trace_id) AND x.trace_id = t.trace_id)`,
		"%d %s have no trials rows")}},
	"answers":    {"datg verify", ErrNotGraded, perTrace("answers")},
	"compliance": {"datg langcheck", ErrStale, perTrace("compliance")},
	// Every trace has every grader's verdict on its current text: every
	// grader of the run, whichever part its verdicts are in.
	"verdicts": {"datg verify", ErrNotGraded, []staleCheck{tracesCheck(
		`SELECT t.trace_id FROM traces t LEFT JOIN (
				SELECT trace_id, text_hash, count(DISTINCT grader) AS graders FROM verdicts
				WHERE in_score_partition(trace_id) GROUP BY ALL) v
			ON v.trace_id = t.trace_id AND v.text_hash = t.text_hash
			WHERE in_score_partition(t.trace_id) AND coalesce(v.graders, 0) < (SELECT count(DISTINCT grader) FROM verdicts)`,
		"%d %s lack a grader's verdict for their current text")}},
	"detections": {"datg langcheck", ErrStale, detectionChecks},
	// Scores cover the aligned traces, not all: they must come from
	// alignments of the current trace text and DAG content (lineage, see
	// stg_alignment_lineage), be computed from those very alignments (the
	// hashes a score records; NULL in scores from before they were
	// recorded), and cover every scorable alignment. One query reads the
	// lineage for the four checks (it took four, each hashing every
	// alignment's reply): a lineage row with a score (s.trace_id not NULL)
	// is a row of the scores' join with it, one without is an alignment
	// with no scores row.
	// The lineage and the scores of the run in one join took memory in the
	// run's size (272 MB at ten times the paper's design, 106 MB at it):
	// the check counts the run in parts of its traces (byAlignments).
	"scores": {"datg align and datg score", ErrStale, []staleCheck{{
		parts: byAlignments,
		rows: `SELECT * FROM (
			SELECT l.trace_id,
				s.trace_id IS NOT NULL AND NOT l.current_text AS stale_1,
				s.trace_id IS NOT NULL AND l.current_text AND NOT l.current_dag AS stale_2,
				s.trace_id IS NOT NULL AND (
					s.alignment_hash IS DISTINCT FROM l.alignment_hash AND s.alignment_hash IS NOT NULL
					OR s.text_hash IS DISTINCT FROM l.text_hash AND s.text_hash IS NOT NULL
					OR s.dag_hash IS DISTINCT FROM l.dag_hash AND s.dag_hash IS NOT NULL) AS stale_3,
				s.trace_id IS NULL AND l.scorable AS stale_4
			FROM stg_alignment_lineage l
			LEFT JOIN (SELECT * FROM scores WHERE in_score_partition(trace_id)) s USING (trace_id, dag_id, aligner))
		WHERE stale_1 OR stale_2 OR stale_3 OR stale_4`,
		formats: []string{
			"%d scores of %s come from alignments of an older trace text",
			"%d scores of %s come from alignments of a DAG that has changed since",
			"%d scores of %s were computed from alignments made again since",
			"%d alignments of %s have no scores row",
		}}}},
}

// countQuery counts a check's stale rows in every scope, in scopes' order
// (and for each of its checks in turn, when it has several).
func countQuery(check staleCheck) string {
	var counts []string
	for k := range check.formats {
		for _, s := range scopes {
			if len(check.formats) == 1 {
				counts = append(counts, fmt.Sprintf("count(*) FILTER (WHERE %s)", s.where))
			} else {
				counts = append(counts, fmt.Sprintf("count(*) FILTER (WHERE stale.stale_%d AND %s)", k+1, s.where))
			}
		}
	}
	traces := "traces"
	if check.parts != nil {
		traces = "(SELECT * FROM traces WHERE in_score_partition(trace_id))"
	}
	return fmt.Sprintf("SELECT %s FROM (%s) stale LEFT JOIN %s t USING (trace_id)", strings.Join(counts, ", "), check.rows, traces)
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
		n, err := c.count(ctx, check)
		if err != nil {
			return nil, err
		}
		for k, format := range check.formats {
			for i, s := range scopes {
				if _, done := found[s]; !done && n[k*len(scopes)+i] > 0 {
					found[s] = fmt.Sprintf(format, n[k*len(scopes)+i], s.name)
				}
			}
		}
	}
	return found, nil
}

// count counts a check's stale rows in every scope (countQuery's columns),
// part by part for a check in parts.
func (c *inputCheck) count(ctx context.Context, check staleCheck) ([]int64, error) {
	// The variables that choose a part are the connection's.
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// Every trace again for whoever uses the connection next.
	defer checkPart{}.Choose(context.WithoutCancel(ctx), conn)
	parts, err := check.cut(ctx, conn)
	if err != nil {
		return nil, err
	}
	return countParts(ctx, conn, check, parts)
}

// cut is the parts count counts a check in: one, every trace, for a check
// not counted in parts.
func (check staleCheck) cut(ctx context.Context, conn *sql.Conn) ([]checkPart, error) {
	if check.parts == nil {
		return []checkPart{{}}, nil
	}
	return checkParts(ctx, conn, check.parts.table, *check.parts.rows)
}

// countParts adds a check's counts over parts, which must cover every
// trace id once.
func countParts(ctx context.Context, conn *sql.Conn, check staleCheck, parts []checkPart) ([]int64, error) {
	total := make([]int64, len(check.formats)*len(scopes))
	n := make([]int64, len(total))
	dest := make([]any, len(n))
	for i := range n {
		dest[i] = &n[i]
	}
	q := countQuery(check)
	for _, p := range parts {
		if err := p.Choose(ctx, conn); err != nil {
			return nil, fmt.Errorf("choosing the traces to check: %w", err)
		}
		// The pages the part before freed go back first, so that a part
		// does not run on top of them (duck.ReleaseMemory).
		duck.ReleaseMemory()
		if err := conn.QueryRowContext(ctx, q).Scan(dest...); err != nil {
			return nil, err
		}
		for i := range n {
			total[i] += n[i]
		}
	}
	return total, nil
}
