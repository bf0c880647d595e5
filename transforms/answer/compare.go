package answer

import (
	"math"
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
	// ReasonUndecided: not equal because a value compared could not be
	// decided: undefined (1/0, a pole, ln 0), beyond the range the bounds
	// reach, or two rationals too large to compute that are not written
	// alike (2^{100000} + 1 and 2^{100000}).
	ReasonUndecided = "mismatch-undecided"
	ReasonNoAnswer  = "no-answer"
)

// Tolerances: values without variables must agree to 1e-9 relative
// (results of exact forms: roots, pi), and expressions in variables to 1e-8
// relative at each sample point. Values are computed with error bounds
// (approx.go) and a tolerance holds only when the bounds prove it. Where a
// decimal is written, values below 1 agree to 1e-9 absolute, as a rounded
// decimal does; without one, they are told apart once they differ by more
// than the error of computing them (e^{-30} is not e^{-31}). Rationals get no
// tolerance. Besides, a decimal of six significant digits or more written on
// either side is accepted when it is the other value rounded to its digits
// (see constantsEqual).
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
		// The raw answer, or its normalized form without units (3,5 \text{ cm}),
		// or the last side of either (x = \frac{7}{2} = 3,5).
		for _, s := range []string{pred.Raw, normForm(pred)} {
			for _, side := range []string{s, s[strings.LastIndex(s, "=")+1:]} {
				if alt, ok := decimalCommaAlternative(side); ok && c.equal(gold.node, alt) {
					return true, c.reason()
				}
			}
		}
	}
	if c.undecided {
		return false, ReasonUndecided
	}
	return false, ReasonMismatch
}

