package datg

import (
	"fmt"
	"unicode/utf8"
)

// The largest DAG datg reads, from a model or an import. The paper gives
// no size for its DAGs; datg's DAG prompt aims for about 8 to 20 nodes
// (by level) with 60-character descriptions, and the symbolic builder
// makes at most 24: these caps are datg's choice, far above all of that. They keep a hostile DAG (an import of a million
// edges) out of the tables and bound what an explain page draws for a DAG:
// at most MaxNodes boxes and MaxEdges lines.
const (
	// MaxDAGBytes bounds the text a DAG is read from (a reply, an import's
	// dag value).
	MaxDAGBytes = 1 << 20
	// MaxNodes bounds the nodes of a DAG.
	MaxNodes = 200
	// MaxParents bounds the parents (incoming edges) of one node.
	MaxParents = 32
	// MaxEdges bounds the edges of a DAG.
	MaxEdges = 1000
	// MaxNodeIDChars bounds a node id, in characters.
	MaxNodeIDChars = 64
	// MaxAnchorChars bounds a node's anchor, in characters.
	MaxAnchorChars = 1000
	// MaxDescriptionChars bounds a node's description, in characters.
	MaxDescriptionChars = 1000
)

// checkSize reports the first cap the DAG exceeds.
func (d DAG) checkSize() error {
	tooLarge := func(format string, args ...any) error {
		return fmt.Errorf("%w: %w: %s", ErrInvalidDAG, ErrDAGTooLarge, fmt.Sprintf(format, args...))
	}
	if len(d.Nodes) > MaxNodes {
		return tooLarge("%d nodes, more than %d", len(d.Nodes), MaxNodes)
	}
	edges := 0
	for i, n := range d.Nodes {
		switch {
		case utf8.RuneCountInString(n.NodeID) > MaxNodeIDChars:
			return tooLarge("node %d has an id of %d characters, more than %d", i+1, utf8.RuneCountInString(n.NodeID), MaxNodeIDChars)
		case utf8.RuneCountInString(n.Anchor) > MaxAnchorChars:
			return tooLarge("node %s has an anchor of %d characters, more than %d", n.NodeID, utf8.RuneCountInString(n.Anchor), MaxAnchorChars)
		case utf8.RuneCountInString(n.Description) > MaxDescriptionChars:
			return tooLarge("node %s has a description of %d characters, more than %d", n.NodeID, utf8.RuneCountInString(n.Description), MaxDescriptionChars)
		case len(n.Parents) > MaxParents:
			return tooLarge("node %s has %d parents, more than %d", n.NodeID, len(n.Parents), MaxParents)
		}
		edges += len(n.Parents)
	}
	if utf8.RuneCountInString(d.FinalNodeID) > MaxNodeIDChars {
		return tooLarge("final_node_id of %d characters, more than %d", utf8.RuneCountInString(d.FinalNodeID), MaxNodeIDChars)
	}
	if edges > MaxEdges {
		return tooLarge("%d edges, more than %d", edges, MaxEdges)
	}
	return nil
}
