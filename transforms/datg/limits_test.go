package datg

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// chain is a valid DAG of n nodes, node i with parents i-k..i-1, the last
// node final.
func chain(n, k int) DAG {
	d := DAG{FinalNodeID: fmt.Sprintf("n%d", n)}
	for i := 1; i <= n; i++ {
		node := Node{NodeID: fmt.Sprintf("n%d", i), Anchor: fmt.Sprintf("x%d = %d", i, i), Parents: []string{}}
		for p := max(1, i-k); p < i; p++ {
			node.Parents = append(node.Parents, fmt.Sprintf("n%d", p))
		}
		d.Nodes = append(d.Nodes, node)
	}
	return d
}

// A DAG at every cap parses and validates; one step beyond any of them is
// refused by ParseDAG (and Validate) as too large, and yields no DAG.
func TestSizeCaps(t *testing.T) {
	atCaps := chain(MaxNodes, 4)
	longID := strings.Repeat("i", MaxNodeIDChars)
	atCaps.Nodes[0].NodeID = longID
	for _, n := range atCaps.Nodes {
		for j, p := range n.Parents {
			if p == "n1" {
				n.Parents[j] = longID
			}
		}
	}
	atCaps.Nodes[2].Anchor = strings.Repeat("α", MaxAnchorChars) // characters, not bytes
	atCaps.Nodes[3].Description = strings.Repeat("d", MaxDescriptionChars)
	wide := chain(MaxParents+1, MaxParents) // the last node has MaxParents parents
	dense := chain(MaxEdges/MaxParents+MaxParents, MaxParents)
	// Trim to exactly MaxEdges, keeping each node's edge from the one before.
	for i, extra := range dense.Nodes {
		for len(dense.Edges()) > MaxEdges && len(extra.Parents) > 1 {
			extra.Parents = extra.Parents[1:]
			dense.Nodes[i] = extra
		}
	}
	for name, d := range map[string]DAG{"at the caps": atCaps, "widest node": wide, "most edges": dense} {
		parsed, err := ParseDAG(EncodeJSON(d))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(parsed.Nodes) != len(d.Nodes) {
			t.Fatalf("%s: %d nodes parsed, want %d", name, len(parsed.Nodes), len(d.Nodes))
		}
		if err := parsed.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if n := len(dense.Edges()); n != MaxEdges {
		t.Fatalf("the dense DAG has %d edges", n)
	}

	over := map[string]struct {
		dag  DAG
		want string
	}{
		"nodes":    {chain(MaxNodes+1, 1), "201 nodes, more than 200"},
		"parents":  {chain(MaxParents+2, MaxParents+1), "has 33 parents, more than 32"},
		"edges":    {chain(60, 30), "1335 edges, more than 1000"},
		"million":  {chain(MaxNodes, MaxParents), "more than 1000"},
		"node id":  {func() DAG { d := chain(1, 0); d.Nodes[0].NodeID = strings.Repeat("i", MaxNodeIDChars+1); return d }(), "an id of 65 characters"},
		"final id": {func() DAG { d := chain(1, 0); d.FinalNodeID = strings.Repeat("i", MaxNodeIDChars+1); return d }(), "final_node_id of 65 characters"},
		"anchor":   {func() DAG { d := chain(1, 0); d.Nodes[0].Anchor = strings.Repeat("α", MaxAnchorChars+1); return d }(), "an anchor of 1001 characters"},
		"description": {func() DAG {
			d := chain(1, 0)
			d.Nodes[0].Description = strings.Repeat("d", MaxDescriptionChars+1)
			return d
		}(), "a description of 1001 characters"},
	}
	for name, c := range over {
		d, err := ParseDAG(EncodeJSON(c.dag))
		if !errors.Is(err, ErrDAGTooLarge) || !errors.Is(err, ErrInvalidDAG) || !strings.Contains(err.Error(), c.want) || d.Nodes != nil {
			t.Errorf("%s: ParseDAG gave %d nodes, %v; want %q", name, len(d.Nodes), err, c.want)
		}
		if err := c.dag.Validate(); !errors.Is(err, ErrDAGTooLarge) {
			t.Errorf("%s: Validate gave %v", name, err)
		}
	}
	// The text itself is bounded before it is searched for JSON.
	long := EncodeJSON(chain(2, 1)) + strings.Repeat(" ", MaxDAGBytes)
	if _, err := ParseDAG(long); !errors.Is(err, ErrDAGTooLarge) || !strings.Contains(err.Error(), "bytes, more than") {
		t.Errorf("a reply of %d bytes: %v", len(long), err)
	}
}
