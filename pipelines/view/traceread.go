package view

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// traceRows are the rows trace pages are made from, keyed by trace id
// (or problem id), for one trace (the server's page) or a batch of them
// (an export): both read them by row group the same way, so a page is the
// same bytes whichever way its rows came.
type traceRows struct {
	text, finish map[string]string
	questions    map[string][]questionRow // by problem, English last
	verdicts     map[string][]verdictView
	detections   map[string][]detectionView
	scores       map[string][]score // by aligner, ref_index
	dags         map[string][]dagView
	events       map[string][]event
	harms        map[string][]event
}

// questionRow is a problem's question in one language.
type questionRow struct{ lang, question, gold string }

// score is one aligner's scores of a trace against one DAG.
type score struct {
	dagID, aligner string
	ref            int
	cell           scoreCell
}

// distinct is keys without repeats, in their order.
func distinct(keys []string) []string {
	seen := make(map[string]bool, len(keys))
	var out []string
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// forEach calls read with each key, until one fails.
func forEach(keys []string, read func(key string) error) error {
	for _, k := range keys {
		if err := read(k); err != nil {
			return err
		}
	}
	return nil
}

// newTraceRows holds no rows yet.
func newTraceRows() *traceRows {
	return &traceRows{text: map[string]string{}, finish: map[string]string{}, questions: map[string][]questionRow{},
		verdicts: map[string][]verdictView{}, detections: map[string][]detectionView{}, scores: map[string][]score{},
		dags: map[string][]dagView{}, events: map[string][]event{}, harms: map[string][]event{}}
}

// readTraceRows reads the rows of the pages of ids, whose problems are
// problems. The reads are independent: for a batch they run at once; for
// one trace one after the other.
func readTraceRows(ctx context.Context, r *runDB, ids, problems []string) (*traceRows, error) {
	t := newTraceRows()
	if len(ids) == 0 {
		return t, nil
	}
	// By their row groups (tracegroups.go, dagread.go), each group read
	// once for a batch: DuckDB's queries (traceread_duckdb_test.go, the
	// reference the tests hold these to) visited every row group's
	// statistics for a trace, and for a batch decoded every text of the
	// run and needed the tables copied into its memory (BENCHMARKS.md).
	g := r.groups
	traces, probs := distinct(ids), distinct(problems)
	parts := []func() error{
		func() error { return t.groupTexts(g, traces) },
		func() error { return forEach(probs, func(p string) error { return t.groupQuestions(g, p) }) },
		func() error { return t.groupVerdicts(g, traces) },
		func() error { return t.groupDetections(g, traces) },
		func() error { return t.groupScores(g, traces) },
		func() error { return forEach(probs, func(p string) error { return t.groupDAGs(g, p) }) },
		func() error { return t.groupEvents(g, traces) },
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		if len(ids) == 1 {
			// One trace's reads are a few milliseconds each, and the
			// server's pages run beside each other.
			errs[i] = part()
			continue
		}
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

// dagAt is where a DAG is in traceRows.dags: its problem's list, its place.
type dagAt struct {
	problem string
	i       int
}

// dagIndex finds the DAGs read by their ids (a DAG listed twice: its
// last place).
func (t *traceRows) dagIndex() map[string]dagAt {
	index := map[string]dagAt{}
	for problem, ds := range t.dags {
		for i, d := range ds {
			index[d.DagID] = dagAt{problem, i}
		}
	}
	return index
}

// addNode adds a node to its DAG (none of the DAGs read: dropped), in the
// order the nodes come (the DAG's, by position), with its math marked.
func (t *traceRows) addNode(index map[string]dagAt, dagID, nodeID, anchor, desc string, final bool) {
	x, ok := index[dagID]
	if !ok {
		return
	}
	d := &t.dags[x.problem][x.i]
	d.drawing.Nodes = append(d.drawing.Nodes, dagNode{ID: nodeID, Label: anchor, Detail: desc, Final: final})
	d.Nodes = append(d.Nodes, nodeView{ID: nodeID, Anchor: labelHTML(anchor), Description: labelsHTML(desc), Final: final})
}

// addEdge adds an edge between two of its DAG's nodes (added first); an
// edge of a node the DAG lacks is not drawn.
func (t *traceRows) addEdge(index map[string]dagAt, dagID, parent, child string) {
	x, ok := index[dagID]
	if !ok {
		return
	}
	d := &t.dags[x.problem][x.i]
	from, to := d.position(parent), d.position(child)
	if from >= 0 && to >= 0 {
		d.drawing.Edges = append(d.drawing.Edges, dagEdge{From: from, To: to})
	}
}

// dagsOf is a copy of the problem's DAGs a page may mark up (statuses,
// drawings) without touching another page's.
func (t *traceRows) dagsOf(problem string) []dagView {
	ds := slices.Clone(t.dags[problem])
	for i := range ds {
		ds[i].Nodes = slices.Clone(ds[i].Nodes)
	}
	return ds
}

// verdictOf is a verdict row's label on the trace page, whichever way the
// row was read (DuckDB or the trace's row groups).
func verdictOf(reason string, hasAnswer, correct bool) string {
	switch {
	case reason == "gold-unparsed":
		return "gold-unparsed"
	case !hasAnswer:
		return "no-answer"
	case correct:
		return "correct"
	default:
		return "incorrect"
	}
}
