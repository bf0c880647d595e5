package dagdraw_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/datg/datg/internal/dagdraw"
)

func nodes(ids ...string) []dagdraw.Node {
	out := make([]dagdraw.Node, len(ids))
	for i, id := range ids {
		out[i] = dagdraw.Node{ID: id, Label: id}
	}
	return out
}

// Graphs that cannot be drawn are refused with an error naming why and
// where; none panics.
func TestBadGraphs(t *testing.T) {
	many := make([]string, dagdraw.MaxNodes+1)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	// A chain of 220 with every node joined to the first: 219 edges
	// crossing 23,800 layers in all, past MaxRouted.
	fan := dagdraw.Graph{Nodes: nodes(many[:220]...)}
	for i := 1; i < 220; i++ {
		fan.Edges = append(fan.Edges, dagdraw.Edge{From: many[i-1], To: many[i]}, dagdraw.Edge{From: many[0], To: many[i]})
	}
	for _, c := range []struct {
		name string
		g    dagdraw.Graph
		err  error
		says string
	}{
		{"duplicate id", dagdraw.Graph{Nodes: nodes("n1", "n2", "n1")}, dagdraw.ErrDuplicateNode, `"n1"`},
		{"empty id", dagdraw.Graph{Nodes: nodes("n1", "")}, dagdraw.ErrEmptyID, "node 2"},
		{"unknown parent", dagdraw.Graph{Nodes: nodes("n1"), Edges: []dagdraw.Edge{{From: "n0", To: "n1"}}}, dagdraw.ErrUnknownNode, `"n0"`},
		{"self-loop", dagdraw.Graph{Nodes: nodes("n1", "n2"), Edges: []dagdraw.Edge{{From: "n1", To: "n2"}, {From: "n2", To: "n2"}}}, dagdraw.ErrCycle, `"n2"`},
		{"cycle", dagdraw.Graph{Nodes: nodes("a", "b", "c", "d"), Edges: []dagdraw.Edge{{From: "a", To: "b"}, {From: "b", To: "c"}, {From: "c", To: "d"}, {From: "d", To: "b"}}}, dagdraw.ErrCycle, "through"},
		{"below a cycle", dagdraw.Graph{Nodes: nodes("x", "y", "z"), Edges: []dagdraw.Edge{{From: "x", To: "y"}, {From: "y", To: "x"}, {From: "y", To: "z"}}}, dagdraw.ErrCycle, "through"},
		{"too many nodes", dagdraw.Graph{Nodes: nodes(many...)}, dagdraw.ErrTooLarge, "2001 nodes"},
		{"too many layers crossed", fan, dagdraw.ErrTooLarge, "layers"},
	} {
		_, err := dagdraw.Lay(c.g)
		if !errors.Is(err, c.err) || !strings.Contains(fmt.Sprint(err), c.says) {
			t.Errorf("%s: %v, want %v saying %s", c.name, err, c.err, c.says)
		}
	}
	// The node a cycle error names is on the cycle.
	_, err := dagdraw.Lay(dagdraw.Graph{Nodes: nodes("x", "y", "z"), Edges: []dagdraw.Edge{{From: "x", To: "y"}, {From: "y", To: "x"}, {From: "y", To: "z"}}})
	if s := fmt.Sprint(err); strings.Contains(s, `"z"`) {
		t.Errorf("%s names a node below the cycle", s)
	}
}

// The same graph draws the same bytes.
func TestDeterministic(t *testing.T) {
	for seed := range uint64(5) {
		g := randomDAG(seed, 30)
		a, err := dagdraw.Draw(g, dagdraw.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if b, _ := dagdraw.Draw(g, dagdraw.Options{}); b != a {
				t.Fatalf("seed %d: two drawings differ", seed)
			}
		}
	}
}

// Model text in ids, labels, titles, statuses and classes is escaped: the
// SVG parses, holds no element of the text's and keeps the text.
func TestHostileText(t *testing.T) {
	evil := `"><script>alert(1)</script><x a='`
	g := dagdraw.Graph{
		Nodes: []dagdraw.Node{{ID: evil, Label: evil + ` $x<y$ \boxed{<b>}`, Title: evil, Status: evil}, {ID: "n2", Label: "\x00\xff" + evil, Status: "COMMIT"}},
		Edges: []dagdraw.Edge{{From: evil, To: "n2", Class: evil, Title: evil}},
	}
	svg, err := dagdraw.Draw(g, dagdraw.Options{ID: evil, Label: evil})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if strings.Contains(s, "<script") || strings.Contains(s, "<x ") || strings.Contains(s, "<b>") {
		t.Errorf("markup from the text:\n%s", s)
	}
	d := parseSVG(t, s)
	if _, ok := d.boxes[evil]; !ok || len(d.edges) != 1 || d.edges[0].from != evil {
		t.Errorf("the hostile id did not come back whole: %v %v", d.boxes, d.edges)
	}
	checkDrawing(t, "hostile", g)
}

// Labels are wrapped, never cut: a long label makes a taller box, not a
// wider one past the limit, and wide scripts make wider boxes.
func TestMeasure(t *testing.T) {
	short := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: "a = 1"})
	long := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: strings.Repeat("twelve muffins in each tray ", 20)})
	if long.W > 240 || long.H < 6*short.H {
		t.Errorf("a 560-character label gets %+v (a short one %+v)", long, short)
	}
	latin := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: "abcdefghij"})
	cjk := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: "残りはマフィン十五個です"})
	if cjk.W <= latin.W {
		t.Errorf("12 CJK characters %+v no wider than 10 Latin %+v", cjk, latin)
	}
	flat := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: `a + b = c`})
	frac := dagdraw.Measure(dagdraw.Node{ID: "n1", Label: `\frac{a + b}{c + d} = e`})
	if frac.H <= flat.H {
		t.Errorf("a fraction's box %+v no taller than a flat formula's %+v", frac, flat)
	}
}