// comparer remembers the strongest kind of evidence used, and whether a
// comparison could not be decided.
type comparer struct {
	numeric, symbolic, structural bool
	undecided                     bool
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
	g, p = chainEnds(g), chainEnds(p)
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
			return c.equationsEqual(gr, pr)
		}
	}
	// An equation answers a gold that is not one by its last side, as
	// Math-Verify reads it: x = 18, x = 9 \cdot 2 = 18 (reduced above) and
	// 3 + 15 = 18 answer 18, (p, q) = (3, 2) answers (3, 2); 5 = x is x.
	if pr, ok := p.(*relNode); ok && isEquation(pr) && !isEquationNode(g) {
		p = pr.items[1]
	}
	g, p = membershipSet(g), membershipSet(p)
	if gr, ok := g.(*relNode); ok {
		// A gold "names = value" (x = 5, (p, q) = (3, 2), S_{ABC}:S = 7:32)
		// is its value against an answer that is not an equation.
		if v, ok := assignment(gr); ok {
			return c.equal(v, p)
		}
		if iv, ok := asInterval(gr); ok {
			g = iv
		}
	}
	if pr, ok := p.(*relNode); ok {
		if iv, ok := asInterval(pr); ok {
			p = iv
		}
	}
	// A pair or tuple against a row or column vector: (2, -1).
	if pm, ok := p.(*matrixNode); ok {
		if _, isMatrix := g.(*matrixNode); !isMatrix {
			if items, isVec := vectorItems(g); isVec {
				if cells, ok := pm.vector(); ok {
					c.structural = true
					return c.ordered(items, cells)
				}
			}
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
			// A point: its coordinates in the order written, whatever
			// brackets the answer used.
			if gx.pair && len(px.items) == 2 {
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
		// The gold decides whether order counts: a tuple's or a point's
		// coordinates compare in the order written, whatever brackets the
		// answer used; a set's or a list of solutions' elements in any order.
		// A gold x = -1, y = 2 is a point too, against an answer that does
		// not name its coordinates.
		c.structural = true
		switch px := p.(type) {
		case *listNode:
			if isOrdered(gx.kind) || namedPoint(gx) && !namedPoint(px) {
				return c.ordered(gx.items, px.items)
			}
			return c.unordered(expandItems(gx.items), expandItems(px.items))
		case *intervalNode:
			if px.pair && len(gx.items) == 2 {
				if isOrdered(gx.kind) || namedPoint(gx) {
					return c.equal(gx.items[0], px.lo) && c.equal(gx.items[1], px.hi)
				}
				return c.unordered(gx.items, []node{px.lo, px.hi})
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

// namedPoint reports whether a list assigns values to distinct names
// (x = -1, y = 2): the coordinates of a point.
func namedPoint(l *listNode) bool {
	seen := map[string]bool{}
	for _, it := range l.items {
		r, ok := it.(*relNode)
		if !ok || !isEquation(r) {
			return false
		}
		v, ok := r.items[0].(*varNode)
		if !ok || seen[v.name] {
			return false
		}
		seen[v.name] = true
	}
	return len(seen) > 1
}

// isEquationNode reports whether n is an equation.
func isEquationNode(n node) bool { r, ok := n.(*relNode); return ok && isEquation(r) }

// chainEnds reads a chain of equations by its ends: x = 9 \cdot 2 = 18 is
// x = 18, the working in the middle dropped.
func chainEnds(n node) node {
	r, ok := n.(*relNode)
	if !ok || len(r.ops) < 2 {
		return n
	}
	for _, op := range r.ops {
		if op != "=" {
			return n
		}
	}
	return &relNode{items: []node{r.items[0], r.items[len(r.items)-1]}, ops: []string{"="}}
}

// equationsEqual compares two equations: the same names assigned the same
// value (x = 5 and x = 5; a single name on both sides need not be the same
// one, y = 5 and x = 5), or the same relation up to a constant factor
// (y = 2x + 1 and 2x - y + 1 = 0).
func (c *comparer) equationsEqual(gr, pr *relNode) bool {
	gv, gAssign := assignment(gr)
	pv, pAssign := assignment(pr)
	if gAssign && pAssign && c.equal(gv, pv) {
		if nameLike(gr.items[0]) && nameLike(pr.items[0]) {
			return true
		}
		// Names beyond one variable must be the same: x + y = 1 is not
		// x - y = 1, and (p, q) = (3, 2) is not (q, p) = (3, 2).
		if c.equal(gr.items[0], pr.items[0]) {
			return true
		}
	}
	if !isScalar(gr.items[1]) || !isScalar(pr.items[1]) || !isScalar(gr.items[0]) || !isScalar(pr.items[0]) {
		return false
	}
	return c.relationsEqual(gr, pr)
}

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
	return len(a) <= 64 && matchFirstFree(a, b, c.equal)
}

// matchFirstFree matches every item of a, in order, to the first item of
// b that eq accepts and no earlier item took; a and b must be as long.
func matchFirstFree(a, b []node, eq func(x, y node) bool) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for _, x := range a {
		found := false
		for j, y := range b {
			if !used[j] && eq(x, y) {
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

// boundEqual compares interval ends, where infinities must match in sign;
// an end that overflows a float is not infinite.
func (c *comparer) boundEqual(a, b node) bool {
	fa, fb := approximate(a, nil), approximate(b, nil)
	if fa.state == approxInfinite || fb.state == approxInfinite {
		return compareApprox(fa, fb, 0) == same
	}
	return c.scalarEqual(a, b)
}

// relationsEqual compares equations (as proportional) and chains of
// inequalities (item by item, read in ascending order).
func (c *comparer) relationsEqual(a, b *relNode) bool {
	if isEquation(a) && isEquation(b) || isInequation(a) && isInequation(b) {
		// a = b and a != b are the same however they are arranged.
		c.symbolic = true
		return proportional(difference(a.items[0], a.items[1]), difference(b.items[0], b.items[1]))
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
	if c.ordered(ai, bi) {
		return true
	}
	// One inequality in variables, rearranged: a > b is a - b > 0 and
	// -x > -1 is x < 1; the larger side less the smaller must be the same
	// up to a positive factor.
	if len(ao) != 1 || ao[0] != "<" && ao[0] != "<=" {
		return false
	}
	fa, fb := difference(ai[1], ai[0]), difference(bi[1], bi[0])
	if !hasVars(fa) || !hasVars(fb) || !proportional(fa, fb) {
		return false
	}
	c.symbolic = true
	return sameSign(fa, fb)
}

func isInequation(r *relNode) bool { return len(r.ops) == 1 && r.ops[0] == "!=" }

// difference is a - b.
func difference(a, b node) node { return &addNode{terms: []node{a, &negNode{b}}} }

// sameSign reports whether two proportional expressions have the same
// sign, at the first sample point where both are known and not zero.
func sameSign(f, g node) bool {
	names := map[string]bool{}
	vars(f, names)
	vars(g, names)
	for _, integers := range []bool{false, true} {
		for _, env := range points(names, integers) {
			a, b := approximate(f, env), approximate(g, env)
			if a.state != approxKnown || b.state != approxKnown || nearZero(a) != different || nearZero(b) != different {
				continue
			}
			return a.signOf() == b.signOf()
		}
	}
	return false
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
		return c.constantsEqual(g, p, decimal)
	}
	c.symbolic = true
	if names[imaginary] {
		return sameComplex(g, p, names)
	}
	return c.sameFunction(g, p, names, decimal)
}

// constantsEqual compares two expressions without variables whose exact
// values were not both computed: rationals too large for exact arithmetic
// (2^{100000}, 3000!) and everything irrational.
func (c *comparer) constantsEqual(g, p node, decimal bool) bool {
	a, b := approximate(g, nil), approximate(p, nil)
	if a.rational && b.rational && !decimal {
		// No tolerance between rationals: 2^{100000} + 1 is not 2^{100000}.
		switch compareApprox(a, b, 0) {
		case same:
			return true
		case different:
			return false
		}
		return c.exactlyOrUndecided(g, p, false)
	}
	v := compareValues(a, b, tolExact, decimal)
	if v == same {
		c.numeric = true
		return true
	}
	// A decimal approximates an exact value when it is that value rounded
	// to its digits and has six significant digits or more.
	for _, side := range []node{p, g} {
		if digits, decimals, ok := decimalLiteral(side); ok && digits >= 6 {
			v = withinRounding(a, b, 0.5*math.Pow(10, -float64(decimals))*(1+1e-9))
			break
		}
	}
	switch v {
	case same:
		c.numeric = true
		return true
	case different:
		return false
	}
	return c.exactlyOrUndecided(g, p, decimal)
}

// exactlyOrUndecided settles what the bounds could not: products of powers
// of rationals compare exactly (only their equality counts where a decimal
// allows a tolerance), expressions written alike are equal, and anything
// else is not equal, for want of a decision.
func (c *comparer) exactlyOrUndecided(g, p node, decimal bool) bool {
	if equal, ok := powerFormsEqual(g, p); ok && (equal || !decimal) {
		return equal
	}
	if sameTree(g, p) {
		c.structural = true
		return true
	}
	c.undecided = true
	return false
}

// compareValues applies a tolerance (see tolExact). Without a decimal
// written, values that agree within the absolute floor of 1e-9 still
// differ when the bounds prove them apart relatively.
func compareValues(a, b approx, tol float64, decimal bool) verdict {
	v := compareApprox(a, b, tol)
	if decimal || v != same {
		return v
	}
	if compareRelative(a, b, tol) == different {
		return different
	}
	return same
}

// withinRounding decides |a − b| <= half, for balls.
func withinRounding(a, b approx, half float64) verdict {
	if a.state != approxKnown || b.state != approxKnown || a.wide || b.wide {
		return undecided
	}
	d, e := twoSum(a.mid, -b.mid)
	d, rad := math.Abs(d), a.rad+b.rad+math.Abs(e)
	switch {
	case d+rad <= half:
		return same
	case d-rad > half:
		return different
	}
	return undecided
}

// near is |a − b| <= tol·max(1, |a|, |b|) for floats known exactly (the
// ends of spans); infinities equal only themselves.
func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
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
