package dagdraw_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/datg/datg/internal/dagdraw"
)

// graphOf makes a graph of data: its first byte is the node count (times
// 2, so up to 510), then each pair of bytes an edge (from, to: any two
// nodes, so cycles, self-loops and repeats come up), the label of node i
// a slice of the data itself (TeX-like bytes included), and every 37th
// node a repeat of an earlier id.
func graphOf(data []byte) dagdraw.Graph {
	if len(data) == 0 {
		return dagdraw.Graph{}
	}
	n := int(data[0]) * 2
	rest := data[1:]
	var g dagdraw.Graph
	for i := range n {
		id := fmt.Sprintf("n%d", i)
		if i > 0 && i%37 == 0 && len(rest) > 0 && rest[0]%2 == 0 {
			id = fmt.Sprintf("n%d", i-1)
		}
		label := ""
		if len(rest) > 0 {
			a := i % len(rest)
			label = string(rest[a:min(len(rest), a+int(rest[a])%64)])
		}
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: id, Label: label, Status: "COMMIT"})
	}
	for k := 0; n > 0 && k+1 < len(rest); k += 2 {
		from, to := int(rest[k])*n/256, int(rest[k+1])*n/256
		g.Edges = append(g.Edges, dagdraw.Edge{From: fmt.Sprintf("n%d", from), To: fmt.Sprintf("n%d", to)})
	}
	return g
}

// FuzzLay: any graph either draws (checkDrawing: edges miss boxes, end in
// arrowheads, labels whole) or is refused with one of the package's
// errors; none panics. Its time is bounded by the limits (MaxNodes,
// MaxEdges, MaxRouted): BenchmarkLay has the seconds at those limits.
func FuzzLay(f *testing.F) {
	f.Add([]byte{3, 0, 85, 85, 170, 0, 170})
	f.Add([]byte{250, 1, 2, 2, 3, 3, 4, 4, 5, 5, 1})                                                     // a cycle among 500
	f.Add(append([]byte{255}, []byte(`\frac{\frac{\frac{1}{2}}{3}}{\sqrt[3]{x^{2^{2}}}} $x$ ২৩ 残り`)...)) // TeX labels
	f.Add([]byte{200, 0, 255, 0, 254, 0, 253, 0, 252, 1, 255, 2, 255, 3, 255, 4, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := graphOf(data)
		_, err := dagdraw.Lay(g)
		switch {
		case err == nil:
			checkDrawing(t, "fuzz", g)
		case errors.Is(err, dagdraw.ErrCycle), errors.Is(err, dagdraw.ErrDuplicateNode), errors.Is(err, dagdraw.ErrTooLarge),
			errors.Is(err, dagdraw.ErrUnknownNode), errors.Is(err, dagdraw.ErrEmptyID):
		default:
			t.Fatalf("an error outside the package's: %v", err)
		}
	})
}
