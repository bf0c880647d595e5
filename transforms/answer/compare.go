package answer

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// Reasons a comparison gives.
const (
	ReasonString     = "string-match"
	ReasonExact      = "exact"
	ReasonNumeric    = "numeric"
	ReasonSymbolic   = "symbolic"
	ReasonStructural = "structural"
	ReasonChoice     = "choice" // the letter (or value) of a multiple-choice gold
	ReasonMismatch   = "mismatch"
	ReasonUnparsed   = "mismatch-unparsed" // at least one side is not math and the texts differ
	ReasonNoAnswer   = "no-answer"
)

// Tolerances: values without variables must agree to 1e-9 relative
// (results of exact forms: roots, pi), and expressions in variables to 1e-8
// relative at each sample point. Besides, a decimal of six significant digits
// or more written on either side is accepted when it is the other value
// rounded to its digits (see scalarEqual).
const (
	tolExact  = 1e-9
	tolPoints = 1e-8
)

// Equal compares a gold answer with a predicted one and says why.
func Equal(gold, pred Value) (bool, string) {
	if gold.Text != "" && gold.Text == pred.Text {
		return true, ReasonString
	}
	if letter, value, ok := choice(gold); ok {
		if choiceEqual(letter, value, pred) {
			return true, ReasonChoice
		}
		return false, ReasonMismatch
	}
	if gold.node == nil || pred.node == nil {
		if g := looseText(gold.norm); g != "" && g == looseText(pred.norm) {
			return true, ReasonString
		}
		return false, ReasonUnparsed
	}
	c := comparer{}
	if c.equal(gold.node, pred.node) {
		return true, c.reason()
	}
	// A malformed gold is matched by any of its readings.
	for _, alt := range gold.alts {
		if c.equal(alt, pred.node) {
			return true, c.reason()
		}
	}
	// "3,5" is three and a half where a single number is expected.
	if _, isList := pred.node.(*listNode); isList && kind(gold.node) == "expression" {
		if alt, ok := decimalCommaAlternative(pred.Raw); ok && c.equal(gold.node, alt) {
			return true, c.reason()
		}
	}
	return false, ReasonMismatch
}

// comparer remembers the strongest kind of evidence used.
type comparer struct {
	numeric, symbolic, structural bool
}

func (c *comparer) reason() string {
	switch {
	case c.symbolic:
		return ReasonSymbolic
	case c.structural:
		return ReasonStructural
	case c.numeric:
		return ReasonNumeric
	}
	return ReasonExact
}

