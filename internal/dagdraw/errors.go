package dagdraw

import "errors"

var (
	// ErrDuplicateNode means two nodes share an id.
	ErrDuplicateNode = errors.New("duplicate node id")
	// ErrEmptyID means a node has no id.
	ErrEmptyID = errors.New("node without an id")
	// ErrUnknownNode means an edge names a node the graph lacks.
	ErrUnknownNode = errors.New("edge to an unknown node")
	// ErrCycle means the edges form a cycle (a self-loop included): a DAG
	// has none, and a layered drawing cannot show one.
	ErrCycle = errors.New("cycle in the graph")
	// ErrTooLarge means the graph is past MaxNodes, MaxEdges or
	// MaxRouted: its drawing would be unreadable and slow.
	ErrTooLarge = errors.New("graph too large to draw")
)
