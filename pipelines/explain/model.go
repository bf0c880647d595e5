package explain

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/datg/datg/internal/dagdraw"
	"github.com/datg/datg/internal/texmath"

	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

// nodeView is a DAG node with its status.
type nodeView struct {
	ID, Anchor, Description, Status string
	pos, block                      int // earliest located COMMIT (-1: none)
}

// segment is a run of trace text with the strongest highlight over it;
// a math span of the text (texmath) is a segment of its own, whole.
type segment struct {
	Text, Class, Title string
	Math, Display      bool
}

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

// graph is the DAG as dagdraw draws it: each node with its status and
// whole anchor, each edge marked ordered (both commit in order or in one
// block), violated (both commit, child first) or open. Parents the DAG
// lacks are left out, as the scores leave them.
func graph(d datg.DAG, nodes []nodeView) dagdraw.Graph {
	index := map[string]int{}
	for i, n := range d.Nodes {
		index[n.NodeID] = i
	}
	var g dagdraw.Graph
	for _, n := range nodes {
		title := n.ID + " " + n.Status + ": " + n.Anchor
		if n.Description != "" {
			title += " — " + n.Description
		}
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: n.ID, Label: n.Anchor, Title: title, Status: n.Status, Final: n.ID == d.FinalNodeID})
	}
	for i, n := range d.Nodes {
		for _, p := range n.Parents {
			j, ok := index[p]
			if !ok {
				continue
			}
			par, ch := nodes[j], nodes[i]
			mark := "open"
			if par.Status == string(study.Commit) && ch.Status == string(study.Commit) && par.pos >= 0 && ch.pos >= 0 {
				mark = "violated"
				if par.pos <= ch.pos || (par.block >= 0 && par.block == ch.block) {
					mark = "ordered"
				}
			}
			g.Edges = append(g.Edges, dagdraw.Edge{From: par.ID, To: ch.ID, Class: mark, Title: par.ID + " → " + ch.ID + ": " + mark})
		}
	}
	return g
}

// segments cuts the trace text at every located span's ends and gives each
// piece the strongest highlight over it (harmful, then error, commit,
// attempt), with the nodes or categories it is evidence for as a title.
// Each math span of the text is a piece of its own, so the page renders
// it: a span's end inside math moves out to the math's ends (a highlight
// covers the whole formula it touches).
func segments(text string, events []schema.AlignmentEvent, harmful []schema.HarmfulAction) []segment {
	runes := []rune(text)
	maths := mathRunes(text)
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
	for k := range spans {
		s := &spans[k]
		s.start, s.end = clamp(s.start, len(runes)), clamp(s.end, len(runes))
		s.start, s.end = outOfMath(maths, s.start, true), outOfMath(maths, s.end, false)
		cuts[s.start], cuts[s.end] = true, true
	}
	mathAt := map[int]mathRun{}
	for _, m := range maths {
		cuts[m.start], cuts[m.end] = true, true
		mathAt[m.start] = m
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
		if m, ok := mathAt[a]; ok && m.end == b {
			seg.Math, seg.Display, seg.Text = true, m.display, m.tex
		}
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
		if n := len(out); n > 0 && !seg.Math && !out[n-1].Math && out[n-1].Class == seg.Class && out[n-1].Title == seg.Title {
			out[n-1].Text += seg.Text
			continue
		}
		out = append(out, seg)
	}
	return out
}

func clamp(x, n int) int { return max(0, min(x, n)) }

// mathRun is a math span of a text in runes: [start, end) covers its
// delimiters, tex is what is between them.
type mathRun struct {
	start, end int
	tex        string
	display    bool
}

// mathRuns are the math spans of text (texmath.Split), in order, with rune
// offsets (found in one walk of the text).
func mathRunes(text string) []mathRun {
	var out []mathRun
	runeAt, byteAt := 0, 0
	count := func(to int) int { // rune offset of byte offset to >= byteAt
		runeAt += utf8.RuneCountInString(text[byteAt:to])
		byteAt = to
		return runeAt
	}
	for _, s := range texmath.Split(text) {
		if !s.Math {
			continue
		}
		start := count(s.Start)
		out = append(out, mathRun{start: start, end: count(s.End), tex: s.Text, display: s.Display})
	}
	return out
}

// outOfMath moves a cut at x that falls strictly inside a math span to the
// span's start (a highlight's start) or end (its end).
func outOfMath(maths []mathRun, x int, start bool) int {
	k := sort.Search(len(maths), func(k int) bool { return maths[k].end > x })
	if k == len(maths) || x <= maths[k].start {
		return x
	}
	if start {
		return maths[k].start
	}
	return maths[k].end
}