// equal compares two nodes, whole answers or their parts alike: "x = 5" and
// "5" agree and inequalities read as intervals.
func (c *comparer) equal(g, p node) bool {
	g, p = scaleMatrix(unwrapSingle(g)), scaleMatrix(unwrapSingle(p))
	if l, ok := splitPlusMinus(g); ok {
		g = l
	}
	if l, ok := splitPlusMinus(p); ok {
		p = l
	}
	// Sets of reals compare as sets, however they are written: [2, 3),
	// 2 <= x < 3, x >= 2 and x < 3, (-inf, -3] U [3, inf) or |x| >= 3.
	// A pair (a, b) reads as an interval only against a side that is not a
	// pair; two pairs are compared end by end below.
	if gs, ok := asSpanSet(g, !isPair(p)); ok {
		if ps, ok := asSpanSet(p, true); ok {
			c.structural = true
			return gs.equal(ps)
		}
	}
	// Two equations: the same variable assigned the same value, or the same
	// relation up to a constant factor (y = 2x + 1 and 2x - y + 1 = 0).
	if gr, ok := g.(*relNode); ok && isEquation(gr) {
		if pr, ok := p.(*relNode); ok && isEquation(pr) {
			gv, gAssign := assignment(gr)
			pv, pAssign := assignment(pr)
			if gAssign && pAssign && c.equal(gv, pv) {
				return true
			}
			if !isScalar(gr.items[1]) || !isScalar(pr.items[1]) {
				return false
			}
			return c.relationsEqual(gr, pr)
		}
	}
	g, p = membershipSet(g), membershipSet(p)
	if gr, ok := g.(*relNode); ok {
		if v, ok := assignment(gr); ok {
			if pr, ok := p.(*relNode); ok {
				if pv, ok := assignment(pr); ok {
					return c.equal(v, pv)
				}
			}
			return c.equal(v, p)
		}
		if iv, ok := asInterval(gr); ok {
			g = iv
		}
	}
	if pr, ok := p.(*relNode); ok {
		if v, ok := assignment(pr); ok {
			if gr, isRel := g.(*relNode); !isRel || !isEquation(gr) {
				return c.equal(g, v)
			}
		}
		if iv, ok := asInterval(pr); ok {
			p = iv
		}
	}
	if pm, ok := g.(*pmNode); ok {
		g = expandPM(pm)
	}
	if pm, ok := p.(*pmNode); ok {
		p = expandPM(pm)
	}
	switch gx := g.(type) {
	case *relNode:
		px, ok := p.(*relNode)
		return ok && c.relationsEqual(gx, px)
	case *intervalNode:
		switch px := p.(type) {
		case *intervalNode:
			c.structural = true
			return gx.loClosed == px.loClosed && gx.hiClosed == px.hiClosed &&
				c.boundEqual(gx.lo, px.lo) && c.boundEqual(gx.hi, px.hi)
		case *listNode:
			if gx.pair && len(px.items) == 2 && px.kind != listSet {
				c.structural = true
				return c.equal(gx.lo, px.items[0]) && c.equal(gx.hi, px.items[1])
			}
		}
		return false
	case *unionNode:
		px, ok := p.(*unionNode)
		if !ok {
			return false
		}
		c.structural = true
		return c.unordered(gx.parts, px.parts)
	case *listNode:
		c.structural = true
		switch px := p.(type) {
		case *listNode:
			if isOrdered(gx.kind) && isOrdered(px.kind) {
				return c.ordered(gx.items, px.items)
			}
			return c.unordered(expandItems(gx.items), expandItems(px.items))
		case *intervalNode:
			if px.pair && len(gx.items) == 2 && gx.kind != listSet {
				return c.equal(gx.items[0], px.lo) && c.equal(gx.items[1], px.hi)
			}
		}
		return false
	case *matrixNode:
		px, ok := p.(*matrixNode)
		if !ok {
			// A row or column vector against a tuple: (1, -2).
			if items, isVec := vectorItems(p); isVec {
				if cells, ok := gx.vector(); ok {
					c.structural = true
					return c.ordered(cells, items)
				}
			}
			return false
		}
		if len(gx.rows) != len(px.rows) {
			return false
		}
		c.structural = true
		for i := range gx.rows {
			if !c.ordered(gx.rows[i], px.rows[i]) {
				return false
			}
		}
		return true
	}
	if !isScalar(g) || !isScalar(p) {
		return false
	}
	// A percentage matches either its number or its fraction.
	if pp, ok := p.(*percentNode); ok && !isPercent(g) && c.scalarEqual(g, pp.x) {
		return true
	}
	if gp, ok := g.(*percentNode); ok && !isPercent(p) && c.scalarEqual(gp.x, p) {
		return true
	}
	return c.scalarEqual(g, p)
}

// isPair reports whether n is a pair (a, b) that may be an open interval.
func isPair(n node) bool { iv, ok := n.(*intervalNode); return ok && iv.pair }

func isPercent(n node) bool { _, ok := n.(*percentNode); return ok }

func isEquation(r *relNode) bool { return len(r.ops) == 1 && r.ops[0] == "=" }

func isOrdered(k listKind) bool { return k == listTuple || k == listBracket || k == listParts }

func unwrapSingle(n node) node {
	for {
		l, ok := n.(*listNode)
		if !ok || len(l.items) != 1 {
			return n
		}
		n = l.items[0]
	}
}

// vector reads a matrix of one row or one column as its cells.
func (m *matrixNode) vector() ([]node, bool) {
	if len(m.rows) == 1 {
		return m.rows[0], true
	}
	var cells []node
	for _, r := range m.rows {
		if len(r) != 1 {
			return nil, false
		}
		cells = append(cells, r[0])
	}
	return cells, true
}

