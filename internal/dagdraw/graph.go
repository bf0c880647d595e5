package dagdraw

import "fmt"

// Node is a node to draw.
type Node struct {
	ID     string // unique; the data-node attribute of its element
	Label  string // the box's text, whole (math in it rendered: texmath.SplitAnchor)
	Title  string // shown on hover (e.g. the node's description); may be empty
	Status string // its status: shown under the id, and its class status-<lower(Status)>
	Final  bool   // the DAG's final node: class final (a thicker border)
}

// Edge is an edge from a parent to a child.
type Edge struct {
	From, To string
	Class    string // the path's extra class (e.g. ordered, violated, open)
	Title    string // shown on hover; default "From → To"
}

// Graph is a DAG to draw.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// The limits of what Lay draws (ErrTooLarge past them). Reasoning DAGs
// have 3 to 40 nodes.
const (
	MaxNodes = 2000
	MaxEdges = 20000
	// MaxRouted bounds the nodes and dummy nodes (one per layer an edge
	// crosses) together.
	MaxRouted = 20000
)

// index checks the graph (ids unique and present, edges between known
// nodes, sizes within the limits) and maps ids to node numbers.
func (g Graph) index() (map[string]int, error) {
	if len(g.Nodes) > MaxNodes || len(g.Edges) > MaxEdges {
		return nil, fmt.Errorf("%w: %d nodes and %d edges (at most %d and %d)", ErrTooLarge, len(g.Nodes), len(g.Edges), MaxNodes, MaxEdges)
	}
	ids := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		if n.ID == "" {
			return nil, fmt.Errorf("%w: node %d", ErrEmptyID, i+1)
		}
		if _, dup := ids[n.ID]; dup {
			return nil, fmt.Errorf("%w: %q", ErrDuplicateNode, n.ID)
		}
		ids[n.ID] = i
	}
	for _, e := range g.Edges {
		for _, end := range []string{e.From, e.To} {
			if _, ok := ids[end]; !ok {
				return nil, fmt.Errorf("%w: %q → %q names %q", ErrUnknownNode, e.From, e.To, end)
			}
		}
	}
	return ids, nil
}
