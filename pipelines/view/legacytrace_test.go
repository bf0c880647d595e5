package view

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// The trace page's reads and walks as they were before the page was made
// to cost the same at any run size (verbatim but for names), kept to
// compare with: TestTracePageIsWhatItWas.

// legacyReadTraceRows is readTraceRows with the verdicts and detections
// read as they were (their subqueries unrestricted).
func legacyReadTraceRows(ctx context.Context, r *runDB, ids, problems []string) (*traceRows, error) {
	t := newTraceRows()
	if len(ids) == 0 {
		return t, nil
	}
	traces, probs := keysOf(ids), keysOf(problems)
	parts := []func() error{
		func() error { return t.readText(ctx, r, traces) },
		func() error { return t.readQuestions(ctx, r, probs) },
		func() error { return t.legacyReadVerdicts(ctx, r, traces) },
		func() error { return t.legacyReadDetections(ctx, r, traces) },
		func() error { return t.readScores(ctx, r, traces) },
		func() error { return t.legacyReadDAGs(ctx, r, probs) },
		func() error { return t.readEvents(ctx, r, traces) },
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = part()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *traceRows) legacyReadVerdicts(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, grader, extracted, has_answer, correct, reason, found_in FROM verdicts `+ks.on("trace_id")+`
		UNION ALL SELECT want.k, grader, extracted, has_answer, correct, reason, found_in FROM answers a `+ks.on("trace_id")+`
			WHERE NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.trace_id = a.trace_id AND v.grader = split_part(a.grader, ' ', 1))
		ORDER BY 1, 2`, ks.args, func(rows *sql.Rows) error {
		var k int
		var v verdictView
		var has, correct bool
		if err := rows.Scan(&k, &v.Grader, &v.Extracted, &has, &correct, &v.Reason, &v.FoundIn); err != nil {
			return err
		}
		switch {
		case v.Reason == "gold-unparsed":
			v.Verdict = "gold-unparsed"
		case !has:
			v.Verdict = "no-answer"
		case correct:
			v.Verdict = "correct"
		default:
			v.Verdict = "incorrect"
		}
		id := ks.keys[k]
		t.verdicts[id] = append(t.verdicts[id], v)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the verdicts of %s: %w", ks.what(), err)
	}
	return nil
}

func (t *traceRows) legacyReadDetections(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, detector, detected, compliant, status, shares FROM detections `+ks.on("trace_id")+`
		UNION ALL SELECT want.k, detector, detected, compliant, status, shares FROM compliance c `+ks.on("trace_id")+`
			WHERE NOT EXISTS (SELECT 1 FROM detections d WHERE d.trace_id = c.trace_id AND d.detector = c.detector)
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

func legacyPlaceOf(ctx context.Context, r *runDB, f Filter, id string) (*place, error) {
	var search bitmap
	if f.Q != "" {
		var err error
		if search, err = r.searchRows(ctx, f.Q); err != nil {
			return nil, err
		}
	}
	self, ok := r.rows.find(id)
	if !ok {
		return nil, nil
	}
	res := r.query(f, search)
	r.order(f, res.matched)
	for k, j := range res.matched {
		if j != self {
			continue
		}
		nav := &place{pos: k + 1, total: len(res.matched)}
		if k > 0 {
			nav.prev = f.Trace(r.rows.id(res.matched[k-1]))
		}
		if k+1 < len(res.matched) {
			nav.next = f.Trace(r.rows.id(res.matched[k+1]))
		}
		return nav, nil
	}
	return nil, nil
}

func legacyRelated(r *runDB, p *tracePage) []relatedRow {
	p.Related = nil
	byProblem := Filter{Problem: p.T.Problem, Per: defaultPer, Page: 1}.withAligner(r.aligners)
	same := r.query(byProblem, nil).matched
	r.order(byProblem, same)
	rf := r.rows
	for _, j := range same[:min(len(same), maxRelated)] {
		id := rf.id(j)
		p.Related = append(p.Related, relatedRow{Model: rf.val(0, j), Direction: rf.val(2, j), InputLang: rf.val(4, j), ReasoningLang: rf.val(5, j),
			Seed: rf.val(7, j), Method: rf.val(6, j), Verdict: rf.val(9, j), Current: id == p.T.ID, Href: Filter{}.Trace(id), id: id})
	}
	return p.Related
}

// legacyReadDAGs is readDAGs as it was at 94f026c (nodes and edges by a
// join on the problem's DAGs): it reads every reference DAG of the problems, with their nodes
// (their math marked once, however many pages show them) and edges.
func (t *traceRows) legacyReadDAGs(ctx context.Context, r *runDB, ks keySet) error {
	err := each(ctx, r, ks.with+`SELECT want.k, dag_id, ref_index, valid, reason FROM dags `+ks.on("problem_id")+`
		ORDER BY want.k, ref_index`, ks.args, func(rows *sql.Rows) error {
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
	type at struct {
		problem string
		i       int
	}
	index := map[string]at{}
	for problem, ds := range t.dags {
		for i, d := range ds {
			index[d.DagID] = at{problem, i}
		}
	}
	err = each(ctx, r, ks.with+`SELECT n.dag_id, n.node_id, n.position, n.anchor, n.description, n.final
		FROM nodes n JOIN dags d USING (dag_id) `+ks.on("d.problem_id")+` ORDER BY n.dag_id, n.position`, ks.args, func(rows *sql.Rows) error {
		var dagID, nodeID, anchor, desc string
		var pos int
		var final bool
		if err := rows.Scan(&dagID, &nodeID, &pos, &anchor, &desc, &final); err != nil {
			return err
		}
		x, ok := index[dagID]
		if !ok {
			return nil
		}
		d := &t.dags[x.problem][x.i]
		d.drawing.Nodes = append(d.drawing.Nodes, dagNode{ID: nodeID, Label: anchor, Detail: desc, Final: final})
		d.Nodes = append(d.Nodes, nodeView{ID: nodeID, Anchor: labelHTML(anchor), Description: labelsHTML(desc), Final: final})
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' nodes of %s: %w", ks.what(), err)
	}
	err = each(ctx, r, ks.with+`SELECT e.dag_id, e.parent_id, e.child_id FROM edges e JOIN dags d USING (dag_id)
		`+ks.on("d.problem_id")+` ORDER BY e.dag_id, e.parent_id, e.child_id`, ks.args, func(rows *sql.Rows) error {
		var dagID, parent, child string
		if err := rows.Scan(&dagID, &parent, &child); err != nil {
			return err
		}
		x, ok := index[dagID]
		if !ok {
			return nil
		}
		d := &t.dags[x.problem][x.i]
		from, to := d.position(parent), d.position(child)
		if from >= 0 && to >= 0 {
			d.drawing.Edges = append(d.drawing.Edges, dagEdge{From: from, To: to})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' edges of %s: %w", ks.what(), err)
	}
	return nil
}
