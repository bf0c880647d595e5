package view

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// DuckDB's reads of trace pages' rows: what the pages read before their
// rows were read by row group (tracegroups.go, dagread.go), kept as the
// reference the group reads are checked against, query for query.

// keySet is the trace (or problem) ids a read is for, as a table want(k,
// key) the query joins: a row's k says whose it is, so the ids are only
// ever compared by DuckDB, never read back (a NUL in an id does not
// survive the driver's scan).
type keySet struct {
	keys []string
	with string // WITH want(k, key) AS (VALUES ...)
	args []any
}

func keysOf(ids []string) keySet {
	keys := distinct(ids) // each once: a key twice would read its rows twice
	var b strings.Builder
	b.WriteString("WITH want(k, key) AS (VALUES ")
	args := make([]any, len(keys))
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, CAST($%d AS VARCHAR))", i, i+1)
		args[i] = k
	}
	b.WriteString(") ")
	return keySet{keys: keys, with: b.String(), args: args}
}

// on joins want to the rows whose col is a key. For one key it also
// says col = $1, a filter DuckDB pushes into the table's scan (the
// server's page: the Parquet's row groups pruned by their statistics).
func (ks keySet) on(col string) string {
	join := "JOIN want ON " + col + " = want.key"
	if len(ks.keys) == 1 {
		join += " AND " + col + " = $1"
	}
	return join
}

// also says, for one key, that col (a correlated subquery's, equal to
// the outer row's key) is $1 too: a filter DuckDB pushes into that
// subquery's scan, which would read its whole table otherwise (the
// verdicts under answers, the detections under compliance). For a batch
// it says nothing: the subquery's own equality already restricts it.
func (ks keySet) also(col string) string {
	if len(ks.keys) == 1 {
		return " AND " + col + " = $1"
	}
	return ""
}

// what names the keys read, for errors.
func (ks keySet) what() string { return idsWhat(ks.keys) }

// each runs q and scan on each row.
func each(ctx context.Context, r *runDB, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := r.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *traceRows) readText(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, text, finish_reason FROM traces `+ks.on("trace_id"), ks.args, func(rows *sql.Rows) error {
		var k int
		var text, finish sql.NullString
		if err := rows.Scan(&k, &text, &finish); err != nil {
			return err
		}
		id := ks.keys[k]
		t.text[id], t.finish[id] = text.String, finish.String
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the text of %s: %w", ks.what(), err)
	}
	for _, id := range ks.keys {
		if _, ok := t.text[id]; !ok {
			return fmt.Errorf("reading trace %q: %w", id, sql.ErrNoRows)
		}
	}
	return nil
}

// readQuestions reads every language of the problems (a page shows its
// input language's and English).
func (t *traceRows) readQuestions(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, lang, question, answer FROM problems `+ks.on("problem_id")+`
		ORDER BY want.k, lang = 'en', lang`, ks.args, func(rows *sql.Rows) error {
		var k int
		var q questionRow
		if err := rows.Scan(&k, &q.lang, &q.question, &q.gold); err != nil {
			return err
		}
		problem := ks.keys[k]
		t.questions[problem] = append(t.questions[problem], q)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading problem %s: %w", ks.what(), err)
	}
	return nil
}

// readVerdicts reads both graders' verdicts (from verdicts, else answers).
func (t *traceRows) readVerdicts(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, grader, extracted, has_answer, correct, reason, found_in FROM verdicts `+ks.on("trace_id")+`
		UNION ALL SELECT want.k, grader, extracted, has_answer, correct, reason, found_in FROM answers a `+ks.on("trace_id")+`
			WHERE NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.trace_id = a.trace_id AND v.grader = split_part(a.grader, ' ', 1)`+ks.also("v.trace_id")+`)
		ORDER BY 1, 2`, ks.args, func(rows *sql.Rows) error {
		var k int
		var v verdictView
		var has, correct bool
		if err := rows.Scan(&k, &v.Grader, &v.Extracted, &has, &correct, &v.Reason, &v.FoundIn); err != nil {
			return err
		}
		v.Verdict = verdictOf(v.Reason, has, correct)
		id := ks.keys[k]
		t.verdicts[id] = append(t.verdicts[id], v)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the verdicts of %s: %w", ks.what(), err)
	}
	return nil
}

// readDetections reads both detectors' decisions (from detections, else
// compliance).
func (t *traceRows) readDetections(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, detector, detected, compliant, status, shares FROM detections `+ks.on("trace_id")+`
		UNION ALL SELECT want.k, detector, detected, compliant, status, shares FROM compliance c `+ks.on("trace_id")+`
			WHERE NOT EXISTS (SELECT 1 FROM detections d WHERE d.trace_id = c.trace_id AND d.detector = c.detector`+ks.also("d.trace_id")+`)
		ORDER BY 1, 2`, ks.args, func(rows *sql.Rows) error {
		var k int
		var d detectionView
		if err := rows.Scan(&k, &d.Detector, &d.Detected, &d.Compliant, &d.Status, &d.Shares); err != nil {
			return err
		}
		id := ks.keys[k]
		t.detections[id] = append(t.detections[id], d)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the language checks of %s: %w", ks.what(), err)
	}
	return nil
}

