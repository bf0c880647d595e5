package dags

import (
	"errors"
	"fmt"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// ID is the id of a problem's ref_index-th reference DAG.
func ID(problemID string, refIndex int) string { return fmt.Sprintf("%s/r%d", problemID, refIndex) }

// Rows reads a DAG reply and returns its rows: the DAG (valid or not, with
// the reason), and its nodes and edges when the JSON could be read.
func Rows(problemID string, refIndex int, raw, builder string) (schema.DAG, []schema.Node, []schema.Edge, error) {
	id := ID(problemID, refIndex)
	row := schema.DAG{DagID: id, ProblemID: problemID, RefIndex: int32(refIndex), Raw: raw, Builder: builder}
	d, err := datg.ParseDAG(raw)
	if err != nil {
		row.Reason = err.Error()
		return row, nil, nil, err
	}
	nodes, edges := NodeRows(id, d)
	row.FinalNodeID = d.FinalNodeID
	row.Nodes, row.EdgeCount = int32(len(nodes)), int32(len(edges))
	if err := d.Validate(); err != nil {
		row.Reason = err.Error()
		return row, nodes, edges, err
	}
	row.Valid = true
	return row, nodes, edges, nil
}

// NodeRows is a DAG's nodes and edges as table rows. Repeated node ids or
// parents (in an invalid DAG) are kept once.
func NodeRows(dagID string, d datg.DAG) ([]schema.Node, []schema.Edge) {
	var nodes []schema.Node
	var edges []schema.Edge
	seenNode := map[string]bool{}
	seenEdge := map[[2]string]bool{}
	for i, n := range d.Nodes {
		if seenNode[n.NodeID] {
			continue
		}
		seenNode[n.NodeID] = true
		nodes = append(nodes, schema.Node{DagID: dagID, NodeID: n.NodeID, Position: int32(i), Anchor: n.Anchor,
			Description: n.Description, Final: n.NodeID == d.FinalNodeID})
		for _, p := range n.Parents {
			if seenEdge[[2]string{p, n.NodeID}] {
				continue
			}
			seenEdge[[2]string{p, n.NodeID}] = true
			edges = append(edges, schema.Edge{DagID: dagID, ParentID: p, ChildID: n.NodeID})
		}
	}
	return nodes, edges
}

// Writer merges DAGs into the dags, nodes and edges tables; a DAG written
// replaces that DAG's rows in all three.
type Writer struct {
	dags  *store.Merger[schema.DAG]
	nodes *store.Merger[schema.Node]
	edges *store.Merger[schema.Edge]
}

// NewWriter starts a merge into the three tables.
func NewWriter(dir string, meta store.Meta) (*Writer, error) {
	w := &Writer{}
	var err error
	if w.dags, err = store.NewMerger(dir, schema.DAGs, meta); err != nil {
		return nil, err
	}
	if w.nodes, err = store.NewMerger(dir, schema.Nodes, meta); err != nil {
		w.dags.Abort()
		return nil, err
	}
	if w.edges, err = store.NewMerger(dir, schema.Edges, meta); err != nil {
		w.dags.Abort()
		w.nodes.Abort()
		return nil, err
	}
	w.nodes.Group = func(n *schema.Node) string { return n.DagID }
	w.edges.Group = func(e *schema.Edge) string { return e.DagID }
	return w, nil
}

// Add writes one DAG with its nodes and edges.
func (w *Writer) Add(d schema.DAG, nodes []schema.Node, edges []schema.Edge) error {
	w.nodes.ReplaceGroup(d.DagID)
	w.edges.ReplaceGroup(d.DagID)
	return errors.Join(w.dags.Write(d), w.nodes.Write(nodes...), w.edges.Write(edges...))
}

// Commit makes the new versions the tables.
func (w *Writer) Commit() error {
	if err := w.dags.Commit(); err != nil {
		w.nodes.Abort()
		w.edges.Abort()
		return err
	}
	return errors.Join(w.nodes.Commit(), w.edges.Commit())
}

// Abort discards the new versions.
func (w *Writer) Abort() {
	w.dags.Abort()
	w.nodes.Abort()
	w.edges.Abort()
}
