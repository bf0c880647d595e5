package mathverify

// A recursive-descent reading of PS.g4 with latex2sympy2_extended's
// conversions (latex2sympy2.py). Where ANTLR resolves an ambiguity by the
// lowest-numbered alternative, the alternatives are tried in grammar order
// and the first that lets the enclosing rule go on wins.

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
)

type parser struct {
	toks  []token
	pos   int
	src   string
	depth int
	// lastPlusMinus is the index of the last \pm token, or -1: no
	// plus-or-minus element can begin after it.
	lastPlusMinus int
}

// skipDoomedTries makes the parser skip an alternative whose try must
// fail: one that needs a token the input does not have where it would
// read it (see mayStart*). A failed try unwinds the parser's stack by
// panic, and a plain number failed three or four, most of parsing it.
// Tests turn it off to compare with the parser that tries everything.
var skipDoomedTries = true

const maxDepth = 200

func parseLatex(src string) (v *node, err error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: src, lastPlusMinus: -1}
	for i, t := range toks {
		if t.t == "PLUS_MINUS" {
			p.lastPlusMinus = i
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(parseError); ok {
				v, err = nil, e.error()
				return
			}
			panic(r)
		}
	}()
	return p.math()
}

// parseError is a parse failure, its message formatted only when it
// leaves parseLatex: most failures are alternatives that try() drops, and
// formatting each cost a fifth of grading a short answer.
type parseError struct {
	format string
	args   []any
}

func (e parseError) error() error {
	return fmt.Errorf("%w: "+e.format, append([]any{ErrSyntax}, e.args...)...)
}

func (p *parser) fail(format string, a ...any) {
	panic(parseError{format, a})
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].t
	}
	return "EOF"
}

// peekIn reports whether the next token is one of types.
func (p *parser) peekIn(types ...string) bool {
	next := p.peek()
	for _, t := range types {
		if next == t {
			return true
		}
	}
	return false
}

func (p *parser) peekAt(k int) string {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k].t
	}
	return "EOF"
}

func (p *parser) next() token {
	if p.pos >= len(p.toks) {
		p.fail("unexpected end")
	}
	t := p.toks[p.pos]
	p.pos++
	return t
}

func (p *parser) accept(types ...string) (token, bool) {
	for _, t := range types {
		if p.peek() == t {
			return p.next(), true
		}
	}
	return token{}, false
}

func (p *parser) expect(t string) token {
	if p.peek() != t {
		p.fail("expected %s, found %s", t, p.peek())
	}
	if t == "EOF" {
		return token{t: "EOF"}
	}
	return p.next()
}

// try runs f; on a parse failure it restores the position and reports
// false.
func (p *parser) try(f func() *node) (n *node, ok bool) {
	save := p.pos
	defer func() {
		if r := recover(); r != nil {
			if _, isPE := r.(parseError); isPE {
				p.pos = save
				n, ok = nil, false
				return
			}
			panic(r)
		}
	}()
	return f(), true
}

// tryIf is try where may is a necessary condition of f's success: when
// it is false (and skipDoomedTries is on) f is not run and fails.
func (p *parser) tryIf(may bool, f func() *node) (*node, bool) {
	if skipDoomedTries && !may {
		return nil, false
	}
	return p.try(f)
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) math() (*node, error) {
	// A relation between sets of elements begins with a symbol or "("
	// (atomExprList); on anything else it fails, and is not tried: a
	// failed try unwinds the parser's stack, most of parsing a number.
	if p.peekIn("L_PAREN", "LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT") {
		if v, ok := p.try(func() *node { n := p.setElementsRelation(); p.expect("EOF"); return n }); ok {
			return v, nil
		}
	}
	if v, ok := p.try(func() *node { n := p.setElements(); p.expect("EOF"); return n }); ok {
		if isCommaNumber(p.src) {
			return convertCommaNumber(p.src), nil
		}
		return v, nil
	}
	if v, ok := p.try(func() *node { n := p.setRelation(); p.expect("EOF"); return n }); ok {
		return v, nil
	}
	return nil, fmt.Errorf("%w: nothing matched", ErrSyntax)
}

