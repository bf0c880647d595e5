package dagdraw_test

import (
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/datg/datg/internal/dagdraw"
	"github.com/datg/datg/internal/texmath"
)

// drawn is a drawing read back from its SVG.
type drawn struct {
	boxes   map[string]box    // node id -> its rect
	labels  map[string]string // node id -> the inner XML of its label's text div
	edges   []drawnEdge
	markers map[string]bool
}

type box struct{ x, y, w, h float64 }

type drawnEdge struct {
	from, to, d, markerEnd string
}

// parseSVG reads a drawing's nodes, edges and markers from its SVG, as a
// browser would find them.
func parseSVG(t *testing.T, svg string) drawn {
	t.Helper()
	out := drawn{boxes: map[string]box{}, labels: map[string]string{}, markers: map[string]bool{}}
	type div struct {
		Class string `xml:"class,attr"`
		Inner string `xml:",innerxml"`
	}
	type node struct {
		Class string `xml:"class,attr"`
		Key   string `xml:"data-node,attr"`
		FO    struct {
			Div struct {
				Divs []div `xml:"div"`
			} `xml:"div"`
		} `xml:"foreignObject"`
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(name string) string {
			for _, a := range se.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		switch {
		case se.Name.Local == "marker":
			out.markers[attr("id")] = true
		case se.Name.Local == "path" && strings.Contains(attr("class"), "dag-edge"):
			out.edges = append(out.edges, drawnEdge{attr("data-from"), attr("data-to"), attr("d"), attr("marker-end")})
		case se.Name.Local == "g" && attr("data-node") != "":
			var n node
			if err := dec.DecodeElement(&n, &se); err != nil {
				t.Fatal(err)
			}
			out.boxes[n.Key] = rectOf(t, svg, n.Key)
			for _, d := range n.FO.Div.Divs {
				if d.Class == "dag-text" {
					out.labels[n.Key] = d.Inner
				}
			}
		}
	}
	return out
}

// rectOf finds the rect of the node with data-node key in the SVG.
func rectOf(t *testing.T, svg, key string) box {
	t.Helper()
	var b strings.Builder
	texmath.Escape(&b, key)
	i := strings.Index(svg, `data-node="`+b.String()+`"`)
	if i < 0 {
		t.Fatalf("no node %q", key)
	}
	j := strings.Index(svg[i:], "<rect ")
	k := strings.Index(svg[i+j:], ">")
	var r struct {
		X float64 `xml:"x,attr"`
		Y float64 `xml:"y,attr"`
		W float64 `xml:"width,attr"`
		H float64 `xml:"height,attr"`
	}
	if err := xml.Unmarshal([]byte(svg[i+j:i+j+k+1]+"</rect>"), &r); err != nil {
		t.Fatal(err)
	}
	return box{r.X, r.Y, r.W, r.H}
}

type pt struct{ x, y float64 }

// samplePath returns points along an SVG path of M, L and C commands
// (the only ones dagdraw writes), 64 a piece, a slice per piece.
func samplePath(t *testing.T, d string) [][]pt {
	t.Helper()
	var pieces [][]pt
	var cur pt
	f := strings.Fields(strings.NewReplacer("M", " M ", "L", " L ", "C", " C ").Replace(d))
	read := func(s string) pt {
		xy := strings.Split(s, ",")
		if len(xy) != 2 {
			t.Fatalf("point %q in %q", s, d)
		}
		x, err1 := strconv.ParseFloat(xy[0], 64)
		y, err2 := strconv.ParseFloat(xy[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("point %q in %q", s, d)
		}
		return pt{x, y}
	}
	for i := 0; i < len(f); {
		piece := []pt{cur}
		switch f[i] {
		case "M":
			cur = read(f[i+1])
			piece = []pt{cur}
			i += 2
		case "L":
			p := read(f[i+1])
			for k := 1; k <= 64; k++ {
				s := float64(k) / 64
				piece = append(piece, pt{cur.x + s*(p.x-cur.x), cur.y + s*(p.y-cur.y)})
			}
			cur = p
			i += 2
		case "C":
			p1, p2, p3 := read(f[i+1]), read(f[i+2]), read(f[i+3])
			for k := 1; k <= 64; k++ {
				s := float64(k) / 64
				a, b, c, e := (1-s)*(1-s)*(1-s), 3*(1-s)*(1-s)*s, 3*(1-s)*s*s, s*s*s
				piece = append(piece, pt{a*cur.x + b*p1.x + c*p2.x + e*p3.x, a*cur.y + b*p1.y + c*p2.y + e*p3.y})
			}
			cur = p3
			i += 4
		default:
			t.Fatalf("command %q in %q", f[i], d)
		}
		pieces = append(pieces, piece)
	}
	return pieces
}

// bounds is the box around points.
func bounds(ps []pt) box {
	minX, minY, maxX, maxY := ps[0].x, ps[0].y, ps[0].x, ps[0].y
	for _, p := range ps {
		minX, minY, maxX, maxY = min(minX, p.x), min(minY, p.y), max(maxX, p.x), max(maxY, p.y)
	}
	return box{minX, minY, maxX - minX, maxY - minY}
}

func overlap(a, b box) bool {
	return a.x <= b.x+b.w && b.x <= a.x+a.w && a.y <= b.y+b.h && b.y <= a.y+a.h
}

// inside says whether p is strictly inside r, by more than half a pixel
// (the numbers are written to a tenth).
func inside(p pt, r box) bool {
	return p.x > r.x+0.5 && p.x < r.x+r.w-0.5 && p.y > r.y+0.5 && p.y < r.y+r.h-0.5
}

// checkDrawing checks a drawing of g: every node drawn once with its whole
// label; boxes apart; every edge drawn once, ending in an arrowhead that
// exists, starting on its parent's bottom side and ending on its child's
// top side, and no point of it inside any box (its own ends' included).
func checkDrawing(t *testing.T, name string, g dagdraw.Graph) {
	t.Helper()
	svg, err := dagdraw.Draw(g, dagdraw.Options{ID: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	d := parseSVG(t, string(svg))
	if len(d.boxes) != len(g.Nodes) {
		t.Errorf("%s: %d nodes drawn, want %d", name, len(d.boxes), len(g.Nodes))
	}
	for _, n := range g.Nodes {
		var want strings.Builder
		texmath.WriteSegments(&want, texmath.SplitAnchor(n.Label))
		if got := d.labels[n.ID]; got != want.String() || strings.Contains(got, "…") && !strings.Contains(n.Label, "…") {
			t.Errorf("%s: %s's label is %q, want the whole %q", name, n.ID, got, want.String())
		}
	}
	for a, ra := range d.boxes {
		for b, rb := range d.boxes {
			if a < b && ra.x < rb.x+rb.w && rb.x < ra.x+ra.w && ra.y < rb.y+rb.h && rb.y < ra.y+ra.h {
				t.Errorf("%s: boxes %s %v and %s %v overlap", name, a, ra, b, rb)
			}
		}
	}
	if len(d.edges) != len(g.Edges) {
		t.Fatalf("%s: %d edges drawn, want %d", name, len(d.edges), len(g.Edges))
	}
	for k, e := range d.edges {
		if e.from != g.Edges[k].From || e.to != g.Edges[k].To {
			t.Errorf("%s: edge %d is %s→%s, want %s→%s", name, k, e.from, e.to, g.Edges[k].From, g.Edges[k].To)
		}
		id, ok := strings.CutPrefix(e.markerEnd, "url(#")
		if !ok || !d.markers[strings.TrimSuffix(id, ")")] {
			t.Errorf("%s: edge %s→%s has no arrowhead (marker-end %q)", name, e.from, e.to, e.markerEnd)
		}
		pieces := samplePath(t, e.d)
		from, to := d.boxes[e.from], d.boxes[e.to]
		first, last := pieces[0][0], pieces[len(pieces)-1][len(pieces[len(pieces)-1])-1]
		if math.Abs(first.y-(from.y+from.h)) > 0.1 || first.x <= from.x || first.x >= from.x+from.w {
			t.Errorf("%s: edge %s→%s starts at %v, not on %s's bottom %v", name, e.from, e.to, first, e.from, from)
		}
		if math.Abs(last.y-to.y) > 0.1 || last.x <= to.x || last.x >= to.x+to.w {
			t.Errorf("%s: edge %s→%s ends at %v, not on %s's top %v", name, e.from, e.to, last, e.to, to)
		}
	pieces:
		for _, piece := range pieces {
			around := bounds(piece)
			for id, r := range d.boxes {
				if !overlap(around, r) {
					continue
				}
				for _, p := range piece {
					if inside(p, r) {
						t.Errorf("%s: edge %s→%s passes through %s's box %v at %v", name, e.from, e.to, id, r, p)
						break pieces
					}
				}
			}
		}
	}
}

// chainWithSkips is n1 → n2 → ... → nN with skip edges n_i → n_{i+2}
// and n_i → n_{i+5}: long edges that a straight drawing hides behind the
// nodes between.
func chainWithSkips(n int) dagdraw.Graph {
	var g dagdraw.Graph
	for i := 1; i <= n; i++ {
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: fmt.Sprintf("n%d", i), Label: fmt.Sprintf("x_{%d} = x_{%d} + \\frac{%d}{2}", i, i-1, i), Status: "COMMIT", Final: i == n})
		if i > 1 {
			g.Edges = append(g.Edges, dagdraw.Edge{From: fmt.Sprintf("n%d", i-1), To: fmt.Sprintf("n%d", i)})
		}
		if i > 2 && i%2 == 1 {
			g.Edges = append(g.Edges, dagdraw.Edge{From: fmt.Sprintf("n%d", i-2), To: fmt.Sprintf("n%d", i), Class: "violated"})
		}
		if i > 5 && i%4 == 0 {
			g.Edges = append(g.Edges, dagdraw.Edge{From: fmt.Sprintf("n%d", i-5), To: fmt.Sprintf("n%d", i), Class: "ordered"})
		}
	}
	return g
}

// wide is a root, k parallel nodes under it, and a final node under all.
func wide(k int) dagdraw.Graph {
	g := dagdraw.Graph{Nodes: []dagdraw.Node{{ID: "root", Label: "total apples = 12", Status: "MISSING"}}}
	for i := 1; i <= k; i++ {
		id := fmt.Sprintf("p%d", i)
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: id, Label: fmt.Sprintf("part %d = %d \\times 3", i, i), Status: "ATTEMPT"})
		g.Edges = append(g.Edges, dagdraw.Edge{From: "root", To: id}, dagdraw.Edge{From: id, To: "final"})
	}
	g.Nodes = append(g.Nodes, dagdraw.Node{ID: "final", Label: `\boxed{18}`, Status: "COMMIT", Final: true})
	return g
}

