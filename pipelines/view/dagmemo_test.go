package view

import (
	"fmt"
	"html/template"
	"testing"
)

// countingDrawer counts the drawings the layered drawer is asked for.
type countingDrawer struct{ n int }

func (c *countingDrawer) SVG(d dagDrawing) (template.HTML, error) {
	c.n++
	return layeredDAG{}.SVG(d)
}

// The memo of an export's drawings holds at most its bound, however many
// distinct drawings the pages ask for (it held every one: 1.2 GB for
// 12,205 pages of real-length traces), and still draws a drawing asked
// for again only once while it holds it.
func TestMemoDrawerHoldsAtMostItsBound(t *testing.T) {
	drawn := &countingDrawer{}
	m := newMemoDrawer(drawn)
	m.limit = 64 << 10
	drawing := func(i int) dagDrawing {
		return dagDrawing{ID: fmt.Sprintf("dag-%d", i), Label: "DAG", Nodes: []dagNode{
			{ID: "n1", Label: fmt.Sprintf(`$x = %d$`, i), Status: "commit"},
			{ID: "n2", Label: `$\frac{x}{2}$`, Status: "missing", Final: true}},
			Edges: []dagEdge{{From: 0, To: 1, Mark: "ordered"}}}
	}
	var drawnBytes int
	for i := range 400 {
		first, err := m.SVG(drawing(i))
		if err != nil {
			t.Fatal(err)
		}
		again, err := m.SVG(drawing(i))
		if err != nil {
			t.Fatal(err)
		}
		if again != first || drawn.n != i+1 {
			t.Fatalf("drawing %d: drawn %d times in all, its second SVG the same: %t", i, drawn.n, again == first)
		}
		drawnBytes += len(first)
		held := 0
		for k, svg := range m.svg {
			held += len(k) + len(svg)
		}
		if held != m.bytes || held > m.limit {
			t.Fatalf("drawing %d: the memo holds %d bytes, counts %d, its bound %d", i, held, m.bytes, m.limit)
		}
	}
	if drawnBytes < 4*m.limit {
		t.Fatalf("the drawings are %d bytes in all: not enough to fill the memo (%d) four times", drawnBytes, m.limit)
	}
}