// isCommaNumber is comma_number_regex: ^\s*-?\d{1,3}(,\d{3})+(\.\d+)?\s*$.
func isCommaNumber(s string) bool {
	s = strings.TrimFunc(s, isPySpace)
	s = strings.TrimPrefix(s, "-")
	rs := []rune(s)
	i := 0
	for i < len(rs) && isDigitU(rs[i]) {
		i++
	}
	if i < 1 || i > 3 {
		return false
	}
	groups := 0
	for i < len(rs) && rs[i] == ',' {
		if i+3 >= len(rs)+0 && !(i+3 < len(rs)+1) {
			return false
		}
		for j := 1; j <= 3; j++ {
			if i+j >= len(rs) || !isDigitU(rs[i+j]) {
				return false
			}
		}
		i += 4
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(rs) && rs[i] == '.' {
		j := i + 1
		for j < len(rs) && isDigitU(rs[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	return i == len(rs)
}

// convertCommaNumber is convert_number: 0,xxx is a decimal, other commas
// separate thousands.
func convertCommaNumber(s string) *node {
	s = strings.TrimFunc(s, isPySpace)
	if strings.Contains(s, ",") && strings.HasPrefix(s, "0") {
		s = strings.ReplaceAll(s, ",", ".")
	}
	s = stripSeparators.Replace(s)
	s = strings.TrimLeft(s, "0")
	if s == "" {
		s = "0"
	}
	if n, err := numberFromString(s); err == nil {
		return n
	}
	return intNode(0)
}

// --- set level ---

func (p *parser) atomExprList() *node {
	if p.peek() == "L_PAREN" {
		if v, ok := p.try(func() *node {
			p.expect("L_PAREN")
			items := []*node{p.atomExpr(true)}
			for p.peek() == "COMMA" {
				p.next()
				items = append(items, p.atomExpr(true))
			}
			p.expect("R_PAREN")
			if len(items) == 1 {
				return items[0]
			}
			return &node{k: kTuple, args: items}
		}); ok {
			return v
		}
	}
	return p.atomExpr(true)
}

func (p *parser) setElementsRelation() *node {
	lhs := p.atomExprList()
	if _, ok := p.accept("IN", "ASSIGNMENT"); !ok {
		p.fail("expected \\in or =")
	}
	groups := p.semicolonElements(true, []string{"EOF"})
	return rel("=", lhs, elementsToSetOrTuple(groups))
}

func (p *parser) setElements() *node {
	return elementsToSetOrTuple(p.semicolonElements(false, []string{"EOF"}))
}

func elementsToSetOrTuple(groups [][]*node) *node {
	if len(groups) == 1 {
		if len(groups[0]) == 1 {
			return groups[0][0]
		}
		return &node{k: kSet, args: groups[0]}
	}
	allSingle := true
	for _, g := range groups {
		if len(g) != 1 {
			allSingle = false
		}
	}
	var out []*node
	for _, g := range groups {
		if allSingle {
			out = append(out, g[0])
		} else {
			out = append(out, &node{k: kTuple, args: g})
		}
	}
	return &node{k: kSet, args: out}
}

func (p *parser) semicolonElements(noRel bool, follow []string) [][]*node {
	f := append([]string{"COMMA", "SEMICOLON"}, follow...)
	groups := [][]*node{p.commaElements(noRel, f)}
	for p.peek() == "SEMICOLON" {
		p.next()
		groups = append(groups, p.commaElements(noRel, f))
	}
	return groups
}

func (p *parser) commaElements(noRel bool, follow []string) []*node {
	elems := p.element(noRel, follow)
	for p.peek() == "COMMA" {
		p.next()
		elems = append(elems, p.element(noRel, follow)...)
	}
	return elems
}

func (p *parser) followed(follow []string) bool {
	t := p.peek()
	for _, f := range follow {
		if f == t {
			return true
		}
	}
	return false
}

func (p *parser) element(noRel bool, follow []string) []*node {
	p.enter()
	defer p.leave()
	var pair []*node
	// plusMinusExpr reads a \pm here or after an expression.
	if !skipDoomedTries || p.lastPlusMinus >= p.pos {
		if _, ok := p.try(func() *node {
			pair = p.plusMinusExpr()
			if !p.followed(follow) {
				p.fail("element continues")
			}
			return nil
		}); ok {
			return pair
		}
	}
	if !skipDoomedTries || mayStartSetAtom(p.peek()) {
		if v, ok := p.try(func() *node {
			n := p.setAtom()
			if !p.followed(follow) {
				p.fail("element continues")
			}
			return n
		}); ok {
			return []*node{v}
		}
	}
	var v *node
	if noRel {
		v = p.expr()
	} else {
		v = p.relation()
	}
	if !p.followed(follow) {
		p.fail("unexpected %s", p.peek())
	}
	return []*node{v}
}

func (p *parser) plusMinusExpr() []*node {
	if _, ok := p.accept("PLUS_MINUS"); ok {
		e := p.expr()
		return []*node{unaryMinus(e), e}
	}
	l := p.expr()
	p.expect("PLUS_MINUS")
	r := p.expr()
	return []*node{add(l, r), add(l, unaryMinus(r))}
}

func unaryMinus(e *node) *node {
	if e.k == kNum {
		return num(new(big.Rat).Neg(e.rat))
	}
	return mul(intNode(-1), e)
}

func (p *parser) setRelation() *node {
	p.enter()
	defer p.leave()
	if v, ok := p.try(func() *node {
		left := p.atomExprList()
		t, ok := p.accept("IN", "NOTIN", "ASSIGNMENT")
		if !ok {
			p.fail("no set relation")
		}
		right := p.setRelation()
		if t.t == "NOTIN" {
			return &node{k: kNot, args: []*node{rel("=", left, right)}}
		}
		return rel("=", left, right)
	}); ok {
		return v
	}
	left := p.minusExpr()
	if _, ok := p.accept("SUBSET", "SUPSET"); ok {
		p.fail("subset relations are not compared")
	}
	return left
}

func (p *parser) minusExpr() *node {
	return p.leftFold("SET_MINUS", p.unionExpr, func(l, r *node) *node { return &node{k: kCompl, args: []*node{l, r}} })
}

// leftFold reads operand (op operand)* and joins it from the left:
// a op b op c is (a op b) op c.
func (p *parser) leftFold(op string, operand func() *node, join func(l, r *node) *node) *node {
	left := operand()
	for p.peek() == op {
		p.next()
		left = join(left, operand())
	}
	return left
}

func asFiniteSet(n *node) *node {
	if n.k == kTuple {
		return &node{k: kSet, args: n.args}
	}
	return n
}

// setOperation joins two operands of a union or intersection, a tuple
// read as the finite set of its elements.
func setOperation(k kind) func(l, r *node) *node {
	return func(l, r *node) *node { return &node{k: k, args: []*node{asFiniteSet(l), asFiniteSet(r)}} }
}

func (p *parser) unionExpr() *node {
	return p.leftFold("UNION", p.interExpr, setOperation(kUnion))
}

func (p *parser) interExpr() *node {
	return p.leftFold("INTERSECTION", p.setGroup, setOperation(kInter))
}

func (p *parser) setGroup() *node {
	p.enter()
	defer p.leave()
	if p.peek() == "L_PAREN" {
		if v, ok := p.try(func() *node {
			p.expect("L_PAREN")
			n := p.minusExpr()
			p.expect("R_PAREN")
			return n
		}); ok {
			return v
		}
	}
	return p.setAtom()
}

var closers = map[string][]string{
	"L_BRACKET":      {"R_BRACKET", "R_PAREN", "R_PAREN_VISUAL", "R_BRACK", "R_GROUP"},
	"L_PAREN":        {"R_BRACKET", "R_PAREN", "R_PAREN_VISUAL", "R_BRACK", "R_GROUP"},
	"L_PAREN_VISUAL": {"R_BRACKET", "R_PAREN", "R_PAREN_VISUAL", "R_BRACK", "R_GROUP"},
	"L_BRACK":        {"R_BRACKET", "R_PAREN", "R_PAREN_VISUAL", "R_BRACK", "R_GROUP"},
	"L_GROUP":        {"R_BRACKET", "R_PAREN", "R_PAREN_VISUAL", "R_BRACK", "R_GROUP"},
}

// mayStartSetAtom reports whether setAtom can begin with a token of type
// t: each of its alternatives reads one of these first.
func mayStartSetAtom(t string) bool {
	switch t {
	case "L_BRACKET", "L_PAREN", "L_PAREN_VISUAL", "L_BRACK", "L_GROUP", // interval, orderedTuple
		"L_BRACE", "L_BRACE_VISUAL", "BOXED_CMD": // literalSet's {}, finiteSet
		return true
	}
	_, ok := literalSets[t]
	return ok
}

func (p *parser) setAtom() *node {
	p.enter()
	defer p.leave()
	// Each alternative is tried only where its first token can begin it
	// (what it reads first), as a failed try is costly.
	if p.peekIn("L_BRACKET", "L_PAREN", "L_PAREN_VISUAL", "L_BRACK", "L_GROUP") {
		if v, ok := p.try(p.interval); ok {
			return v
		}
	}
	if _, ok := literalSets[p.peek()]; ok || p.peek() == "L_BRACE" {
		if v, ok := p.try(p.literalSet); ok {
			return v
		}
	}
	if p.peekIn("L_PAREN", "L_PAREN_VISUAL", "L_BRACKET") {
		if v, ok := p.try(p.orderedTuple); ok {
			return v
		}
	}
	return p.finiteSet()
}

func (p *parser) interval() *node {
	open, ok := p.accept("L_BRACKET", "L_PAREN", "L_PAREN_VISUAL", "L_BRACK", "L_GROUP")
	if !ok {
		p.fail("no interval")
	}
	left := p.expr()
	p.expect("COMMA")
	right := p.expr()
	closeTok, ok := p.accept(closers[open.t]...)
	if !ok {
		p.fail("interval not closed")
	}
	lopen := open.t != "L_BRACKET" && open.t != "L_BRACK"
	ropen := closeTok.t != "R_BRACKET" && closeTok.t != "R_BRACK"
	// An interval that would be empty is a tuple.
	if c, ok := compareReal(right, left); ok {
		if (lopen && ropen && c <= 0) || (!lopen && !ropen && c < 0) {
			return &node{k: kTuple, args: []*node{left, right}}
		}
	}
	return &node{k: kInterval, args: []*node{left, right}, lopen: lopen, ropen: ropen}
}

// literalSets names the sympy set each set token stands for.
var literalSets = map[string]string{
	"SET_NATURALS":  "Naturals",
	"SET_INTEGERS":  "Integers",
	"SET_RATIONALS": "Rationals",
	"SET_REALS":     "Reals",
	"SET_COMPLEX":   "Complexes",
	"SET_EMPTY":     "EmptySet",
}

func (p *parser) literalSet() *node {
	t := p.next()
	if name, ok := literalSets[t.t]; ok {
		return &node{k: kSetConst, name: name}
	}
	if t.t == "L_BRACE" {
		p.expect("R_BRACE")
		return &node{k: kSetConst, name: "EmptySet"}
	}
	p.fail("no literal set")
	return nil
}

func (p *parser) orderedTuple() *node {
	pairs := map[string]string{"L_PAREN": "R_PAREN", "L_PAREN_VISUAL": "R_PAREN_VISUAL", "L_BRACKET": "R_BRACKET"}
	open := p.next()
	closeT, ok := pairs[open.t]
	if !ok {
		p.fail("no tuple")
	}
	groups := p.semicolonElements(false, []string{closeT})
	p.expect(closeT)
	if len(groups) == 1 && len(groups[0]) == 1 {
		return groups[0][0]
	}
	var all []*node
	for _, g := range groups {
		all = append(all, g...)
	}
	return &node{k: kTuple, args: all}
}

func (p *parser) finiteSet() *node {
	open := p.next()
	var closeT string
	switch open.t {
	case "L_BRACE":
		closeT = "R_BRACE"
	case "L_BRACE_VISUAL":
		closeT = "R_BRACE_VISUAL"
	case "BOXED_CMD":
		p.expect("L_BRACE")
		closeT = "R_BRACE"
	default:
		p.fail("no set")
	}
	groups := p.semicolonElements(false, []string{closeT})
	p.expect(closeT)
	if open.t == "BOXED_CMD" {
		return elementsToSetOrTuple(groups)
	}
	var all []*node
	for _, g := range groups {
		all = append(all, g...)
	}
	return &node{k: kSet, args: all}
}

// --- relations and expressions ---

var relOps = map[string]string{"LT": "<", "LTE": "<=", "GT": ">", "GTE": ">=", "EQUAL": "=", "ASSIGNMENT": "=", "UNEQUAL": "!="}

func (p *parser) relation() *node {
	lh := p.expr()
	for {
		t := p.peek()
		if t == "APPROX" {
			p.next()
			rh := p.expr()
			if isOnlySymbols(lh) {
				lh = rh
			}
			continue
		}
		if t == "IN" {
			p.fail("\\in inside a relation")
		}
		op, ok := relOps[t]
		if !ok {
			return lh
		}
		p.next()
		rh := p.expr()
		switch {
		case lh.k == kAnd:
			last := lh.args[len(lh.args)-1]
			lh = &node{k: kAnd, args: append(append([]*node(nil), lh.args...), rel(op, last.args[1], rh))}
		case lh.k == kRel:
			lh = &node{k: kAnd, args: []*node{lh, rel(op, lh.args[1], rh)}}
		default:
			lh = rel(op, lh, rh)
		}
	}
}

// isOnlySymbols is is_expr_of_only_symbols.
func isOnlySymbols(n *node) bool {
	switch n.k {
	case kSym:
		return true
	case kNum, kFloat, kConst, kSetConst:
		return false
	case kPow:
		if n.args[1].k == kNum && n.args[1].rat.Cmp(big.NewRat(-1, 1)) == 0 {
			b := n.args[0]
			if b.k == kSym {
				return true
			}
			if len(b.args) > 0 {
				all := true
				for _, a := range b.args {
					all = all && isOnlySymbols(a)
				}
				if all {
					return true
				}
			}
		}
	}
	if len(n.args) == 0 {
		return false
	}
	for _, a := range n.args {
		if !isOnlySymbols(a) {
			return false
		}
	}
	return true
}

func (p *parser) expr() *node {
	p.enter()
	defer p.leave()
	left := p.mp(false)
	for {
		switch p.peek() {
		case "ADD":
			p.next()
			left = add(left, p.mp(false))
		case "SUB":
			p.next()
			rh := p.mp(false)
			if rh.isNumber() {
				rh = neg(rh)
			} else {
				rh = mul(intNode(-1), rh)
			}
			left = add(left, rh)
		default:
			return left
		}
	}
}

func (p *parser) mp(nofunc bool) *node {
	left := p.unary(nofunc)
	for {
		switch p.peek() {
		case "MUL", "CMD_TIMES", "CMD_CDOT":
			p.next()
			left = mulNodes(left, p.unary(nofunc))
		case "DIV", "CMD_DIV", "COLON":
			p.next()
			rh := p.unary(nofunc)
			left = divide(left, rh)
		case "CMD_MOD":
			p.next()
			left = fn("Mod", left, p.unary(nofunc))
		default:
			return left
		}
	}
}

func mulNodes(a, b *node) *node {
	if a.k == kMatrix || b.k == kMatrix {
		return &node{k: kFn, name: "MatMul", args: []*node{a, b}}
	}
	return mul(a, b)
}

func divide(a, b *node) *node {
	if a.isInteger() && b.isInteger() {
		if b.rat.Sign() == 0 {
			return cnst("zoo")
		}
		return num(new(big.Rat).Quo(a.rat, b.rat))
	}
	return mul(a, inv(b))
}

func canStartComp(t string) bool {
	switch t {
	case "L_PAREN", "L_GROUP", "L_BRACE", "L_BRACKET", "L_BRACE_VISUAL", "L_BRACE_CMD", "L_BRACK",
		"PHANTOM_CMD", "BOXED_CMD", "NORM", "BAR", "L_VERT", "VERT", "L_ANGLE", "L_FLOOR", "LL_CORNER",
		"L_CEIL", "UL_CORNER", "FN1", "FN2", "FUNC_GAMMA", "CMD_OPERATORNAME", "FUNC_INT", "FUNC_SQRT",
		"FUNC_SUM", "FUNC_PROD", "FUNC_LIM", "EXP_E", "LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT",
		"SYMBOL", "NUMBER", "PERCENT_NUMBER", "E_NOTATION", "E_NOTATION_E", "DIFFERENTIAL", "CMD_FRAC",
		"CMD_BINOM", "MATRIX_START", "DET_START":
		return true
	}
	return false
}

func (p *parser) unary(nofunc bool) *node {
	p.enter()
	defer p.leave()
	switch p.peek() {
	case "ADD":
		p.next()
		return p.unary(nofunc)
	case "SUB":
		p.next()
		v := p.unary(nofunc)
		if v.isNumber() {
			return neg(v)
		}
		if v.k == kMatrix {
			return &node{k: kFn, name: "MatMul", args: []*node{intNode(-1), v}}
		}
		return mul(intNode(-1), v)
	}
	items := []*node{p.postfix(false)}
	for canStartComp(p.peek()) {
		// A bar closes an absolute value more often than it opens one.
		if p.peek() == "BAR" {
			if v, ok := p.try(func() *node { return p.postfix(nofunc) }); ok {
				items = append(items, v)
				continue
			}
			break
		}
		items = append(items, p.postfix(nofunc))
	}
	return postfixProduct(items, 0)
}

// postfixProduct is convert_postfix_list: adjacent factors multiply, and an
// integer before a positive rational makes a mixed number (2 \frac12 = 5/2,
// and so 2 3 = 5).
func postfixProduct(items []*node, i int) *node {
	res := items[i]
	if i == len(items)-1 {
		return res
	}
	rh := postfixProduct(items, i+1)
	if res.k == kMatrix || rh.k == kMatrix {
		return &node{k: kFn, name: "MatMul", args: []*node{res, rh}}
	}
	if res.isInteger() && rh.k == kNum && rh.rat.Sign() > 0 {
		q := new(big.Rat).SetInt(rh.rat.Denom())
		pp := new(big.Rat).SetInt(rh.rat.Num())
		v := new(big.Rat).Mul(res.rat, q)
		if res.rat.Sign() < 0 {
			v.Sub(v, pp)
		} else {
			v.Add(v, pp)
		}
		return num(v.Quo(v, q))
	}
	return mul(res, rh)
}

func (p *parser) postfix(nofunc bool) *node {
	e := p.exp(nofunc)
	for {
		switch p.peek() {
		case "BANG":
			p.next()
			e = fn("factorial", e)
		case "TRANSPOSE":
			p.next()
			if e.k == kMatrix {
				e = transpose(e)
			}
		case "DEGREE":
			p.next()
		case "BAR":
			if v, ok := p.try(func() *node { return p.evalAt(e) }); ok {
				e = v
				continue
			}
			return e
		default:
			return e
		}
	}
}

func (p *parser) evalAt(e *node) *node {
	p.expect("BAR")
	p.fail("evaluation bars are not compared")
	return e
}

func (p *parser) exp(nofunc bool) *node {
	base := p.comp(nofunc)
	for p.peek() == "CARET" {
		p.next()
		ex := p.script()
		if p.peek() == "UNDERSCORE" {
			p.subexprText()
		}
		base = pow(base, ex)
	}
	return base
}

// script is what follows ^ or _: a braced expression or a single atom.
func (p *parser) script() *node {
	if p.peek() == "L_BRACE" {
		p.next()
		e := p.expr()
		p.expect("R_BRACE")
		return e
	}
	return p.atom()
}

// braced is {expr}.
func (p *parser) braced() *node {
	p.expect("L_BRACE")
	e := p.expr()
	p.expect("R_BRACE")
	return e
}

// enclosed reads an opening delimiter, an expression and the delimiter
// closing names as the opening one's closer.
func (p *parser) enclosed(closing map[string]string) *node {
	t := p.next()
	e := p.expr()
	p.expect(closing[t.t])
	return e
}

func (p *parser) comp(nofunc bool) *node {
	p.enter()
	defer p.leave()
	switch p.peek() {
	case "L_PAREN", "L_GROUP", "L_BRACKET", "L_BRACE_VISUAL", "L_BRACE_CMD", "L_BRACK":
		pairs := map[string]string{"L_PAREN": "R_PAREN", "L_GROUP": "R_GROUP", "L_BRACKET": "R_BRACKET",
			"L_BRACE_VISUAL": "R_BRACE_VISUAL", "L_BRACE_CMD": "R_BRACE_CMD", "L_BRACK": "R_BRACK"}
		return p.enclosed(pairs)
	case "L_BRACE":
		if v, ok := p.try(func() *node { p.next(); e := p.expr(); p.expect("R_BRACE"); return e }); ok {
			return v
		}
		p.next()
		top := p.expr()
		p.expect("CMD_CHOOSE")
		bot := p.expr()
		p.expect("R_BRACE")
		return fn("binomial", top, bot)
	case "PHANTOM_CMD", "BOXED_CMD":
		p.next()
		return p.braced()
	case "NORM":
		p.fail("norms are not compared")
	case "BAR", "L_VERT", "VERT":
		return fn("Abs", p.enclosed(map[string]string{"BAR": "BAR", "L_VERT": "R_VERT", "VERT": "VERT"}))
	case "L_ANGLE":
		p.fail("dot products are not compared")
	case "L_FLOOR", "LL_CORNER":
		return fn("floor", p.enclosed(map[string]string{"L_FLOOR": "R_FLOOR", "LL_CORNER": "LR_CORNER"}))
	case "L_CEIL", "UL_CORNER":
		return fn("ceiling", p.enclosed(map[string]string{"L_CEIL": "R_CEIL", "UL_CORNER": "UR_CORNER"}))
	case "CMD_FRAC":
		p.next()
		top := p.braced()
		bot := p.braced()
		if top.isInteger() && bot.isInteger() {
			return divide(top, bot)
		}
		if top.k == kMatrix || bot.k == kMatrix {
			return &node{k: kFn, name: "MatMul", args: []*node{top, inv(bot)}}
		}
		return mul(top, inv(bot))
	case "CMD_BINOM":
		p.next()
		top := p.braced()
		bot := p.braced()
		return fn("binomial", top, bot)
	case "MATRIX_START":
		return p.matrix("MATRIX_END")
	case "DET_START":
		m := p.matrix("DET_END")
		return fn("det", m)
	}
	if !nofunc && (!skipDoomedTries || mayStartFunction(p.peek())) {
		if v, ok := p.try(p.function); ok {
			return v
		}
	}
	return p.atom()
}

func (p *parser) matrix(end string) *node {
	p.next()
	var rows [][]*node
	row := []*node{p.expr()}
	for {
		switch p.peek() {
		case "MATRIX_DEL_COL":
			p.next()
			row = append(row, p.expr())
			continue
		case "MATRIX_DEL_ROW":
			p.next()
			rows = append(rows, row)
			if p.peek() == end {
				row = nil
				continue
			}
			row = []*node{p.expr()}
			continue
		}
		break
	}
	if row != nil {
		rows = append(rows, row)
	}
	p.expect(end)
	if p.peek() == "MATRIX_XRIGHTARROW" {
		p.fail("matrix transforms are not compared")
	}
	cols := len(rows[0])
	var args []*node
	for _, r := range rows {
		if len(r) != cols {
			p.fail("ragged matrix")
		}
		args = append(args, r...)
	}
	return &node{k: kMatrix, rows: len(rows), cols: cols, args: args}
}

func transpose(m *node) *node {
	args := make([]*node, 0, len(m.args))
	for c := 0; c < m.cols; c++ {
		for r := 0; r < m.rows; r++ {
			args = append(args, m.args[r*m.cols+c])
		}
	}
	return &node{k: kMatrix, rows: m.cols, cols: m.rows, args: args}
}

func (p *parser) subSup() (sub, sup *node) {
	for i := 0; i < 2; i++ {
		switch p.peek() {
		case "UNDERSCORE":
			if sub != nil {
				return
			}
			p.next()
			sub = p.script()
		case "CARET":
			if sup != nil {
				return
			}
			p.next()
			sup = p.script()
		}
	}
	return
}

var arcNames = map[string]string{"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arccsc": "acsc",
	"arcsec": "asec", "arccot": "acot", "arsinh": "asinh", "arcosh": "acosh", "artanh": "atanh",
	"arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh"}

// mayStartFunction reports whether function can begin with a token of
// type t: the cases of its switch (any other fails).
func mayStartFunction(t string) bool {
	switch t {
	case "FN1", "FUNC_GAMMA", "CMD_OPERATORNAME", "FN2", "LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT",
		"FUNC_INT", "FUNC_SQRT", "FUNC_SUM", "FUNC_PROD", "FUNC_LIM", "EXP_E":
		return true
	}
	return false
}

func (p *parser) function() *node {
	switch p.peek() {
	case "FN1", "FUNC_GAMMA", "CMD_OPERATORNAME":
		var name string
		if p.peek() == "CMD_OPERATORNAME" {
			p.next()
			p.expect("L_BRACE")
			t, ok := p.accept("OPNAME1", "OPNAME2")
			if !ok {
				p.fail("unknown operator name")
			}
			p.expect("R_BRACE")
			name = t.s
			if t.t == "OPNAME2" {
				return p.multiArgFunc(name)
			}
		} else {
			name = strings.TrimPrefix(p.next().s, `\`)
		}
		sub, sup := p.subSup()
		var arg *node
		if v, ok := p.tryIf(p.peek() == "L_PAREN", func() *node { p.expect("L_PAREN"); e := p.expr(); p.expect("R_PAREN"); return e }); ok {
			arg = v
		} else {
			arg = p.mp(true)
		}
		return singleArgFunc(name, arg, sub, sup)
	case "FN2":
		name := strings.TrimPrefix(p.next().s, `\`)
		return p.multiArgFunc(name)
	case "LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT":
		start := p.pos
		head := p.next()
		name := head.s
		if p.peek() == "UNDERSCORE" {
			s := p.pos
			p.subexprText()
			name += joinTokens(p.toks[s:p.pos])
		}
		_ = start
		var sup *node
		if p.peek() == "CARET" {
			_, sup = p.subSup()
		}
		var args []*node
		switch p.peek() {
		case "L_PAREN":
			p.next()
			args = p.commonArgs("R_PAREN")
			p.expect("R_PAREN")
		case "L_BRACKET":
			p.next()
			args = p.commonArgs("R_BRACKET")
			p.expect("R_BRACKET")
		default:
			p.fail("no call")
		}
		f := &node{k: kFn, name: name, args: args, undef: true}
		if sup != nil {
			return pow(f, sup)
		}
		return f
	case "FUNC_INT":
		p.fail("integrals are not compared")
	case "FUNC_SQRT":
		p.next()
		var root *node
		if p.peek() == "L_BRACKET" {
			p.next()
			root = p.expr()
			p.expect("R_BRACKET")
		}
		base := p.braced()
		if root != nil {
			return pow(base, inv(root))
		}
		return pow(base, num(big.NewRat(1, 2)))
	case "FUNC_SUM", "FUNC_PROD":
		t := p.next()
		var v, lo, hi *node
		for i := 0; i < 2; i++ {
			if p.peek() == "UNDERSCORE" && v == nil {
				p.next()
				p.expect("L_BRACE")
				v = p.expr()
				if _, ok := p.accept("EQUAL", "ASSIGNMENT"); !ok {
					p.fail("sum without start")
				}
				lo = p.expr()
				p.expect("R_BRACE")
			} else if p.peek() == "CARET" && hi == nil {
				p.next()
				hi = p.script()
			}
		}
		if v == nil || hi == nil {
			p.fail("sum without bounds")
		}
		body := p.mp(false)
		k := kSum
		if t.t == "FUNC_PROD" {
			k = kProd
		}
		return &node{k: k, args: []*node{body, v, lo, hi}}
	case "FUNC_LIM":
		p.fail("limits are not compared")
	case "EXP_E":
		p.next()
		if p.peek() == "CARET" {
			_, sup := p.subSup()
			return fn("exp", sup)
		}
		return cnst("E")
	}
	p.fail("no function")
	return nil
}

// commonArgs is func_common_args: an atom, or expressions with a comma.
func (p *parser) commonArgs(closeT string) []*node {
	if v, ok := p.try(func() *node {
		a := p.atom()
		if p.peek() != closeT {
			p.fail("more than an atom")
		}
		return a
	}); ok {
		return []*node{v}
	}
	args := []*node{p.expr()}
	p.expect("COMMA")
	for p.peek() != closeT {
		args = append(args, p.expr())
		if _, ok := p.accept("COMMA"); !ok {
			break
		}
	}
	return args
}

func (p *parser) multiArgFunc(name string) *node {
	p.subSup()
	var args []*node
	if p.peek() == "L_PAREN" {
		p.next()
		args = append(args, p.expr())
		for p.peek() == "COMMA" {
			p.next()
			args = append(args, p.expr())
		}
		p.expect("R_PAREN")
	} else {
		args = append(args, p.mp(true))
	}
	switch name {
	case "max":
		return fn("Max", args...)
	case "min":
		return fn("Min", args...)
	case "gcd", "lcm":
		return fn(name, args...)
	}
	p.fail("matrix operator %s is not compared", name)
	return nil
}

func singleArgFunc(name string, arg, sub, sup *node) *node {
	var e *node
	isMinusOne := sup != nil && sup.k == kNum && sup.rat.Cmp(big.NewRat(-1, 1)) == 0
	switch name {
	case "log", "ln":
		base := cnst("E")
		if sub != nil {
			base = sub
		} else if name == "log" {
			base = intNode(10)
		}
		e = fn("log", arg, base)
	case "exp", "exponentialE":
		e = fn("exp", arg)
	case "floor":
		e = fn("floor", arg)
	case "ceil":
		e = fn("ceiling", arg)
	case "det":
		e = fn("det", arg)
	case "Gamma", "gamma":
		e = fn("gamma", arg)
	case "sin", "cos", "tan", "csc", "sec", "cot", "sinh", "cosh", "tanh":
		if isMinusOne {
			name, sup = "a"+name, nil
		}
		e = fn(name, arg)
	default:
		if a, ok := arcNames[name]; ok {
			e = fn(a, arg)
		} else {
			e = &node{k: kFn, name: name, args: []*node{arg}, undef: true}
		}
	}
	if sup != nil {
		return pow(e, sup)
	}
	return e
}

// subexprText consumes a subscript and returns nothing: the caller reads
// the consumed tokens' text.
func (p *parser) subexprText() {
	p.expect("UNDERSCORE")
	if p.peek() == "L_BRACE" {
		p.next()
		depth := 1
		for depth > 0 {
			t := p.next()
			switch t.t {
			case "L_BRACE":
				depth++
			case "R_BRACE":
				depth--
			}
		}
		return
	}
	p.atom()
}

func joinTokens(ts []token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.s)
	}
	return b.String()
}

func (p *parser) atom() *node {
	switch p.peek() {
	case "LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT":
		return p.atomExpr(false)
	case "SYMBOL":
		s := stripDollarPct.Replace(p.next().s)
		if s == `\infty` {
			return cnst("oo")
		}
		p.fail("unrecognized symbol %s", s)
	case "NUMBER":
		n := parseNumberToken(p.next().s)
		if p.peek() == "UNDERSCORE" {
			p.subexprText()
		}
		return n
	case "PERCENT_NUMBER":
		s := stripPercent.Replace(p.next().s)
		return pct(parseNumberToken(strings.TrimSpace(s)))
	case "E_NOTATION":
		return parseNumberToken(p.next().s)
	case "E_NOTATION_E":
		p.next()
		return sym("e")
	case "DIFFERENTIAL":
		t := p.next().s
		v := strings.TrimLeft(t[1:], " \t\r\n")
		v = strings.TrimPrefix(v, `\`)
		return sym("d" + v)
	}
	p.fail("no atom at %s", p.peek())
	return nil
}

func parseNumberToken(s string) *node {
	s = strings.ReplaceAll(s, ",", "")
	if strings.Contains(s, "E") {
		parts := strings.SplitN(s, "E", 2)
		m, err1 := numberFromString(parts[0])
		var f float64
		if _, err := fmt.Sscanf(s, "%g", &f); err == nil && err1 == nil {
			_ = m
			return &node{k: kFloat, f: f}
		}
	}
	allDigits := s != "" && strings.Trim(s, "0123456789") == ""
	if allDigits {
		s = strings.TrimLeft(s, "0")
		if s == "" {
			s = "0"
		}
	}
	n, err := numberFromString(s)
	if err != nil {
		return intNode(0)
	}
	return n
}

// greekNames is the name of each Greek letter, by its command and its
// character: built on first use, not at init (only the graders parse).
var greekNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for i := 0; i < len(greekLetters); i += 2 {
		name := strings.TrimPrefix(greekLetters[i], `\`)
		m[greekLetters[i]] = name
		m[greekLetters[i+1]] = name
	}
	m["ϵ"], m["ϑ"], m["ϖ"], m["ϱ"], m["ς"], m["ϕ"] = "varepsilon", "vartheta", "varpi", "varrho", "varsigma", "varphi"
	return m
})

// symbolFor is get_symbol with lowercase_symbols: pi and gamma are the
// constants.
func symbolFor(text string) *node {
	text = strings.TrimSpace(text)
	letter, ok := greekNames()[strings.ReplaceAll(text, `"`, "")]
	if !ok {
		letter = text
	}
	letter = strings.TrimPrefix(letter, `\`)
	switch letter {
	case "pi":
		return cnst("pi")
	case "gamma":
		return cnst("EulerGamma")
	}
	letter = strings.ToLower(letter)
	switch letter {
	case "pi":
		return cnst("pi")
	case "gamma":
		return cnst("EulerGamma")
	}
	return sym(letter)
}

// atomExpr is atom_expr: a letter, Greek letter, other symbol or accent
// with optional subscript (part of the name) and superscript (a power).
func (p *parser) atomExpr(bare bool) *node {
	t, ok := p.accept("LETTER", "GREEK_CMD", "OTHER_SYMBOL_CMD", "ACCENT")
	if !ok {
		p.fail("no symbol")
	}
	text := t.s
	if t.t == "LETTER" && text == "I" && p.peek() != "UNDERSCORE" {
		text = ""
	}
	if t.t == "ACCENT" {
		text = accentText(t.s)
	}
	var subText string
	var sup *node
	for i := 0; i < 2; i++ {
		if p.peek() == "UNDERSCORE" && subText == "" {
			s := p.pos
			p.subexprText()
			inner := joinTokens(p.toks[s+1 : p.pos])
			if strings.HasPrefix(inner, "{") && strings.HasSuffix(inner, "}") {
				inner = inner[1 : len(inner)-1]
			}
			inner = strings.TrimSpace(inner)
			if len([]rune(inner)) > 1 {
				subText = "_{" + inner + "}"
			} else {
				subText = "_" + inner
			}
		} else if p.peek() == "CARET" && sup == nil && !bare {
			p.next()
			sup = p.script()
		}
	}
	var v *node
	if text == "" && t.s == "I" {
		v = cnst("I")
	} else {
		v = symbolFor(strings.TrimSpace(text) + subText)
	}
	if sup != nil {
		return pow(v, sup)
	}
	return v
}

func accentText(s string) string {
	i := strings.Index(s, "{")
	name := s[1:i]
	text := strings.ReplaceAll(s[i+1:len(s)-1], " ", "")
	switch {
	case name == "bar" || name == "overline":
		name = "bar"
	case name == "vec" || name == "overrightarrow":
		name = "vec"
	case name == "tilde" || name == "widetilde":
		name = "tilde"
	case strings.Contains(name, "text") || strings.Contains(name, "mbox"):
		name = ""
		text = stripParens.Replace(text)
	case strings.Contains(name, "math"):
		name = "math"
	}
	if name != "" {
		return name + "{" + text + "}"
	}
	return text
}