// randomDAG has n nodes, each with up to 3 parents among the earlier ones,
// labels of mixed scripts and math.
func randomDAG(seed uint64, n int) dagdraw.Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	labels := []string{"a + 2b = \\sqrt{2} + 2 \\times \\frac{\\sqrt{2}}{2}", "প্রতিটি ট্রেতে ১২টি মাফিন আছে, মোট ৭২টি মাফিন", "残りは 72 - 50 - 7 = 15 個",
		"d(144) = (4 + 1)(2 + 1) = 15", "the number of boxes is \\lceil 900 / 20 \\rceil = 45", "x", "ఒక్కో వరుసలో 9 చెట్లు"}
	var g dagdraw.Graph
	for i := range n {
		id := fmt.Sprintf("n%d", i+1)
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: id, Label: labels[r.IntN(len(labels))], Status: []string{"COMMIT", "ATTEMPT", "ERROR", "MISSING"}[r.IntN(4)]})
		for range r.IntN(4) {
			if i == 0 {
				break
			}
			g.Edges = append(g.Edges, dagdraw.Edge{From: fmt.Sprintf("n%d", r.IntN(i)+1), To: id})
		}
	}
	return g
}

// The two cases (n1→n3 hidden behind n2 in a 3-chain; n2→n4
// crossing n3 in a 10-node DAG), a 40-chain with skip edges, 30 parallel
// nodes, and random DAGs: edges miss every box and end in arrowheads,
// labels are whole.
func TestEdgesAvoidBoxes(t *testing.T) {
	three := dagdraw.Graph{Nodes: []dagdraw.Node{{ID: "n1", Label: "a = 1"}, {ID: "n2", Label: "b = a + 1"}, {ID: "n3", Label: "c = a + b", Final: true}},
		Edges: []dagdraw.Edge{{From: "n1", To: "n2"}, {From: "n2", To: "n3"}, {From: "n1", To: "n3"}}}
	checkDrawing(t, "three", three)
	checkDrawing(t, "ten", chainWithSkips(10))
	checkDrawing(t, "deep", chainWithSkips(40))
	checkDrawing(t, "wide", wide(30))
	for seed := range uint64(20) {
		checkDrawing(t, fmt.Sprintf("random%d", seed), randomDAG(seed, 5+int(seed)*3))
	}
}