// vectorItems reads a tuple or pair as the coordinates of a vector.
func vectorItems(n node) ([]node, bool) {
	switch x := n.(type) {
	case *intervalNode:
		if x.pair {
			return []node{x.lo, x.hi}, true
		}
	case *listNode:
		if x.kind == listTuple || x.kind == listBracket {
			return x.items, true
		}
	case *matrixNode:
		return x.vector()
	}
	return nil, false
}

// expandItems replaces each ±-item of a list by its two solutions.
func expandItems(items []node) []node {
	var out []node
	for _, it := range items {
		if pm, ok := it.(*pmNode); ok {
			out = append(out, expandPM(pm).(*listNode).items...)
		} else {
			out = append(out, it)
		}
	}
	return out
}

// scaleMatrix multiplies a scalar factor into a matrix: 2 [[1, 2], [3, 4]]
// is [[2, 4], [6, 8]].
func scaleMatrix(n node) node {
	switch x := n.(type) {
	case *negNode:
		if m, ok := scaleMatrix(x.x).(*matrixNode); ok {
			return scaleCells(m, func(c node) node { return &negNode{c} })
		}
	case *mulNode:
		var m *matrixNode
		var scalars []node
		for _, f := range x.factors {
			if fm, ok := scaleMatrix(f).(*matrixNode); ok && m == nil {
				m = fm
			} else {
				scalars = append(scalars, f)
			}
		}
		if m != nil {
			return scaleCells(m, func(c node) node { return &mulNode{factors: append(append([]node(nil), scalars...), c)} })
		}
	}
	return n
}

func scaleCells(m *matrixNode, f func(node) node) *matrixNode {
	out := &matrixNode{rows: make([][]node, len(m.rows))}
	for i, row := range m.rows {
		out.rows[i] = make([]node, len(row))
		for j, c := range row {
			out.rows[i][j] = f(c)
		}
	}
	return out
}

func expandPM(pm *pmNode) node {
	plus := &addNode{terms: []node{pm.a, pm.b}}
	minus := &addNode{terms: []node{pm.a, &negNode{pm.b}}}
	return &listNode{kind: listSolutions, items: []node{plus, minus}}
}

func isScalar(n node) bool {
	switch n.(type) {
	case *listNode, *intervalNode, *unionNode, *relNode, *matrixNode, *pmNode:
		return false
	}
	return true
}

