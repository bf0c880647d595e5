package view

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/datg/datg/schema"
)

// The trace page's reads of its problem's questions and reference DAGs by
// row group (groupread.go): the same rows, values and order as
// readQuestions' and readDAGs' queries over DuckDB's views, which visited
// every row group's statistics of problems, dags, nodes and edges for each
// page (the DAGs' three queries 22 ms of CPU at 38,250 traces, 40 ms at
// 382,500, whose problems are ten times as many). The problems and dags
// are read by problem_id, nodes and edges by dag_id, for the problem's
// DAGs at once, each from the row groups whose statistics and key filter
// (keyfilter.go) may hold them. Nothing is kept but the generation's files
// and filters (groupFiles), so no row can be stale.

type questionRead struct {
	Lang     *string `parquet:"lang"`
	Question *string `parquet:"question"`
	Answer   *string `parquet:"answer"`
}

// groupQuestions is readQuestions for one problem: every language's
// question and gold, English last (ORDER BY lang = 'en', lang).
func (t *traceRows) groupQuestions(g *groupFiles, problem string) error {
	rows, err := groupRowsOfAny(g, schema.Problems.Table, "problem_id", []string{problem}, func(q *questionRead) error {
		return required("lang", q.Lang, "question", q.Question, "answer", q.Answer)
	})
	if err != nil {
		return fmt.Errorf("reading problem %q: %w", problem, err)
	}
	slices.SortStableFunc(rows, func(a, b questionRead) int {
		return cmp.Or(compareBool(*a.Lang == "en", *b.Lang == "en"), strings.Compare(*a.Lang, *b.Lang))
	})
	for _, q := range rows {
		t.questions[problem] = append(t.questions[problem], questionRow{lang: *q.Lang, question: *q.Question, gold: *q.Answer})
	}
	return nil
}

type dagRead struct {
	DagID    *string `parquet:"dag_id"`
	RefIndex *int32  `parquet:"ref_index"`
	Valid    *bool   `parquet:"valid"`
	Reason   *string `parquet:"reason"`
}

type nodeRead struct {
	DagID       *string `parquet:"dag_id"`
	NodeID      *string `parquet:"node_id"`
	Position    *int32  `parquet:"position"`
	Anchor      *string `parquet:"anchor"`
	Description *string `parquet:"description"`
	Final       *bool   `parquet:"final"`
}

type edgeRead struct {
	DagID    *string `parquet:"dag_id"`
	ParentID *string `parquet:"parent_id"`
	ChildID  *string `parquet:"child_id"`
}

// groupDAGs is readDAGs for one problem: its DAGs by ref_index (then id),
// each DAG's nodes by position (then id), its edges by parent and child.
func (t *traceRows) groupDAGs(g *groupFiles, problem string) error {
	dags, err := groupRowsOfAny(g, schema.DAGs.Table, "problem_id", []string{problem}, func(d *dagRead) error {
		return required("dag_id", d.DagID, "ref_index", d.RefIndex, "valid", d.Valid, "reason", d.Reason)
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs of %q: %w", problem, err)
	}
	slices.SortStableFunc(dags, func(a, b dagRead) int {
		return cmp.Or(cmp.Compare(*a.RefIndex, *b.RefIndex), strings.Compare(*a.DagID, *b.DagID))
	})
	var ids []string
	for _, d := range dags {
		t.dags[problem] = append(t.dags[problem], dagView{DagID: *d.DagID, RefIndex: int(*d.RefIndex), Valid: *d.Valid, Reason: *d.Reason})
		ids = append(ids, *d.DagID)
	}
	if len(ids) == 0 {
		return nil
	}
	index := t.dagIndex()
	nodes, err := groupRowsOfAny(g, schema.Nodes.Table, "dag_id", ids, func(n *nodeRead) error {
		return required("node_id", n.NodeID, "position", n.Position, "anchor", n.Anchor, "description", n.Description, "final", n.Final)
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' nodes of %q: %w", problem, err)
	}
	slices.SortStableFunc(nodes, func(a, b nodeRead) int {
		return cmp.Or(strings.Compare(*a.DagID, *b.DagID), cmp.Compare(*a.Position, *b.Position), strings.Compare(*a.NodeID, *b.NodeID))
	})
	for _, n := range nodes {
		t.addNode(index, *n.DagID, *n.NodeID, *n.Anchor, *n.Description, *n.Final)
	}
	edges, err := groupRowsOfAny(g, schema.Edges.Table, "dag_id", ids, func(e *edgeRead) error {
		return required("parent_id", e.ParentID, "child_id", e.ChildID)
	})
	if err != nil {
		return fmt.Errorf("reading the DAGs' edges of %q: %w", problem, err)
	}
	slices.SortStableFunc(edges, func(a, b edgeRead) int {
		return cmp.Or(strings.Compare(*a.DagID, *b.DagID), strings.Compare(*a.ParentID, *b.ParentID), strings.Compare(*a.ChildID, *b.ChildID))
	})
	for _, e := range edges {
		t.addEdge(index, *e.DagID, *e.ParentID, *e.ChildID)
	}
	return nil
}

// compareBool orders false before true, as DuckDB's ORDER BY does.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
