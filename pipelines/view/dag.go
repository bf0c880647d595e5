package view

import (
	"fmt"
	"html/template"
	"strings"
	"unicode/utf8"
)

// dagDrawing is one reference DAG as the page draws it: nodes with their
// status under the alignment shown, edges with their order mark.
type dagDrawing struct {
	Label string // what the drawing is, for screen readers
	Nodes []dagNode
	Edges []dagEdge
}

// dagNode is a node to draw. ID, Label and Detail are model text.
type dagNode struct {
	// Key names the node in the page: the drawing gives the node's
	// element data-node="Key", which the page's script reads to link the
	// node to its evidence. It is [0-9a-z-] only (the node's position).
	Key    string
	ID     string
	Label  string // the anchor: math, drawn whole (wrapped, never cut)
	Detail string // the description, for the node's title
	Status string // commit, attempt, error or missing
	Final  bool   // the answer node
}

// dagEdge is an edge from Nodes[From] to Nodes[To]: ordered, violated
// (both committed, the child first) or open (not both committed).
type dagEdge struct {
	From, To int
	Mark     string
}

// dagRenderer draws a DAG as inline SVG. The drawing must be safe whatever
// the labels hold (they are model text) and follow the page's contract:
// the root is <svg class="dag">, each node an element with class "node
// STATUS" and data-node="KEY" (focusable, tabindex="0"), each edge an
// element of class "edge MARK"; it adds no style attribute and no script
// (the Content-Security-Policy allows neither inline).
type dagRenderer interface {
	SVG(d dagDrawing) (template.HTML, error)
}

// boxDAG is the stand-in drawer until the DAG library lands: layers by the
// longest path from a root, straight edges without arrowheads, labels
// wrapped to the box.
type boxDAG struct{}

const (
	boxW, lineH        = 170.0, 14.0
	layerGap, gapX     = 40.0, 24.0
	boxPad, labelChars = 6.0, 26
)

func (boxDAG) SVG(d dagDrawing) (template.HTML, error) {
	n := len(d.Nodes)
	if n == 0 {
		return "", nil
	}
	parents := make([][]int, n)
	for _, e := range d.Edges {
		if e.From >= 0 && e.From < n && e.To >= 0 && e.To < n {
			parents[e.To] = append(parents[e.To], e.From)
		}
	}
	layer := longestPathLayers(parents)
	lines := make([][]string, n)
	heights := make([]float64, n)
	var rows [][]int
	for i := range d.Nodes {
		lines[i] = append([]string{d.Nodes[i].ID}, wrapLabel(d.Nodes[i].Label, labelChars)...)
		heights[i] = float64(len(lines[i]))*lineH + 2*boxPad
		for len(rows) <= layer[i] {
			rows = append(rows, nil)
		}
		rows[layer[i]] = append(rows[layer[i]], i)
	}
	x, y := make([]float64, n), make([]float64, n)
	width, top := 0.0, 8.0
	for _, row := range rows {
		rowH := 0.0
		for k, i := range row {
			x[i], y[i] = gapX/2+float64(k)*(boxW+gapX), top
			rowH = max(rowH, heights[i])
		}
		width = max(width, float64(len(row))*(boxW+gapX))
		top += rowH + layerGap
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="dag" xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`,
		width, top, width, top, template.HTMLEscapeString(d.Label))
	for _, e := range d.Edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			continue
		}
		fmt.Fprintf(&b, `<line class="edge %s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"><title>%s → %s: %s</title></line>`,
			template.HTMLEscapeString(e.Mark), x[e.From]+boxW/2, y[e.From]+heights[e.From], x[e.To]+boxW/2, y[e.To],
			template.HTMLEscapeString(d.Nodes[e.From].ID), template.HTMLEscapeString(d.Nodes[e.To].ID), template.HTMLEscapeString(e.Mark))
	}
	for i, nd := range d.Nodes {
		class := "node " + template.HTMLEscapeString(nd.Status)
		if nd.Final {
			class += " final"
		}
		fmt.Fprintf(&b, `<g class="%s" data-node="%s" tabindex="0"><title>%s %s: %s — %s</title><rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="6"></rect>`,
			class, template.HTMLEscapeString(nd.Key), template.HTMLEscapeString(nd.ID), template.HTMLEscapeString(strings.ToUpper(nd.Status)),
			template.HTMLEscapeString(nd.Label), template.HTMLEscapeString(nd.Detail), x[i], y[i], boxW, heights[i])
		for k, line := range lines[i] {
			cls := ""
			if k == 0 {
				cls = ` class="id"`
			}
			fmt.Fprintf(&b, `<text%s x="%.1f" y="%.1f">%s</text>`, cls, x[i]+boxPad, y[i]+boxPad+float64(k+1)*lineH-3, template.HTMLEscapeString(line))
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()), nil
}

// longestPathLayers puts each node one layer below its deepest parent; a
// cycle (an invalid DAG) is cut where it closes.
func longestPathLayers(parents [][]int) []int {
	n := len(parents)
	layer := make([]int, n)
	state := make([]byte, n) // 0 new, 1 on the path, 2 done
	var visit func(i int) int
	visit = func(i int) int {
		switch state[i] {
		case 1:
			return -1
		case 2:
			return layer[i]
		}
		state[i] = 1
		l := 0
		for _, p := range parents[i] {
			if pl := visit(p); pl >= 0 {
				l = max(l, pl+1)
			}
		}
		state[i], layer[i] = 2, l
		return l
	}
	for i := range n {
		visit(i)
	}
	return layer
}

// wrapLabel breaks a label into lines of at most width runes, at spaces
// where it can; every rune of it is kept.
func wrapLabel(s string, width int) []string {
	var out []string
	for _, word := range strings.Fields(s) {
		for utf8.RuneCountInString(word) > width {
			r := []rune(word)
			out = append(out, string(r[:width]))
			word = string(r[width:])
		}
		if k := len(out) - 1; k >= 0 && utf8.RuneCountInString(out[k])+1+utf8.RuneCountInString(word) <= width {
			out[k] += " " + word
			continue
		}
		out = append(out, word)
	}
	return out
}
