package dags

import (
	"errors"
	"sort"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// Stored is a DAG as the tables hold it.
type Stored struct {
	Row schema.DAG
	DAG datg.DAG
}

// Load reads every DAG of a run, keyed by dag_id. A run without DAGs has
// none (and no error).
func Load(dir string) (map[string]*Stored, error) {
	out := map[string]*Stored{}
	err := store.Scan(dir, schema.DAGs, func(d *schema.DAG) error {
		out[d.DagID] = &Stored{Row: *d, DAG: datg.DAG{FinalNodeID: d.FinalNodeID}}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	type pos struct {
		node datg.Node
		at   int32
	}
	nodes := map[string][]pos{}
	err = store.Scan(dir, schema.Nodes, func(n *schema.Node) error {
		nodes[n.DagID] = append(nodes[n.DagID], pos{datg.Node{NodeID: n.NodeID, Anchor: n.Anchor, Description: n.Description}, n.Position})
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNoTable) {
		return nil, err
	}
	parents := map[[2]string][]string{}
	err = store.Scan(dir, schema.Edges, func(e *schema.Edge) error {
		k := [2]string{e.DagID, e.ChildID}
		parents[k] = append(parents[k], e.ParentID)
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNoTable) {
		return nil, err
	}
	for id, ns := range nodes {
		s, ok := out[id]
		if !ok {
			continue
		}
		sort.Slice(ns, func(i, j int) bool { return ns[i].at < ns[j].at })
		for _, p := range ns {
			p.node.Parents = parents[[2]string{id, p.node.NodeID}]
			if p.node.Parents == nil {
				p.node.Parents = []string{}
			}
			s.DAG.Nodes = append(s.DAG.Nodes, p.node)
		}
	}
	return out, nil
}

// ByProblem groups valid DAGs by problem, in ref_index order.
func ByProblem(all map[string]*Stored) map[string][]*Stored {
	out := map[string][]*Stored{}
	for _, s := range all {
		if s.Row.Valid {
			out[s.Row.ProblemID] = append(out[s.Row.ProblemID], s)
		}
	}
	for _, l := range out {
		sort.Slice(l, func(i, j int) bool { return l[i].Row.RefIndex < l[j].Row.RefIndex })
	}
	return out
}
