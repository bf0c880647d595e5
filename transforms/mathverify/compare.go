package mathverify

// Math-Verify's verify (grader.py) with its defaults: float_rounding=6,
// numeric_precision=15, strict=True, allow_set_relation_comp=False.

import (
	"math"
	"math/big"
	"sort"
	"strings"
)

const (
	floatRounding = 6
	// closeTol stands in for sympy's exact simplify and 15-digit evalf on
	// values computed here in float64.
	closeTol = 1e-10
)

// compareErr marks a comparison that raised in Math-Verify (which then
// counts the pair as unequal).
type compareErr struct{}

func isAssignment(n *node) bool {
	if n.k == kRel && n.op == "=" && isOnlySymbols(n.args[0]) {
		return true
	}
	if n.k == kAnd && len(n.args) > 0 {
		for _, a := range n.args {
			if a.k != kRel || a.op != "=" {
				return false
			}
		}
		return isOnlySymbols(n.args[0].args[0])
	}
	return false
}

func isEquation(n *node) bool {
	if n.k == kRel && n.op == "=" {
		return true
	}
	if n.k == kAnd && len(n.args) > 0 {
		for _, a := range n.args {
			if a.k != kRel || a.op != "=" {
				return false
			}
		}
		return true
	}
	return false
}

func isRelation(n *node) bool {
	if n.k == kRel {
		return true
	}
	if n.k == kAnd && len(n.args) > 0 {
		for _, a := range n.args {
			if a.k != kRel {
				return false
			}
		}
		return true
	}
	return false
}

func takeLast(n *node) *node {
	if n.k == kAnd {
		return takeLast(n.args[len(n.args)-1])
	}
	return n
}

func takeFirst(n *node) *node {
	if n.k == kAnd {
		return n.args[0]
	}
	return n
}

// exprEq is sympy_expr_eq.
func exprEq(g, p *node) bool {
	if g.k == kPct && p.k != kPct && exprEqPlain(g.args[0], p) {
		// A gold percentage also accepts its number written without the
		// sign: Math-Verify's regression cases grade 28% against 28 as
		// correct while 0.28 against 28 stays wrong.
		return true
	}
	return exprEqPlain(g, p)
}

func exprEqPlain(g, p *node) bool {
	gAssign, pAssign := isAssignment(g), isAssignment(p)
	gEq, pEq := isEquation(g), isEquation(p)
	if gAssign {
		g = rel("=", takeFirst(g).args[0], takeLast(g).args[1])
	}
	if pAssign {
		p = rel("=", takeFirst(p).args[0], takeLast(p).args[1])
	}
	if pEq && !gEq {
		p = takeLast(p).args[1]
	} else if gAssign && !pEq {
		g = takeLast(g).args[1]
	}
	if isRelation(g) && p.isSetLike() {
		if set, ok := relationAsSet(g); ok {
			g = set
		}
	}
	if g.k == kConst && (g.name == "zoo" || g.name == "nan") {
		return false
	}
	if g.key() == p.key() {
		return true
	}
	switch {
	case isRelation(g) && isRelation(p):
		return compareRelational(g, p)
	case g.isSetLike() || g.k == kTuple || p.isSetLike() || p.k == kTuple:
		return compareSets(g, p)
	case g.k == kSym || p.k == kSym:
		return compareSymbols(g, p)
	}
	if g.isRelational() || p.isRelational() || g.k == kAnd || p.k == kAnd || g.k == kNot || p.k == kNot {
		return false
	}
	return numericEq(g, p)
}

var inverseOp = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "="}

func difference(a, b *node) *node { return add(a, mul(intNode(-1), b)) }

func compareRelational(g, p *node) bool {
	if g.k == kAnd && p.k == kAnd {
		for i := 0; i < len(g.args) && i < len(p.args); i++ {
			if !compareRelational(g.args[i], p.args[i]) {
				return false
			}
		}
		return true
	}
	if g.k != kRel || p.k != kRel {
		return false
	}
	if g.op == p.op && exprEq(difference(g.args[0], g.args[1]), difference(p.args[0], p.args[1])) {
		return true
	}
	inv, ok := inverseOp[g.op]
	if !ok {
		return false // INVERSE_RELATIONS has no Ne: the lookup raises
	}
	if inv == p.op && exprEq(difference(g.args[0], g.args[1]), difference(p.args[1], p.args[0])) {
		return true
	}
	if g.op == "=" && p.op == "=" {
		return equationsEquivalent(g, p)
	}
	return false
}

