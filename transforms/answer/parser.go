package answer

import (
	"fmt"
	"math/big"
	"strings"
)

// maxDepth bounds nesting, so adversarial input cannot exhaust the stack.
const maxDepth = 200

type parser struct {
	toks    []token
	pos     int
	depth   int
	absOpen int // inside |...|: a bar closes rather than opens
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{kind: tEOF}
}

func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return token{kind: tEOF}
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *parser) is(k tokKind, text string) bool {
	t := p.peek()
	return t.kind == k && (text == "" || t.text == text)
}

func (p *parser) expect(k tokKind, text string) error {
	if !p.is(k, text) {
		return p.errorf("expected %q", text)
	}
	p.next()
	return nil
}

func (p *parser) errorf(format string, args ...any) error {
	t := p.peek()
	where := "at the end"
	if t.kind != tEOF {
		where = fmt.Sprintf("at %q", t.text)
	}
	return fmt.Errorf("%w: %s %s", ErrSyntax, fmt.Sprintf(format, args...), where)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return fmt.Errorf("%w: nested deeper than %d", ErrSyntax, maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// parse reads a whole answer.
func parse(s string) (node, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	// Words (units, prose) carry no value once conjunctions were turned
	// into commas.
	kept := toks[:0]
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tWord {
			kept = append(kept, toks[i])
			continue
		}
		if pct, ok := percentToken(toks, i, len(kept) > 0 && endsValue(kept[len(kept)-1])); ok {
			if pct == percentBefore {
				// asilimia 50: the number, then the sign.
				kept = append(kept, toks[i+1])
				i++
			}
			kept = append(kept, token{kind: tOp, text: "%"})
			continue
		}
		// A unit's exponent goes with it: 5 cm^2 is 5.
		if i+2 < len(toks) && toks[i+1].kind == tOp && toks[i+1].text == "^" {
			i += 2
			if toks[i].kind == tOpen && toks[i].text == "{" {
				for depth := 1; depth > 0 && i+1 < len(toks); {
					i++
					if toks[i].kind == tOpen && toks[i].text == "{" {
						depth++
					} else if toks[i].kind == tClose && toks[i].text == "}" {
						depth--
					}
				}
			}
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%w: no math in the answer", ErrSyntax)
	}
	p := &parser{toks: kept}
	n, err := p.parseAnswer()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tEOF {
		return nil, p.errorf("unexpected")
	}
	return n, nil
}

// percentToken reports whether the word toks[i] is a percent sign: one
// said after a number that ends what came before (afterValue), or
// "asilimia" before a number.
func percentToken(toks []token, i int, afterValue bool) (int, bool) {
	switch percentWords[strings.ToLower(toks[i].text)] {
	case percentAfter:
		return percentAfter, afterValue
	case percentBefore:
		return percentBefore, i+1 < len(toks) && toks[i+1].kind == tNum
	}
	return 0, false
}

// endsValue reports whether a token can end a number a percent sign follows.
func endsValue(t token) bool { return t.kind == tNum || t.kind == tClose }

// separated reads item (sep item)*: a single item is itself, several are
// joined by many. after sees each separator once it is read: it may end
// the list there (stop) or pass over the separator with no item after it
// (skip).
func (p *parser) separated(sep tokKind, item func() (node, error), after func(sep token) (skip, stop bool), many func(items []node) node) (node, error) {
	first, err := item()
	if err != nil {
		return nil, err
	}
	items := []node{first}
	for p.is(sep, "") {
		t := p.next()
		if after != nil {
			skip, stop := after(t)
			if stop {
				break
			}
			if skip {
				continue
			}
		}
		n, err := item()
		if err != nil {
			return nil, err
		}
		items = append(items, n)
	}
	if len(items) == 1 {
		return first, nil
	}
	return many(items), nil
}

func (p *parser) parseAnswer() (node, error) {
	return p.separated(tSemi, p.parseList, func(token) (skip, stop bool) {
		return false, p.peek().kind == tEOF
	}, func(parts []node) node {
		return &listNode{kind: listParts, items: parts}
	})
}

// parseList reads comma-separated solutions at the top level. "k = 1, 2, 3"
// is the assignment of a list.
func (p *parser) parseList() (node, error) {
	conj := ""
	return p.separated(tComma, p.parseRelation, func(sep token) (skip, stop bool) {
		if sep.text != "," {
			conj = sep.text
		}
		k := p.peek().kind
		return k == tEOF || k == tSemi || k == tComma, false
	}, func(items []node) node {
		// x = 1, 2, 3: the first item assigns, the rest are plain values.
		if rel, ok := items[0].(*relNode); ok && len(rel.ops) == 1 && rel.ops[0] == "=" {
			plain := true
			for _, it := range items[1:] {
				if _, isRel := it.(*relNode); isRel {
					plain = false
				}
			}
			if plain {
				values := append([]node{rel.items[1]}, items[1:]...)
				return &relNode{items: []node{rel.items[0], &listNode{kind: listSolutions, items: values}}, ops: []string{"="}}
			}
		}
		return &listNode{kind: listSolutions, items: items, conj: conj}
	})
}

func (p *parser) parseRelation() (node, error) {
	var ops []string
	return p.separated(tRel, p.parseUnion, func(sep token) (skip, stop bool) {
		ops = append(ops, sep.text)
		return false, false
	}, func(items []node) node {
		return &relNode{items: items, ops: ops}
	})
}

func (p *parser) parseUnion() (node, error) {
	return p.separated(tUnion, p.parseExpr, nil, func(parts []node) node {
		return &unionNode{parts: parts}
	})
}

// nested runs read one level deeper, failing past maxDepth.
func (p *parser) nested(read func() (node, error)) (node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return read()
}

func (p *parser) parseExpr() (node, error) {
	return p.nested(p.parseTerms)
}

// parseTerms reads terms joined by + and -, and a ± b after them.
func (p *parser) parseTerms() (node, error) {
	first, err := p.parseTerm()
	if err != nil {
		return nil, err
	}
	terms := []node{first}
	for {
		t := p.peek()
		if t.kind != tOp || (t.text != "+" && t.text != "-" && t.text != "±" && t.text != "∓") {
			break
		}
		p.next()
		right, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		switch t.text {
		case "+":
			terms = append(terms, right)
		case "-":
			terms = append(terms, &negNode{right})
		default:
			a := sumOf(terms)
			return p.continuePM(a, right, t.text == "∓")
		}
	}
	return sumOf(terms), nil
}

// continuePM finishes a ± b (+ more terms apply to both solutions).
func (p *parser) continuePM(a, b node, minus bool) (node, error) {
	var extra []node
	for p.is(tOp, "+") || p.is(tOp, "-") {
		op := p.next().text
		t, err := p.parseTerm()
		if err != nil {
			return nil, err
		}
		if op == "-" {
			t = &negNode{t}
		}
		extra = append(extra, t)
	}
	if len(extra) > 0 {
		a = sumOf(append([]node{a}, extra...))
	}
	return &pmNode{a: a, b: b, minus: minus}, nil
}

func sumOf(terms []node) node {
	if len(terms) == 1 {
		return terms[0]
	}
	return &addNode{terms: terms}
}

// startsFactor reports whether t can begin a factor of an implicit product.
func (p *parser) startsFactor(t token) bool {
	switch t.kind {
	case tNum, tIdent, tConst, tFunc:
		return true
	case tCmd:
		return !strings.HasPrefix(t.text, "end ")
	case tOpen:
		return !(t.text == "|" && p.absOpen > 0)
	}
	return false
}

func (p *parser) parseTerm() (node, error) {
	return p.parseProduct(false)
}

// parseProduct reads factors joined by *, / or juxtaposition. As the
// argument of a function written without parentheses (\sin 2x), it stops
// before the next function (\sin x \cos x is sin(x) cos(x)).
func (p *parser) parseProduct(funcArg bool) (node, error) {
	return p.nested(func() (node, error) { return p.parseFactors(funcArg) })
}

func (p *parser) parseFactors(funcArg bool) (node, error) {
	acc, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tOp && (t.text == "*" || t.text == "/"):
			if funcArg {
				return acc, nil
			}
			p.next()
			right, err := p.parseUnary()
			if err != nil {
				return nil, err
			}
			if t.text == "*" {
				acc = mulOf(acc, right)
			} else {
				acc = &divNode{num: acc, den: right}
			}
		case p.startsFactor(t):
			if funcArg && t.kind == tFunc {
				return acc, nil
			}
			if _, isNum := acc.(*numNode); isNum && t.kind == tNum {
				return nil, p.errorf("two numbers side by side")
			}
			right, err := p.parsePower()
			if err != nil {
				return nil, err
			}
			if mixed, ok := mixedNumber(acc, right); ok {
				acc = mixed
			} else {
				acc = mulOf(acc, right)
			}
		default:
			return acc, nil
		}
	}
}

