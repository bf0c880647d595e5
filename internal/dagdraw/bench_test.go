package dagdraw_test

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/dagdraw"
)

// BenchmarkLay times a drawing (layout and SVG) of DAGs of a trace page's
// size (40 nodes; a page draws five), of the hostile sizes the limits
// allow, and of a 100 KB label.
func BenchmarkLay(b *testing.B) {
	// The densest graph under MaxRouted: a chain of 200, each node also a
	// child of the first (19,701 dummies).
	fan := dagdraw.Graph{Nodes: nodes()}
	for i := range 200 {
		fan.Nodes = append(fan.Nodes, dagdraw.Node{ID: string(rune('a'+i%26)) + strings.Repeat("x", i/26), Label: "x = 1"})
		if i > 0 {
			fan.Edges = append(fan.Edges, dagdraw.Edge{From: fan.Nodes[i-1].ID, To: fan.Nodes[i].ID}, dagdraw.Edge{From: fan.Nodes[0].ID, To: fan.Nodes[i].ID})
		}
	}
	huge := dagdraw.Graph{Nodes: []dagdraw.Node{{ID: "n1", Label: strings.Repeat(`a + \frac{b}{c} word `, 5000)}, {ID: "n2", Label: "x"}},
		Edges: []dagdraw.Edge{{From: "n1", To: "n2"}}}
	for _, c := range []struct {
		name string
		g    dagdraw.Graph
	}{
		{"deep40", chainWithSkips(40)},
		{"random40", randomDAG(1, 40)},
		{"wide30", wide(30)},
		{"deep500", chainWithSkips(500)},
		{"random500", randomDAG(2, 500)},
		{"fan200", fan},
		{"label100KB", huge},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := dagdraw.Draw(c.g, dagdraw.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
