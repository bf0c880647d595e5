package explain

import (
	"sort"
	"strings"

	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

// nodeView is a DAG node placed on the drawing.
type nodeView struct {
	ID, Anchor, Description, Status string
	X, Y                            float64
	pos, block                      int // earliest located COMMIT (-1: none)
}

// edgeView is an edge drawn from parent to child: ordered (both commit in
// order or in one block), violated (both commit, child first), or open.
type edgeView struct {
	Parent, Child  string
	X1, Y1, X2, Y2 float64
	Mark           string
}

// segment is a run of trace text with the strongest highlight over it.
type segment struct {
	Text, Class, Title string
}

const (
	boxW, boxH     = 150.0, 48.0
	layerGap, padX = 96.0, 24.0
)

// statuses are each node's status from its events (COMMIT over ERROR over
// ATTEMPT; MISSING without events) and its earliest located COMMIT.
func statuses(d datg.DAG, events []schema.AlignmentEvent) []nodeView {
	// Strongest first, as the scores read them.
	rank := map[study.NodeStatus]int{study.Commit: 3, study.Error: 2, study.Attempt: 1}
	out := make([]nodeView, len(d.Nodes))
	for i, n := range d.Nodes {
		v := nodeView{ID: n.NodeID, Anchor: n.Anchor, Description: n.Description, Status: string(study.Missing), pos: -1, block: -1}
		for _, e := range events {
			if e.NodeID != n.NodeID {
				continue
			}
			if rank[study.NodeStatus(e.Status)] > rank[study.NodeStatus(v.Status)] {
				v.Status = e.Status
			}
			if e.Status == string(study.Commit) && e.StartChar != nil && (v.pos < 0 || int(*e.StartChar) < v.pos) {
				v.pos, v.block = int(*e.StartChar), -1
				if e.BlockID != nil {
					v.block = int(*e.BlockID)
				}
			}
		}
		out[i] = v
	}
	return out
}

// layout places nodes in layers by their longest path from a root and
// returns the edges with their marks, and the drawing's size.
func layout(d datg.DAG, nodes []nodeView) ([]edgeView, float64, float64) {
	index := map[string]int{}
	for i, n := range d.Nodes {
		index[n.NodeID] = i
	}
	depth := make([]int, len(d.Nodes))
	for i := range depth {
		depth[i] = -1
	}
	var visit func(i int, seen map[int]bool) int
	visit = func(i int, seen map[int]bool) int {
		if depth[i] >= 0 {
			return depth[i]
		}
		if seen[i] { // a cycle (an invalid DAG): cut it
			return 0
		}
		seen[i] = true
		dep := 0
		for _, p := range d.Nodes[i].Parents {
			if j, ok := index[p]; ok {
				dep = max(dep, visit(j, seen)+1)
			}
		}
		depth[i] = dep
		return dep
	}
	layers := map[int][]int{}
	maxLayer, maxWidth := 0, 1
	for i := range d.Nodes {
		l := visit(i, map[int]bool{})
		layers[l] = append(layers[l], i)
		maxLayer = max(maxLayer, l)
		maxWidth = max(maxWidth, len(layers[l]))
	}
	width := max(640, float64(maxWidth)*(boxW+padX)+padX)
	for l, members := range layers {
		for k, i := range members {
			nodes[i].X = width*float64(k+1)/float64(len(members)+1) - boxW/2
			nodes[i].Y = 16 + float64(l)*layerGap
		}
	}
	var edges []edgeView
	for i, n := range d.Nodes {
		for _, p := range n.Parents {
			j, ok := index[p]
			if !ok {
				continue
			}
			par, ch := nodes[j], nodes[i]
			e := edgeView{Parent: par.ID, Child: ch.ID, X1: par.X + boxW/2, Y1: par.Y + boxH, X2: ch.X + boxW/2, Y2: ch.Y, Mark: "open"}
			if par.Status == string(study.Commit) && ch.Status == string(study.Commit) && par.pos >= 0 && ch.pos >= 0 {
				e.Mark = "violated"
				if par.pos <= ch.pos || (par.block >= 0 && par.block == ch.block) {
					e.Mark = "ordered"
				}
			}
			edges = append(edges, e)
		}
	}
	return edges, width, 16 + float64(maxLayer)*layerGap + boxH + 16
}

// segments cuts the trace text at every located span's ends and gives each
// piece the strongest highlight over it (harmful, then error, commit,
// attempt), with the nodes or categories it is evidence for as a title.
func segments(text string, events []schema.AlignmentEvent, harmful []schema.HarmfulAction) []segment {
	runes := []rune(text)
	type span struct {
		start, end int
		class      string
		label      string
	}
	var spans []span
	for _, e := range events {
		if e.StartChar != nil && e.EndChar != nil {
			spans = append(spans, span{int(*e.StartChar), int(*e.EndChar), strings.ToLower(e.Status), e.NodeID + " " + e.Status})
		}
	}
	for _, h := range harmful {
		if h.StartChar != nil && h.EndChar != nil {
			spans = append(spans, span{int(*h.StartChar), int(*h.EndChar), "harmful", h.Category})
		}
	}
	cuts := map[int]bool{0: true, len(runes): true}
	for _, s := range spans {
		s.start, s.end = clamp(s.start, len(runes)), clamp(s.end, len(runes))
		cuts[s.start], cuts[s.end] = true, true
	}
	points := make([]int, 0, len(cuts))
	for p := range cuts {
		points = append(points, p)
	}
	sort.Ints(points)
	strength := map[string]int{"harmful": 4, "error": 3, "commit": 2, "attempt": 1}
	var out []segment
	for k := 0; k+1 < len(points); k++ {
		a, b := points[k], points[k+1]
		seg := segment{Text: string(runes[a:b])}
		var labels []string
		for _, s := range spans {
			if s.start <= a && b <= s.end {
				if strength[s.class] > strength[seg.Class] {
					seg.Class = s.class
				}
				labels = append(labels, s.label)
			}
		}
		seg.Title = strings.Join(labels, ", ")
		if n := len(out); n > 0 && out[n-1].Class == seg.Class && out[n-1].Title == seg.Title {
			out[n-1].Text += seg.Text
			continue
		}
		out = append(out, seg)
	}
	return out
}

func clamp(x, n int) int { return max(0, min(x, n)) }