func mulOf(a, b node) node {
	if m, ok := a.(*mulNode); ok {
		return &mulNode{factors: append(append([]node(nil), m.factors...), b)}
	}
	return &mulNode{factors: []node{a, b}}
}

// mixedNumber reads 2\frac{1}{2} as two and a half.
func mixedNumber(whole, frac node) (node, bool) {
	w, ok := whole.(*numNode)
	if !ok || !w.r.IsInt() || w.decimals > 0 || w.r.Sign() < 0 {
		return nil, false
	}
	d, ok := frac.(*divNode)
	if !ok {
		return nil, false
	}
	n1, ok1 := d.num.(*numNode)
	n2, ok2 := d.den.(*numNode)
	if !ok1 || !ok2 || !n1.r.IsInt() || !n2.r.IsInt() || n2.r.Sign() == 0 || n1.r.Cmp(n2.r) >= 0 {
		return nil, false
	}
	r := new(big.Rat).Quo(n1.r, n2.r)
	return &numNode{r: r.Add(r, w.r)}, true
}

func (p *parser) parseUnary() (node, error) {
	if p.is(tOp, "-") {
		return p.prefixed(p.parseUnary, negate)
	}
	if p.is(tOp, "+") {
		p.next()
		return p.parseUnary()
	}
	if p.is(tOp, "±") {
		return p.prefixed(p.parseUnary, func(x node) node { return &pmNode{a: &numNode{r: new(big.Rat)}, b: x} })
	}
	return p.parsePower()
}

