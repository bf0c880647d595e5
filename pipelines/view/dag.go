package view

import (
	"fmt"
	"html/template"
	"strings"
	"sync"

	"github.com/datg/datg/internal/dagdraw"
)

// dagDrawing is one reference DAG as the page draws it: nodes with their
// status under the alignment shown, edges with their order mark.
type dagDrawing struct {
	ID    string // the drawing's name on the page (its data-dag)
	Label string // what the drawing is, for screen readers
	Nodes []dagNode
	Edges []dagEdge
}

// dagNode is a node to draw. ID, Label and Detail are model text.
type dagNode struct {
	ID     string // the node's id: its element's data-node, which the page's script links to its evidence
	Label  string // the anchor, drawn whole (wrapped, never cut), math rendered
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

// dagRenderer draws a DAG as inline SVG, safe whatever the labels hold
// (model text), with each node an element carrying data-node="ID" and no
// inline script or style (the Content-Security-Policy allows neither).
type dagRenderer interface {
	SVG(d dagDrawing) (template.HTML, error)
}

// layeredDAG draws with internal/dagdraw: layers, arrowheads, edges routed
// around the boxes, whole labels with their math.
type layeredDAG struct{}

func (layeredDAG) SVG(d dagDrawing) (template.HTML, error) {
	if len(d.Nodes) == 0 {
		return "", nil
	}
	var g dagdraw.Graph
	for _, n := range d.Nodes {
		title := n.ID + " " + n.Status + ": " + n.Label
		if n.Detail != "" {
			title += " — " + n.Detail
		}
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: n.ID, Label: n.Label, Title: title, Status: n.Status, Final: n.Final})
	}
	for _, e := range d.Edges {
		from, to := d.Nodes[e.From].ID, d.Nodes[e.To].ID
		g.Edges = append(g.Edges, dagdraw.Edge{From: from, To: to, Class: e.Mark, Title: from + " → " + to + ": " + e.Mark})
	}
	return dagdraw.Draw(g, dagdraw.Options{ID: d.ID, Label: d.Label})
}

// memoDrawer draws each distinct drawing once: an export's pages of one
// problem share its DAGs, and traces with the same statuses and edge
// marks share their drawings too. It holds at most memoBytes of drawings
// and keys, emptied when full: an export of a filter of the paper's size
// (12,000 real-length traces, most drawings distinct) held 1.2 GB with no
// bound. Safe for concurrent pages.
type memoDrawer struct {
	next  dagRenderer
	limit int // memoBytes
	mu    sync.Mutex
	svg   map[string]template.HTML
	bytes int // of the keys and drawings held
}

// memoBytes bounds what a memoDrawer holds.
const memoBytes = 32 << 20

func newMemoDrawer(next dagRenderer) *memoDrawer {
	return &memoDrawer{next: next, limit: memoBytes, svg: map[string]template.HTML{}}
}

func (m *memoDrawer) SVG(d dagDrawing) (template.HTML, error) {
	key := drawingKey(d)
	m.mu.Lock()
	svg, ok := m.svg[key]
	m.mu.Unlock()
	if ok {
		return svg, nil
	}
	svg, err := m.next.SVG(d)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	if _, ok := m.svg[key]; !ok {
		if m.bytes += len(key) + len(svg); m.bytes > m.limit {
			clear(m.svg)
			m.bytes = len(key) + len(svg)
		}
		m.svg[key] = svg
	}
	m.mu.Unlock()
	return svg, nil
}

// drawingKey is everything of a drawing its SVG depends on, each field
// length-prefixed so no two drawings share a key.
func drawingKey(d dagDrawing) string {
	var b strings.Builder
	field := func(s string) { fmt.Fprintf(&b, "%d:%s", len(s), s) }
	field(d.ID)
	field(d.Label)
	fmt.Fprintf(&b, "n%d", len(d.Nodes))
	for _, n := range d.Nodes {
		field(n.ID)
		field(n.Label)
		field(n.Detail)
		field(n.Status)
		fmt.Fprintf(&b, "%t", n.Final)
	}
	fmt.Fprintf(&b, "e%d", len(d.Edges))
	for _, e := range d.Edges {
		fmt.Fprintf(&b, "%d,%d,", e.From, e.To)
		field(e.Mark)
	}
	return b.String()
}
