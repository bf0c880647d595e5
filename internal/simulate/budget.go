package simulate

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/datg/datg/transforms/datg"
)

// nodeTarget is the "aim for about N nodes" of datg's DAG prompt.
var nodeTarget = regexp.MustCompile(`aim for about (\d+) nodes`)

// followGuidance shrinks a DAG towards the node count the request's size
// guidance asks for, the way a model that heeds it folds steps together:
// the earliest non-final nodes are dropped first and their children inherit
// their parents, so the DAG stays valid. A request without the guidance, or
// a DAG already within it, is left as it is; the simulator never grows a
// DAG, so a target above the derivation's own size changes nothing.
func followGuidance(d datg.DAG, history string) datg.DAG {
	m := nodeTarget.FindStringSubmatch(history)
	if m == nil {
		return d
	}
	target, err := strconv.Atoi(m[1])
	if err != nil || target < 1 || len(d.Nodes) <= target {
		return d
	}
	drop := map[string][]string{} // dropped node -> its parents
	var kept []datg.Node
	extra := len(d.Nodes) - target
	for _, n := range d.Nodes {
		if extra > 0 && n.NodeID != d.FinalNodeID {
			drop[n.NodeID] = n.Parents
			extra--
			continue
		}
		kept = append(kept, n)
	}
	var inherit func(id string, out []string) []string
	inherit = func(id string, out []string) []string {
		ps, dropped := drop[id]
		if !dropped {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
			return out
		}
		for _, p := range ps {
			out = inherit(p, out)
		}
		return out
	}
	for i := range kept {
		var ps []string
		for _, p := range kept[i].Parents {
			ps = inherit(p, ps)
		}
		kept[i].Parents = ps
	}
	d.Nodes = kept
	return d
}