// prefixed passes over a prefix operator, reads its operand with read and
// applies the operator with apply.
func (p *parser) prefixed(read func() (node, error), apply func(node) node) (node, error) {
	p.next()
	x, err := read()
	if err != nil {
		return nil, err
	}
	return apply(x), nil
}

func negate(x node) node { return &negNode{x} }

func (p *parser) parsePower() (node, error) {
	base, err := p.parsePostfix()
	if err != nil {
		return nil, err
	}
	if !p.is(tOp, "^") {
		return base, nil
	}
	p.next()
	exp, err := p.parseScript()
	if err != nil {
		return nil, err
	}
	// Exponents of a percentage or factorial bind to the value, not the
	// postfix; a^b^c is a^(b^c).
	if p.is(tOp, "^") {
		p.next()
		e2, err := p.parseScript()
		if err != nil {
			return nil, err
		}
		exp = &powNode{base: exp, exp: e2}
	}
	return &powNode{base: base, exp: exp}, nil
}

// parseScript reads a superscript or subscript: a braced group, or one
// primary (with a sign).
func (p *parser) parseScript() (node, error) {
	if p.is(tOpen, "{") {
		return p.parseGroup()
	}
	if p.is(tOp, "-") {
		return p.prefixed(p.parsePostfix, negate)
	}
	if t := p.peek(); t.kind == tNum && len(t.text) > 1 && !strings.Contains(t.text, ".") {
		// x^23 in LaTeX is x^2 followed by 3; x^{23} is meant more often.
		p.next()
		return numLiteral(t.text)
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() (node, error) {
	x, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.is(tOp, "!"):
			p.next()
			x = &factNode{x}
		case p.is(tOp, "%"):
			p.next()
			x = &percentNode{x}
		case p.is(tOp, "°"):
			p.next()
			x = &degNode{x}
		case p.is(tOp, "'"):
			return nil, p.errorf("a derivative")
		default:
			return x, nil
		}
	}
}

// parseGroup reads {...} as one expression.
func (p *parser) parseGroup() (node, error) {
	if err := p.expect(tOpen, "{"); err != nil {
		return nil, err
	}
	n, err := p.parseInner("}")
	if err != nil {
		return nil, err
	}
	return n, p.expect(tClose, "}")
}

