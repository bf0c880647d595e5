package simulate

import (
	"fmt"
	"testing"

	"github.com/datg/datg/transforms/datg"
)

// diamondChain is n nodes, each with the two before it as parents.
func diamondChain(n int) datg.DAG {
	var d datg.DAG
	for i := 1; i <= n; i++ {
		node := datg.Node{NodeID: fmt.Sprintf("n%d", i), Anchor: fmt.Sprintf("x%d = %d", i, i)}
		for j := max(1, i-2); j < i; j++ {
			node.Parents = append(node.Parents, fmt.Sprintf("n%d", j))
		}
		d.Nodes = append(d.Nodes, node)
	}
	d.FinalNodeID = fmt.Sprintf("n%d", n)
	return d
}

func TestFollowGuidanceShrinksToTheTargetAndStaysValid(t *testing.T) {
	for _, c := range []struct {
		history string
		want    int
	}{
		{"Size guidance (a target, not a limit): aim for about 3 nodes, ...", 3},
		{"aim for about 1 nodes", 1},
		{"aim for about 12 nodes", 7}, // never grown
		{"no guidance here", 7},
	} {
		d := followGuidance(diamondChain(7), c.history)
		if len(d.Nodes) != c.want || d.FinalNodeID != "n7" {
			t.Errorf("%q: %d nodes, final %s; want %d, n7", c.history, len(d.Nodes), d.FinalNodeID, c.want)
		}
		if err := d.Validate(); err != nil {
			t.Errorf("%q: %v", c.history, err)
		}
	}
}