// equationsEquivalent stands in for solving both equations for their free
// symbols and comparing the solutions: equations over the same symbols
// whose sides' differences are proportional have the same solutions.
func equationsEquivalent(g, p *node) bool {
	gs, ps := map[string]bool{}, map[string]bool{}
	freeSymbols(g, gs)
	freeSymbols(p, ps)
	if len(gs) == 0 || len(gs) != len(ps) {
		return false
	}
	for s := range gs {
		if !ps[s] {
			return false
		}
	}
	names := sortedNames(gs)
	d1, d2 := difference(g.args[0], g.args[1]), difference(p.args[0], p.args[1])
	var ratio complex128
	seen := 0
	for pt := range samplePoints {
		e := &evaluator{env: symbolEnv(names, pt)}
		a, err1 := e.eval(d1)
		b, err2 := e.eval(d2)
		if err1 != nil || err2 != nil || b.c == 0 || isBad(a.c) || isBad(b.c) {
			continue
		}
		r := a.c / b.c
		if seen == 0 {
			ratio = r
			if ratio == 0 {
				return false
			}
		} else if !close(r, ratio) {
			return false
		}
		seen++
	}
	return seen >= 2
}

func compareSymbols(g, p *node) bool {
	if (g.k == kSym && strings.ToLower(g.name) == "e" && p.k == kConst && p.name == "E") ||
		(p.k == kSym && strings.ToLower(p.name) == "e" && g.k == kConst && g.name == "E") {
		return true
	}
	concat := func(m *node) (string, bool) {
		if m.k != kMul {
			return "", false
		}
		var b strings.Builder
		for _, a := range m.args {
			switch {
			case a.k == kSym:
				b.WriteString(a.name)
			case a.k == kConst && a.name == "E":
				b.WriteString("e")
			default:
				return "", false
			}
		}
		return b.String(), true
	}
	if g.k == kSym {
		if s, ok := concat(p); ok {
			return strings.EqualFold(g.name, s)
		}
	}
	if p.k == kSym {
		if s, ok := concat(g); ok {
			return strings.EqualFold(p.name, s)
		}
	}
	if g.k == kSym && p.k == kSym {
		gn, pn := g.name, p.name
		if len([]rune(pn)) > 1 {
			pn = strings.ToLower(pn)
		}
		if len([]rune(gn)) > 1 {
			gn = strings.ToLower(gn)
		}
		return gn == pn
	}
	return false
}

// --- numbers and expressions ---

func isFloatAtom(n *node) bool {
	return n.k == kFloat || (n.k == kPct && n.args[0].k == kFloat)
}

func isNumberAtom(n *node) bool {
	return n.isNumber() || (n.k == kPct && n.args[0].isNumber())
}

// doitNumber is safe_sympy_doit for Expr.round: the value of an
// expression without free symbols (sqrt(2) and pi round as well as 1/3).
func doitNumber(n *node) (value, bool) {
	syms := map[string]bool{}
	freeSymbols(n, syms)
	if len(syms) > 0 {
		return value{}, false
	}
	v, err := (&evaluator{env: env{}}).eval(n)
	if err != nil {
		return value{}, false
	}
	if f, ok := realOf(v); !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return value{}, false
	}
	return v, true
}