func (c *comparer) ordered(a, b []node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !c.equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// unordered matches every item of a to a distinct item of b.
func (c *comparer) unordered(a, b []node) bool {
	if len(a) != len(b) || len(a) > 64 {
		return false
	}
	used := make([]bool, len(b))
	for _, x := range a {
		found := false
		for j, y := range b {
			if !used[j] && c.equal(x, y) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// boundEqual compares interval ends, where infinities must match in sign.
func (c *comparer) boundEqual(a, b node) bool {
	fa, fb := evalf(a, nil), evalf(b, nil)
	if math.IsInf(fa, 0) || math.IsInf(fb, 0) {
		return fa == fb
	}
	return c.scalarEqual(a, b)
}

// relationsEqual compares equations (as proportional) and chains of
// inequalities (item by item, read in ascending order).
func (c *comparer) relationsEqual(a, b *relNode) bool {
	if isEquation(a) && isEquation(b) {
		c.symbolic = true
		fa := &addNode{terms: []node{a.items[0], &negNode{a.items[1]}}}
		fb := &addNode{terms: []node{b.items[0], &negNode{b.items[1]}}}
		return proportional(fa, fb)
	}
	ai, ao := ascending(a)
	bi, bo := ascending(b)
	if len(ao) != len(bo) {
		return false
	}
	for i := range ao {
		if ao[i] != bo[i] {
			return false
		}
	}
	c.structural = true
	return c.ordered(ai, bi)
}

func ascending(r *relNode) ([]node, []string) {
	if len(r.ops) > 0 && (r.ops[0] == ">" || r.ops[0] == ">=") {
		return reversed(r.items), flip(r.ops)
	}
	return r.items, r.ops
}

// scalarEqual compares two expressions: exactly when both are rational,
// numerically when they have no variables, and as functions at sample
// points when they do.
func (c *comparer) scalarEqual(g, p node) bool {
	gr, gok := exact(g, nil)
	pr, pok := exact(p, nil)
	if gok && pok && gr.Cmp(pr) == 0 {
		return true
	}
	decimal := hasDecimal(g) || hasDecimal(p)
	if gok && pok && !decimal {
		return false // two different exact rationals
	}
	names := map[string]bool{}
	vars(g, names)
	vars(p, names)
	if len(names) == 0 {
		a, b := evalf(g, nil), evalf(p, nil)
		if math.IsNaN(a) || math.IsNaN(b) {
			return false
		}
		c.numeric = true
		if near(a, b, tolExact) {
			return true
		}
		// A decimal approximates an exact value when it is that value
		// rounded to its digits and has six significant digits or more.
		for _, side := range []node{p, g} {
			if digits, decimals, ok := decimalLiteral(side); ok && digits >= 6 {
				return math.Abs(a-b) <= 0.5*math.Pow(10, -float64(decimals))*(1+1e-9)
			}
		}
		return false
	}
	c.symbolic = true
	if names[imaginary] {
		return sameComplex(g, p, names)
	}
	return sameFunction(g, p, names)
}

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// points draws the fixed evaluation points: reals in (0.1, 0.9) and, for
// expressions that only make sense at integers, integers 2..13. The seed is
// fixed so a verdict never changes between runs.
func points(names map[string]bool, integers bool) []map[string]float64 {
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rng := rand.New(rand.NewPCG(0x5eed, 0xda76))
	var out []map[string]float64
	for i := 0; i < 8; i++ {
		env := make(map[string]float64, len(keys))
		for _, k := range keys {
			if integers {
				env[k] = float64(2 + rng.IntN(12))
			} else {
				env[k] = 0.1 + 0.8*rng.Float64()
			}
		}
		out = append(out, env)
	}
	return out
}

// sameFunction decides whether two expressions in free variables are the
// same function, by evaluating both at the fixed points.
func sameFunction(g, p node, names map[string]bool) bool {
	integers := integerValued(g) || integerValued(p)
	valid := 0
	for _, pass := range []bool{integers, !integers} {
		for _, env := range points(names, pass) {
			a, b := evalf(g, env), evalf(p, env)
			if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				continue
			}
			if !near(a, b, tolPoints) {
				return false
			}
			valid++
		}
		if valid >= 4 {
			return true
		}
	}
	return false
}

// proportional decides whether two expressions are non-zero constant
// multiples of each other (the same equation f = 0).
func proportional(f, g node) bool {
	names := map[string]bool{}
	vars(f, names)
	vars(g, names)
	var ratio float64
	valid := 0
	integers := integerValued(f) || integerValued(g)
	for _, env := range points(names, integers) {
		a, b := evalf(f, env), evalf(g, env)
		if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			continue
		}
		if math.Abs(a) < 1e-12 && math.Abs(b) < 1e-12 {
			valid++
			continue
		}
		if math.Abs(b) < 1e-12 || math.Abs(a) < 1e-12 {
			return false
		}
		r := a / b
		if valid > 0 && ratio != 0 && !near(r, ratio, tolPoints) {
			return false
		}
		ratio = r
		valid++
	}
	return valid >= 4
}

// decimalLiteral reads a bare (possibly negated) decimal number: its
// significant digits and digits after the point.
func decimalLiteral(n node) (digits, decimals int, ok bool) {
	if neg, isNeg := n.(*negNode); isNeg {
		n = neg.x
	}
	num, isNum := n.(*numNode)
	if !isNum || num.decimals == 0 {
		return 0, 0, false
	}
	s := num.r.FloatString(num.decimals)
	s = strings.TrimLeft(strings.Replace(strings.TrimPrefix(s, "-"), ".", "", 1), "0")
	return len(s), num.decimals, true
}

// membershipSet reads "(a, b, c) \in S" or "x \in S" as the set S.
func membershipSet(n node) node {
	r, ok := n.(*relNode)
	if !ok || len(r.ops) != 1 || r.ops[0] != "in" {
		return n
	}
	switch r.items[1].(type) {
	case *listNode, *intervalNode, *unionNode:
		return r.items[1]
	}
	return n
}