// parseInner reads the inside of brackets: an expression, a relation, or a
// comma list (returned as *listNode with kind listSolutions).
func (p *parser) parseInner(closer string) (node, error) {
	if p.is(tClose, closer) {
		return nil, p.errorf("empty brackets")
	}
	saved := p.absOpen
	p.absOpen = 0
	defer func() { p.absOpen = saved }()
	first, err := p.parseRelation()
	if err != nil {
		return nil, err
	}
	if !p.is(tComma, "") && !p.is(tSemi, "") {
		return first, nil
	}
	items := []node{first}
	conj := ""
	// Inside brackets a semicolon separates too: [-1; 5] is [-1, 5].
	for p.is(tComma, "") || p.is(tSemi, "") {
		if c := p.next().text; c == "and" || c == "or" {
			conj = c
		}
		n, err := p.parseRelation()
		if err != nil {
			return nil, err
		}
		items = append(items, n)
	}
	return &listNode{kind: listSolutions, items: items, conj: conj}, nil
}

func numLiteral(text string) (node, error) {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, fmt.Errorf("%w: number %q", ErrSyntax, text)
	}
	dec := 0
	if i := strings.IndexByte(text, '.'); i >= 0 {
		dec = len(text) - i - 1
	}
	return &numNode{r: r, decimals: dec}, nil
}