func roundTo(v value, digits int) (*big.Rat, bool) {
	var r *big.Rat
	if v.exact != nil {
		r = v.exact
	} else {
		f, ok := realOf(v)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		r = new(big.Rat)
		r.SetString(formatFloat15(f))
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
	x := new(big.Rat).Mul(r, scale)
	// round half to even, as sympy's round does
	num, den := x.Num(), x.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
	if c := twice.Cmp(den); c > 0 || (c == 0 && q.Bit(0) == 1) {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return new(big.Rat).Quo(new(big.Rat).SetInt(q), scale), true
}

// formatFloat15 is the float at sympy's 15 significant digits.
func formatFloat15(f float64) string {
	return big.NewFloat(f).Text('g', 15)
}

func numericEq(g, p *node) bool {
	gm, gIsM := matrixOf(g)
	pm, pIsM := matrixOf(p)
	if gIsM || pIsM {
		if !gIsM || !pIsM || gm.rows != pm.rows || gm.cols != pm.cols {
			return false
		}
		for i := range gm.args {
			if !scalarEq(gm.args[i], pm.args[i]) {
				return false
			}
		}
		return true
	}
	return scalarEq(g, p)
}

func scalarEq(g, p *node) bool {
	if isNumberAtom(g) || isNumberAtom(p) {
		if isFloatAtom(g) || isFloatAtom(p) {
			gv, gok := doitNumber(g)
			pv, pok := doitNumber(p)
			if gok && pok {
				a, ok1 := roundTo(gv, floatRounding)
				b, ok2 := roundTo(pv, floatRounding)
				if ok1 && ok2 && a.Cmp(b) == 0 {
					return true
				}
			}
		}
	}
	return valuesEqual(g, p)
}

// valuesEqual is the diff-ratio check and simplify(a - b) == 0: exact for
// rational values, numeric elsewhere, at sample points when symbols are
// free.
func valuesEqual(g, p *node) bool {
	syms := map[string]bool{}
	freeSymbols(g, syms)
	freeSymbols(p, syms)
	if len(syms) == 0 {
		ev := &evaluator{env: env{}}
		a, err1 := ev.eval(g)
		b, err2 := ev.eval(p)
		if err1 != nil || err2 != nil {
			return false
		}
		if a.exact != nil && b.exact != nil {
			return a.exact.Cmp(b.exact) == 0
		}
		if isBad(a.c) || isBad(b.c) {
			return false
		}
		return close(a.c, b.c)
	}
	names := sortedNames(syms)
	seen := 0
	for pt := range samplePoints {
		ev := &evaluator{env: symbolEnv(names, pt)}
		a, err1 := ev.eval(g)
		b, err2 := ev.eval(p)
		if err1 == errFreeSymbol || err2 == errFreeSymbol {
			return false
		}
		if err1 != nil || err2 != nil || isBad(a.c) || isBad(b.c) {
			continue
		}
		if !close(a.c, b.c) {
			return false
		}
		seen++
	}
	return seen >= 2
}

func isBad(c complex128) bool {
	return math.IsNaN(real(c)) || math.IsNaN(imag(c)) || math.IsInf(real(c), 0) || math.IsInf(imag(c), 0)
}

func close(a, b complex128) bool {
	d := a - b
	scale := math.Max(1e-300, math.Max(absC(a), absC(b)))
	return absC(d) <= closeTol*scale || absC(d) < 1e-13
}

func absC(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// matrixOf evaluates matrix sums and products to a matrix of entries.
func matrixOf(n *node) (*node, bool) {
	switch {
	case n.k == kMatrix:
		return n, true
	case n.k == kFn && n.name == "MatMul":
		a, aok := matrixOf(n.args[0])
		b, bok := matrixOf(n.args[1])
		switch {
		case aok && bok:
			if a.cols != b.rows {
				return nil, false
			}
			out := &node{k: kMatrix, rows: a.rows, cols: b.cols}
			for i := 0; i < a.rows; i++ {
				for j := 0; j < b.cols; j++ {
					var terms []*node
					for k := 0; k < a.cols; k++ {
						terms = append(terms, mul(a.args[i*a.cols+k], b.args[k*b.cols+j]))
					}
					out.args = append(out.args, add(terms...))
				}
			}
			return out, true
		case aok:
			return scaleMatrix(a, n.args[1]), true
		case bok:
			return scaleMatrix(b, n.args[0]), true
		}
	case n.k == kAdd:
		var acc *node
		for _, a := range n.args {
			m, ok := matrixOf(a)
			if !ok {
				return nil, false
			}
			if acc == nil {
				acc = m
				continue
			}
			if acc.rows != m.rows || acc.cols != m.cols {
				return nil, false
			}
			sum := &node{k: kMatrix, rows: m.rows, cols: m.cols}
			for i := range m.args {
				sum.args = append(sum.args, add(acc.args[i], m.args[i]))
			}
			acc = sum
		}
		return acc, acc != nil
	}
	return nil, false
}

func scaleMatrix(m, s *node) *node {
	out := &node{k: kMatrix, rows: m.rows, cols: m.cols}
	for _, a := range m.args {
		out.args = append(out.args, mul(s, a))
	}
	return out
}

// --- sets, tuples, intervals ---

func asSet(n *node) *node {
	if n.isSetLike() || n.k == kTuple {
		return n
	}
	return &node{k: kSet, args: []*node{n}}
}

func compareSets(g, p *node) bool {
	a, b := asSet(g), asSet(p)
	if a.k == kInterval && b.k == kInterval {
		return a.lopen == b.lopen && a.ropen == b.ropen && exprEq(a.args[0], b.args[0]) && exprEq(a.args[1], b.args[1])
	}
	if a.key() == b.key() {
		return true
	}
	if a.k != kTuple && b.k != kTuple {
		if eq, known := setsEqual(a, b); known && eq {
			return true
		}
	}
	if (a.k == kSet || a.k == kTuple) && (b.k == kSet || b.k == kTuple) {
		return deepCompare(a, b)
	}
	if a.k == kInterval && (b.k == kSet || b.k == kTuple) && a.lopen && a.ropen && setLen(b) == 2 {
		return deepCompare(&node{k: kTuple, args: a.args}, b)
	}
	if b.k == kInterval && (a.k == kSet || a.k == kTuple) && b.lopen && b.ropen && setLen(a) == 2 {
		return deepCompare(a, &node{k: kTuple, args: b.args})
	}
	return false
}

// uniqueElems is a finite set's elements as sympy keeps them: duplicates
// dropped.
func uniqueElems(n *node) []*node {
	if n.k != kSet {
		return n.args
	}
	seen := map[string]bool{}
	var out []*node
	for _, a := range n.args {
		k := a.key()
		if !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

func setLen(n *node) int { return len(uniqueElems(n)) }

func deepCompare(g, p *node) bool {
	ga, pa := uniqueElems(g), uniqueElems(p)
	if len(ga) != len(pa) {
		return false
	}
	if g.k != kSet {
		// a gold tuple keeps its order, and so does the prediction
		for i := range ga {
			if !exprEq(ga[i], pa[i]) {
				return false
			}
		}
		return true
	}
	ga, pa = sortedElems(ga), sortedElems(pa)
	// Numbers sort by value, as in sympy, and pair up in that order.
	// Symbolic elements sort in sympy by the structure of their terms,
	// which pairs equal elements written alike; pairing each with any
	// equal one stands in for that order.
	gn, pn := numericPrefix(ga), numericPrefix(pa)
	if gn != pn {
		return false
	}
	for i := 0; i < gn; i++ {
		if !exprEq(ga[i], pa[i]) {
			return false
		}
	}
	return matchAll(ga[gn:], pa[pn:])
}

// numericPrefix counts the leading elements that evaluate to a real
// number (sortedElems puts them first).
func numericPrefix(elems []*node) int {
	n := 0
	for _, e := range elems {
		u := e
		if isAssignment(u) {
			u = takeLast(u).args[1]
		}
		v, err := (&evaluator{env: env{}}).eval(u)
		if err != nil {
			break
		}
		if f, ok := realOf(v); !ok || math.IsNaN(f) {
			break
		}
		n++
	}
	return n
}

// matchAll pairs every gold element with a distinct equal prediction
// element, trying written order first.
func matchAll(ga, pa []*node) bool {
	if len(ga) == 0 {
		return true
	}
	if len(ga) > 6 {
		for i := range ga {
			if !exprEq(ga[i], pa[i]) {
				return false
			}
		}
		return true
	}
	used := make([]bool, len(pa))
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(ga) {
			return true
		}
		for j := range pa {
			if !used[j] && exprEq(ga[i], pa[j]) {
				used[j] = true
				if try(i + 1) {
					return true
				}
				used[j] = false
			}
		}
		return false
	}
	return try(0)
}

// sortedElems orders elements as default_sort_key of their evalf: numbers
// by value, then everything else by a stable rendering.
func sortedElems(elems []*node) []*node {
	type keyed struct {
		n     *node
		class int
		v     float64
		s     string
	}
	ks := make([]keyed, len(elems))
	for i, e := range elems {
		u := e
		if isAssignment(u) {
			u = takeLast(u).args[1]
		}
		k := keyed{n: e, class: 1, s: u.key()}
		if v, err := (&evaluator{env: env{}}).eval(u); err == nil {
			if f, ok := realOf(v); ok && !math.IsNaN(f) {
				k.class, k.v = 0, f
			}
		}
		ks[i] = k
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].class != ks[j].class {
			return ks[i].class < ks[j].class
		}
		if ks[i].class == 0 && ks[i].v != ks[j].v {
			return ks[i].v < ks[j].v
		}
		return ks[i].s < ks[j].s
	})
	out := make([]*node, len(ks))
	for i, k := range ks {
		out[i] = k.n
	}
	return out
}

// piece is a part of a real set: an interval or (lo == hi, closed) a point.
type piece struct {
	lo, hi       float64
	lopen, ropen bool
}

// setsEqual is symmetric_difference(...).is_empty for sets of real
// numbers: unions of intervals and finite sets with numeric members.
func setsEqual(a, b *node) (bool, bool) {
	pa, ok1 := realPieces(a)
	pb, ok2 := realPieces(b)
	if !ok1 || !ok2 {
		return false, false
	}
	pa, pb = mergePieces(pa), mergePieces(pb)
	if len(pa) != len(pb) {
		return false, true
	}
	for i := range pa {
		x, y := pa[i], pb[i]
		if !closeF(x.lo, y.lo) || !closeF(x.hi, y.hi) || x.lopen != y.lopen || x.ropen != y.ropen {
			return false, true
		}
	}
	return true, true
}

func closeF(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return close(complex(a, 0), complex(b, 0))
}

// concatPieces joins the pieces of each of args in order; it fails as
// soon as one of them does.
func concatPieces(args []*node, pieces func(*node) ([]piece, bool)) ([]piece, bool) {
	var out []piece
	for _, a := range args {
		ps, ok := pieces(a)
		if !ok {
			return nil, false
		}
		out = append(out, ps...)
	}
	return out, true
}

func realPieces(n *node) ([]piece, bool) {
	ev := &evaluator{env: env{}}
	real := func(x *node) (float64, bool) {
		if x.k == kMul && len(x.args) == 2 && x.args[1].k == kConst && x.args[1].name == "oo" {
			if v, err := ev.eval(x.args[0]); err == nil {
				if f, ok := realOf(v); ok && f < 0 {
					return math.Inf(-1), true
				}
			}
		}
		v, err := ev.eval(x)
		if err != nil {
			return 0, false
		}
		return realOf(v)
	}
	switch n.k {
	case kInterval:
		lo, ok1 := real(n.args[0])
		hi, ok2 := real(n.args[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		return []piece{{lo, hi, n.lopen || math.IsInf(lo, 0), n.ropen || math.IsInf(hi, 0)}}, true
	case kSet:
		return concatPieces(n.args, func(e *node) ([]piece, bool) {
			f, ok := real(e)
			return []piece{{f, f, false, false}}, ok
		})
	case kUnion:
		return concatPieces(n.args, realPieces)
	case kSetConst:
		switch n.name {
		case "Reals":
			return []piece{{math.Inf(-1), math.Inf(1), true, true}}, true
		case "EmptySet":
			return nil, true
		}
	}
	return nil, false
}

func mergePieces(ps []piece) []piece {
	var valid []piece
	for _, p := range ps {
		if p.lo > p.hi || (p.lo == p.hi && (p.lopen || p.ropen)) {
			continue
		}
		valid = append(valid, p)
	}
	sort.Slice(valid, func(i, j int) bool {
		if valid[i].lo != valid[j].lo {
			return valid[i].lo < valid[j].lo
		}
		return !valid[i].lopen && valid[j].lopen
	})
	var out []piece
	for _, p := range valid {
		if len(out) > 0 {
			last := &out[len(out)-1]
			touch := p.lo < last.hi || (p.lo == last.hi && (!p.lopen || !last.ropen))
			if touch {
				if p.hi > last.hi || (p.hi == last.hi && !p.ropen) {
					last.hi, last.ropen = p.hi, p.ropen
				}
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