func (t *traceRows) readScores(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, dag_id, aligner, ref_index, car, pmf, har, best FROM scores `+ks.on("trace_id")+`
		ORDER BY want.k, aligner, ref_index`, ks.args, func(rows *sql.Rows) error {
		var k int
		var s score
		s.cell.Has = true
		if err := rows.Scan(&k, &s.dagID, &s.aligner, &s.ref, &s.cell.CAR, &s.cell.PMF, &s.cell.HAR, &s.cell.Best); err != nil {
			return err
		}
		id := ks.keys[k]
		t.scores[id] = append(t.scores[id], s)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the scores of %s: %w", ks.what(), err)
	}
	return nil
}

// readDAGs reads every reference DAG of the problems, with their nodes
// (their math marked once, however many pages show them) and edges.
func (t *traceRows) readDAGs(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, dag_id, ref_index, valid, reason FROM dags `+ks.on("problem_id")+`
		ORDER BY want.k, ref_index, dag_id`, ks.args, func(rows *sql.Rows) error {
		var k int
		var d dagView
		if err := rows.Scan(&k, &d.DagID, &d.RefIndex, &d.Valid, &d.Reason); err != nil {
			return err
		}
		problem := ks.keys[k]
		t.dags[problem] = append(t.dags[problem], d)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs of %s: %w", ks.what(), err)
	}
	index := t.dagIndex()
	nodesQ, edgesQ, args := ks.with+`SELECT n.dag_id, n.node_id, n.position, n.anchor, n.description, n.final
		FROM nodes n JOIN dags d USING (dag_id) `+ks.on("d.problem_id")+` ORDER BY n.dag_id, n.position, n.node_id`,
		ks.with+`SELECT e.dag_id, e.parent_id, e.child_id FROM edges e JOIN dags d USING (dag_id)
		`+ks.on("d.problem_id")+` ORDER BY e.dag_id, e.parent_id, e.child_id`, ks.args
	if len(ks.keys) == 1 {
		// One problem: its nodes and edges by its DAGs' ids (a DAG's id
		// is its row's key in dags: the join found the same rows), a
		// filter DuckDB pushes into the scans (the join on dags read
		// every node and edge of the run: 42 ms of a page's CPU at
		// 382,500 traces).
		if len(index) == 0 {
			return nil
		}
		var ids []string
		for _, d := range t.dags[ks.keys[0]] {
			ids = append(ids, d.DagID)
		}
		// The ids' range as well: DuckDB prunes the Parquet's row
		// groups by a range, not by a list (a list alone cost twice).
		in, inArgs := inList(ids)
		where := fmt.Sprintf(` WHERE dag_id >= $%d AND dag_id <= $%d AND dag_id IN %s`, len(ids)+1, len(ids)+2, in)
		nodesQ = `SELECT dag_id, node_id, position, anchor, description, final FROM nodes` + where + ` ORDER BY dag_id, position, node_id`
		edgesQ = `SELECT dag_id, parent_id, child_id FROM edges` + where + ` ORDER BY dag_id, parent_id, child_id`
		args = append(inArgs, slices.Min(ids), slices.Max(ids))
	}
	err = each(ctx, r, nodesQ, args, func(rows *sql.Rows) error {
		var dagID, nodeID, anchor, desc string
		var pos int
		var final bool
		if err := rows.Scan(&dagID, &nodeID, &pos, &anchor, &desc, &final); err != nil {
			return err
		}
		t.addNode(index, dagID, nodeID, anchor, desc, final)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' nodes of %s: %w", ks.what(), err)
	}
	err = each(ctx, r, edgesQ, args, func(rows *sql.Rows) error {
		var dagID, parent, child string
		if err := rows.Scan(&dagID, &parent, &child); err != nil {
			return err
		}
		t.addEdge(index, dagID, parent, child)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' edges of %s: %w", ks.what(), err)
	}
	return nil
}

// inList is an SQL list of parameters, ($1, $2, ...), for values.
func inList(values []string) (string, []any) {
	var b strings.Builder
	args := make([]any, len(values))
	b.WriteString("(")
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "CAST($%d AS VARCHAR)", i+1)
		args[i] = v
	}
	b.WriteString(")")
	return b.String(), args
}

// readEvents reads the traces' alignment events and harmful actions (a
// harmful action as an event: Status its category, NodeID its label).
func (t *traceRows) readEvents(ctx context.Context, r *runDB, ks keySet) error {
	read := func(q string, into map[string][]event) error {
		err := each(ctx, r, ks.with+q, ks.args, func(rows *sql.Rows) error {
			var k int
			var e event
			if err := rows.Scan(&k, &e.DagID, &e.Aligner, &e.NodeID, &e.Status, &e.Span, &e.Start, &e.End, &e.Block); err != nil {
				return err
			}
			id := ks.keys[k]
			into[id] = append(into[id], e)
			return nil
		})
		if err != nil {
			return fmt.Errorf("reading the alignment of %s: %w", ks.what(), err)
		}
		return nil
	}
	if err := read(`SELECT want.k, dag_id, aligner, node_id, status, evidence_span, start_char, end_char, block_id
		FROM alignment_events `+ks.on("trace_id")+` ORDER BY want.k, aligner, dag_id, node_id, seq`, t.events); err != nil {
		return err
	}
	return read(`SELECT want.k, dag_id, aligner, label, category, evidence_span, start_char, end_char, NULL
		FROM harmful_actions `+ks.on("trace_id")+` ORDER BY want.k, aligner, dag_id, category, seq`, t.harms)
}