func (p *parser) parsePrimary() (node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	switch t.kind {
	case tNum:
		p.next()
		return numLiteral(t.text)
	case tConst:
		p.next()
		return &constNode{t.text}, nil
	case tIdent:
		p.next()
		name := strings.TrimPrefix(t.text, `\`)
		if p.is(tOp, "_") {
			p.next()
			sub, err := p.scriptText()
			if err != nil {
				return nil, err
			}
			name += "_" + sub
		}
		return &varNode{name}, nil
	case tFunc:
		p.next()
		return p.parseFunc(t.text)
	case tCmd:
		p.next()
		return p.parseCommand(t.text)
	case tOpen:
		p.next()
		return p.parseBracket(t.text)
	case tOp:
		if t.text == "-" {
			p.next()
			x, err := p.parsePrimary()
			if err != nil {
				return nil, err
			}
			return &negNode{x}, nil
		}
	}
	return nil, p.errorf("expected a value")
}

// scriptText reads a subscript as text, for variable names (a_1, x_{n+1}).
func (p *parser) scriptText() (string, error) {
	if !p.is(tOpen, "{") {
		t := p.next()
		if t.kind == tEOF {
			return "", p.errorf("empty subscript")
		}
		if t.kind == tNum && len(t.text) > 1 {
			// a_12 means a_1 followed by 2 in LaTeX, but a_{12} is meant.
			return t.text, nil
		}
		return strings.TrimPrefix(t.text, `\`), nil
	}
	p.next()
	var b strings.Builder
	depth := 1
	for {
		t := p.next()
		switch {
		case t.kind == tEOF:
			return "", p.errorf("unclosed subscript")
		case t.kind == tOpen && t.text == "{":
			depth++
		case t.kind == tClose && t.text == "}":
			depth--
			if depth == 0 {
				return b.String(), nil
			}
		}
		b.WriteString(strings.TrimPrefix(t.text, `\`))
	}
}

func (p *parser) parseFunc(name string) (node, error) {
	f := &funcNode{name: name}
	if name == "log" && p.is(tOp, "_") {
		p.next()
		base, err := p.parseScript()
		if err != nil {
			return nil, err
		}
		f.base = base
	}
	if p.is(tOp, "^") {
		p.next()
		pw, err := p.parseScript()
		if err != nil {
			return nil, err
		}
		if isMinusOne(pw) && inverse[name] != "" {
			f.name = inverse[name] // \sin^{-1} is arcsin
		} else {
			f.power = pw
		}
	}
	var arg node
	var err error
	switch {
	case p.is(tOpen, "(") || p.is(tOpen, "["):
		open := p.next().text
		arg, err = p.parseBracket(open)
	case p.is(tOpen, "{"):
		arg, err = p.parseGroup()
	case name == "sqrt" && p.startsFactor(p.peek()):
		arg, err = p.parsePower()
	case p.startsFactor(p.peek()) || p.is(tOp, "-"):
		if p.is(tOp, "-") {
			p.next()
			var x node
			x, err = p.parseProduct(true)
			arg = &negNode{x}
		} else {
			arg, err = p.parseProduct(true)
		}
	default:
		return nil, p.errorf("%s without an argument", name)
	}
	if err != nil {
		return nil, err
	}
	f.arg = arg
	return f, nil
}

var inverse = map[string]string{"sin": "asin", "cos": "acos", "tan": "atan", "cot": "acot", "sec": "asec", "csc": "acsc"}

func isMinusOne(n node) bool {
	if neg, ok := n.(*negNode); ok {
		if num, ok := neg.x.(*numNode); ok {
			return num.r.Cmp(big.NewRat(1, 1)) == 0
		}
	}
	return false
}

// fracArg reads one argument of \frac: a group, or one token (\frac12 is
// one half: a number token of several digits gives its first digit).
func (p *parser) fracArg() (node, error) {
	if p.is(tOpen, "{") {
		return p.parseGroup()
	}
	t := p.peek()
	if t.kind == tNum && len(t.text) > 1 && !strings.Contains(t.text, ".") {
		p.toks[p.pos].text = t.text[1:]
		return numLiteral(t.text[:1])
	}
	return p.parsePrimary()
}

// fracArgs reads the two arguments of \frac or \binom.
func (p *parser) fracArgs() (a, b node, err error) {
	if a, err = p.fracArg(); err != nil {
		return nil, nil, err
	}
	if b, err = p.fracArg(); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// groupOr reads a {group}, or else what other reads.
func (p *parser) groupOr(other func() (node, error)) (node, error) {
	if p.is(tOpen, "{") {
		return p.parseGroup()
	}
	return other()
}

func (p *parser) parseCommand(name string) (node, error) {
	switch name {
	case "frac":
		num, den, err := p.fracArgs()
		if err != nil {
			return nil, err
		}
		return &divNode{num: num, den: den}, nil
	case "binom", "choose":
		n, k, err := p.fracArgs()
		if err != nil {
			return nil, err
		}
		return &binomNode{n: n, k: k}, nil
	case "sqrt":
		var index node
		if p.is(tOpen, "[") {
			p.next()
			idx, err := p.parseInner("]")
			if err != nil {
				return nil, err
			}
			if err := p.expect(tClose, "]"); err != nil {
				return nil, err
			}
			index = idx
		}
		arg, err := p.groupOr(p.parsePower)
		if err != nil {
			return nil, err
		}
		if index == nil {
			return &funcNode{name: "sqrt", arg: arg}, nil
		}
		return &powNode{base: arg, exp: &divNode{num: &numNode{r: big.NewRat(1, 1)}, den: index}}, nil
	case "sum", "prod":
		return p.parseSum(name == "prod")
	case "begin pmatrix", "begin bmatrix", "begin Bmatrix", "begin vmatrix", "begin Vmatrix", "begin matrix",
		"begin smallmatrix", "begin array":
		return p.parseMatrix(strings.TrimPrefix(name, "begin "))
	case "boxed", "fbox":
		return p.parseGroup()
	case "hat", "bar", "tilde", "vec", "overline", "widehat", "widetilde", "dot", "ddot":
		inner, err := p.groupOr(p.parsePrimary)
		if err != nil {
			return nil, err
		}
		v, ok := inner.(*varNode)
		if !ok {
			return nil, fmt.Errorf("%w: \\%s over an expression", ErrSyntax, name)
		}
		return &varNode{name: name + "(" + v.name + ")"}, nil
	case "mathbb", "mathcal":
		s, err := p.scriptText()
		if err != nil {
			return nil, err
		}
		return &constNode{name: "set:" + s}, nil
	}
	return nil, fmt.Errorf("%w: \\%s here", ErrSyntax, name)
}

// parseSum reads \sum_{i=lo}^{hi} body.
func (p *parser) parseSum(prod bool) (node, error) {
	s := &sumNode{prod: prod}
	if err := p.expect(tOp, "_"); err != nil {
		return nil, err
	}
	braced := p.is(tOpen, "{")
	if braced {
		p.next()
	}
	idx := p.next()
	if idx.kind != tIdent {
		return nil, p.errorf("a sum without an index")
	}
	s.index = strings.TrimPrefix(idx.text, `\`)
	if err := p.expect(tRel, "="); err != nil {
		return nil, err
	}
	var err error
	if braced {
		if s.lo, err = p.parseInner("}"); err != nil {
			return nil, err
		}
		if err := p.expect(tClose, "}"); err != nil {
			return nil, err
		}
	} else if s.lo, err = p.parsePrimary(); err != nil {
		return nil, err
	}
	if err := p.expect(tOp, "^"); err != nil {
		return nil, err
	}
	if s.hi, err = p.parseScript(); err != nil {
		return nil, err
	}
	if s.body, err = p.parseProduct(false); err != nil {
		return nil, err
	}
	return s, nil
}

// parseMatrix reads the cells of a matrix environment: & between columns,
// \\ between rows, up to its \end.
func (p *parser) parseMatrix(env string) (node, error) {
	m := &matrixNode{}
	row := []node{}
	for {
		switch {
		case p.is(tCmd, "end "+env):
			p.next()
			if len(row) > 0 {
				m.rows = append(m.rows, row)
			}
			if len(m.rows) == 0 {
				return nil, fmt.Errorf("%w: empty matrix", ErrSyntax)
			}
			return m, nil
		case p.is(tAmp, ""):
			p.next()
		case p.is(tRowSep, ""):
			p.next()
			if len(row) > 0 {
				m.rows = append(m.rows, row)
			}
			row = []node{}
		case p.peek().kind == tEOF:
			return nil, fmt.Errorf("%w: %s without \\end", ErrSyntax, env)
		default:
			cell, err := p.parseRelation()
			if err != nil {
				return nil, err
			}
			row = append(row, cell)
		}
	}
}

// parseBracket reads what follows an opening bracket.
func (p *parser) parseBracket(open string) (node, error) {
	switch open {
	case "|":
		p.absOpen++
		x, err := p.parseExpr()
		p.absOpen--
		if err != nil {
			return nil, err
		}
		if !p.is(tOpen, "|") {
			return nil, p.errorf("unclosed |")
		}
		p.next()
		return &absNode{x}, nil
	case "⌊", "⌈":
		x, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		closer := map[string]string{"⌊": "⌋", "⌈": "⌉"}[open]
		if err := p.expect(tClose, closer); err != nil {
			return nil, err
		}
		if open == "⌊" {
			return &floorNode{x}, nil
		}
		return &ceilNode{x}, nil
	case `\{`:
		// Set-builder notation: \{x \mid x > 2\} is the set the condition holds on.
		if p.is(tIdent, "") && (p.peekAt(1).kind == tOp && p.peekAt(1).text == "mid" ||
			p.peekAt(1).kind == tOpen && p.peekAt(1).text == "|" || p.peekAt(1).kind == tOp && p.peekAt(1).text == "/") {
			p.next()
			p.next()
			cond, err := p.parseInner(`\}`)
			if err != nil {
				return nil, err
			}
			if err := p.expect(tClose, `\}`); err != nil {
				return nil, err
			}
			return cond, nil
		}
		inner, err := p.parseInner(`\}`)
		if err != nil {
			return nil, err
		}
		if err := p.expect(tClose, `\}`); err != nil {
			return nil, err
		}
		return asSet(inner), nil
	case "{":
		inner, err := p.parseInner("}")
		if err != nil {
			return nil, err
		}
		if err := p.expect(tClose, "}"); err != nil {
			return nil, err
		}
		if l, ok := inner.(*listNode); ok {
			l.kind = listSet // {2, -2, 1/2}: a set written with bare braces
			return l, nil
		}
		return inner, nil
	}
	// ( or [
	inner, err := p.parseInner(")")
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind != tClose || (t.text != ")" && t.text != "]") {
		return nil, p.errorf("unclosed %s", open)
	}
	closeText := p.next().text
	l, isList := inner.(*listNode)
	if !isList {
		return inner, nil // a grouping: (x + 1), [x + 1]
	}
	if len(l.items) == 2 {
		return &intervalNode{lo: l.items[0], hi: l.items[1], loClosed: open == "[", hiClosed: closeText == "]",
			pair: open == "(" && closeText == ")"}, nil
	}
	if open == "(" {
		l.kind = listTuple
	} else {
		l.kind = listBracket
	}
	return l, nil
}

func asSet(n node) node {
	if l, ok := n.(*listNode); ok {
		l.kind = listSet
		return l
	}
	return &listNode{kind: listSet, items: []node{n}}
}
