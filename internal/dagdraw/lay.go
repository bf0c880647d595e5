package dagdraw

import (
	"cmp"
	"fmt"
	"slices"
)

// Box is a node's rectangle: top-left corner and size, in px.
type Box struct{ X, Y, W, H float64 }

// Point is a point of the drawing, in px (y grows down).
type Point struct{ X, Y float64 }

// Curve is a cubic Bézier from P0 to P3 with control points P1 and P2; a
// straight piece has its control points on the line.
type Curve struct{ P0, P1, P2, P3 Point }

// PlacedNode is a node with its box and layer (0 at the top).
type PlacedNode struct {
	Node
	Box   Box
	Layer int
}

// PlacedEdge is an edge with its route: curves joined end to end, from a
// point on the parent's bottom side to a point on the child's top side.
type PlacedEdge struct {
	Edge
	Curves []Curve
}

// Layout is a drawn graph: nodes and edges in the graph's order, and the
// drawing's size.
type Layout struct {
	Nodes         []PlacedNode
	Edges         []PlacedEdge
	Width, Height float64
}

// Spacing, in px.
const (
	margin   = 16.0
	layerGap = 48.0 // between a layer's bottom and the next one's top
	nodeGap  = 28.0 // between two boxes of a layer
	laneGap  = 14.0 // between a box and an edge's lane, or two lanes
	laneW    = 6.0  // an edge's lane through a layer
)

// item is a node or a dummy node of the layered graph.
type item struct {
	layer int
	w, h  float64
	x     float64 // center
	pos   int     // index in its layer
	up    []int   // items above joined to it
	down  []int   // items below joined to it
	real  bool
}

// Lay lays out a graph (see the package doc). Its errors are ErrEmptyID,
// ErrDuplicateNode, ErrUnknownNode, ErrCycle and ErrTooLarge.
func Lay(g Graph) (*Layout, error) {
	ids, err := g.index()
	if err != nil {
		return nil, err
	}
	n := len(g.Nodes)
	pairs := make([][2]int, len(g.Edges))
	for k, e := range g.Edges {
		pairs[k] = [2]int{ids[e.From], ids[e.To]}
	}
	names := make([]string, n)
	for i, nd := range g.Nodes {
		names[i] = nd.ID
	}
	layerOf, nLayers, err := layers(n, pairs, names)
	if err != nil {
		return nil, err
	}
	routed := n
	for _, p := range pairs {
		routed += layerOf[p[1]] - layerOf[p[0]] - 1
		if routed > MaxRouted {
			return nil, fmt.Errorf("%w: its edges cross more than %d layers in all", ErrTooLarge, MaxRouted)
		}
	}
	items := make([]item, n, routed)
	for i, nd := range g.Nodes {
		s := Measure(nd)
		items[i] = item{layer: layerOf[i], w: s.W, h: s.H, real: true}
	}
	// Each edge's chain of items, a dummy in every layer it crosses.
	chains := make([][]int, len(pairs))
	for k, p := range pairs {
		chain := []int{p[0]}
		for l := layerOf[p[0]] + 1; l < layerOf[p[1]]; l++ {
			items = append(items, item{layer: l, w: laneW})
			chain = append(chain, len(items)-1)
		}
		chain = append(chain, p[1])
		for j := 0; j+1 < len(chain); j++ {
			items[chain[j]].down = append(items[chain[j]].down, chain[j+1])
			items[chain[j+1]].up = append(items[chain[j+1]].up, chain[j])
		}
		chains[k] = chain
	}
	rows := make([][]int, nLayers)
	for v := range items {
		rows[items[v].layer] = append(rows[items[v].layer], v)
	}
	for _, row := range rows {
		for k, v := range row {
			items[v].pos = k
		}
	}
	order(items, rows)
	place(items, rows)
	return route(g, items, rows, chains), nil
}

// gap is the least distance between the sides of two neighbours in a
// layer.
func gap(a, b *item) float64 {
	if a.real && b.real {
		return nodeGap
	}
	return laneGap
}

// route places the layers down the page, then routes each edge along its
// chain (see the package doc, step 5).
func route(g Graph, items []item, rows [][]int, chains [][]int) *Layout {
	top := make([]float64, len(rows))
	bottom := make([]float64, len(rows))
	y := margin
	for l, row := range rows {
		h := 0.0
		for _, v := range row {
			h = max(h, items[v].h)
		}
		top[l], bottom[l] = y, y+h
		y += h + layerGap
	}
	out := &Layout{Height: y - layerGap + margin}
	for _, it := range items {
		out.Width = max(out.Width, it.x+it.w/2+margin)
	}
	out.Nodes = make([]PlacedNode, len(g.Nodes))
	for i, nd := range g.Nodes {
		it := items[i]
		out.Nodes[i] = PlacedNode{Node: nd, Layer: it.layer, Box: Box{X: it.x - it.w/2, Y: top[it.layer], W: it.w, H: it.h}}
	}
	// Ports: each edge leaves its parent at a point of the bottom side of
	// its own, in the order of where the edges go next, and enters its
	// child likewise.
	outPort := make([]float64, len(chains))
	inPort := make([]float64, len(chains))
	spread := func(node int, edges []int, next func(k int) float64, port []float64) {
		slices.SortStableFunc(edges, func(a, b int) int { return cmp.Compare(next(a), next(b)) })
		box := out.Nodes[node].Box
		for j, k := range edges {
			port[k] = box.X + box.W*float64(j+1)/float64(len(edges)+1)
		}
	}
	leaving := make([][]int, len(g.Nodes))
	entering := make([][]int, len(g.Nodes))
	for k, c := range chains {
		leaving[c[0]] = append(leaving[c[0]], k)
		entering[c[len(c)-1]] = append(entering[c[len(c)-1]], k)
	}
	for v := range g.Nodes {
		spread(v, leaving[v], func(k int) float64 { return items[chains[k][1]].x }, outPort)
		spread(v, entering[v], func(k int) float64 { return items[chains[k][len(chains[k])-2]].x }, inPort)
	}
	out.Edges = make([]PlacedEdge, len(chains))
	for k, c := range chains {
		from := out.Nodes[c[0]].Box
		cur := Point{outPort[k], from.Y + from.H}
		var curves []Curve
		if b := bottom[items[c[0]].layer]; cur.Y < b {
			next := Point{cur.X, b}
			curves = append(curves, line(cur, next))
			cur = next
		}
		for _, d := range c[1 : len(c)-1] {
			l := items[d].layer
			in, down := Point{items[d].x, top[l]}, Point{items[d].x, bottom[l]}
			curves = append(curves, bend(cur, in), line(in, down))
			cur = down
		}
		to := out.Nodes[c[len(c)-1]].Box
		curves = append(curves, bend(cur, Point{inPort[k], to.Y}))
		out.Edges[k] = PlacedEdge{Edge: g.Edges[k], Curves: curves}
	}
	return out
}

// line is the straight piece from a to b.
func line(a, b Point) Curve {
	return Curve{a, Point{a.X + (b.X-a.X)/3, a.Y + (b.Y-a.Y)/3}, Point{a.X + 2*(b.X-a.X)/3, a.Y + 2*(b.Y-a.Y)/3}, b}
}

// bend is the S-curve from a down to b, vertical at both ends: its
// control points lie between a's and b's heights, so the curve does too.
func bend(a, b Point) Curve {
	mid := (a.Y + b.Y) / 2
	return Curve{a, Point{a.X, mid}, Point{b.X, mid}, b}
}
