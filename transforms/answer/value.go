package answer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Value is a parsed answer. When the answer is not math it keeps its
// normalized text, which is then what is compared.
type Value struct {
	Raw  string
	Text string // normalized text (spaces removed)
	Err  error  // why the answer is not math (nil when it parsed)
	node node
	norm string // the normalized answer
	alts []node // other readings of a malformed answer (a brace left open)
}

// Parsed reports whether the answer was read as math.
func (v Value) Parsed() bool { return v.node != nil }

var (
	mixedPlainRe = lazyRegexp(`^(-?)(\d+)\s+(\d+)\s*/\s*(\d+)$`)
	decimalComma = lazyRegexp(`^-?\d+,\d+$`)
)

// Parse reads an answer.
func Parse(s string) Value {
	scanned(len(s)) // and work bounded by its caps
	if len(s) > 4*maxAnswerLen {
		// Far too long to be an answer: compared as text, not read.
		return Value{Raw: s, Text: strip(s, " \t\n\r"), Err: fmt.Errorf("%w: longer than %d characters", ErrSyntax, maxAnswerLen)}
	}
	norm := normalize(s)
	v := Value{Raw: s, Text: strip(norm, " \t\n\r"), norm: norm}
	switch {
	case norm == "":
		v.Err = fmt.Errorf("%w: empty", ErrSyntax)
		return v
	case len(norm) > maxAnswerLen:
		v.Err = fmt.Errorf("%w: longer than %d characters", ErrSyntax, maxAnswerLen)
		return v
	case isPlainNumber(norm):
		n, err := numLiteral(norm)
		v.node, v.Err = n, err
		return v
	}
	if strings.Contains(norm, "/") {
		if m := mixedPlainRe().FindStringSubmatch(norm); m != nil {
			norm = m[1] + m[2] + `\frac{` + m[3] + `}{` + m[4] + `}`
		}
	}
	n, err := parse(norm)
	if err != nil {
		if open := strings.Count(norm, "{") - strings.Count(norm, "}"); open == 1 {
			n, v.alts, err = reclosed(norm)
		}
	}
	if err != nil {
		v.Err = err
		return v
	}
	v.node = n
	return v
}

// reclosed reads an answer with one brace left open: closed at the end,
// and, as other readings, closed before each later command (in
// \frac{1}{2\sqrt{2} \ln 3 the denominator may end before \ln).
func reclosed(norm string) (node, []node, error) {
	n, err := parse(norm + "}")
	if err != nil {
		return nil, nil, err
	}
	var alts []node
	open := unclosedBrace(norm)
	for i := open + 1; open >= 0 && i < len(norm) && len(alts) < 4; i++ {
		if norm[i] != '\\' || i == open+1 {
			continue
		}
		cand := norm[:i] + "}" + norm[i:]
		if strings.Count(cand[:i+1], "{") != strings.Count(cand[:i+1], "}") {
			continue // the inserted brace must close the open group
		}
		if a, err := parse(cand); err == nil {
			alts = append(alts, a)
		}
	}
	return n, alts, nil
}

// unclosedBrace is the position of the first "{" that is never closed.
func unclosedBrace(s string) int {
	var stack []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			stack = append(stack, i)
		case '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[0]
}

// decimalCommaAlternative reads "3,5" as three and a half, for comparing a
// two-item list with a gold that is a single number.
func decimalCommaAlternative(raw string) (node, bool) {
	s := strings.TrimSpace(strip(nativeDigits(raw), "$€£¥₹ \t"))
	s = strings.TrimRight(strings.TrimSpace(strings.TrimRightFunc(s, func(r rune) bool { return r > 127 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' })), ".")
	if !decimalComma().MatchString(s) {
		return nil, false
	}
	n, err := numLiteral(strings.Replace(s, ",", ".", 1))
	return n, err == nil
}

// Kinds of parsed answers, for reasons and tests.
func kind(n node) string {
	switch x := n.(type) {
	case *listNode:
		return [...]string{"solutions", "set", "tuple", "list", "parts"}[x.kind]
	case *intervalNode:
		if x.pair {
			return "pair"
		}
		return "interval"
	case *unionNode:
		return "union"
	case *relNode:
		if _, ok := assignment(x); ok {
			return "assignment"
		}
		if len(x.ops) == 1 && x.ops[0] == "=" {
			return "equation"
		}
		return "relation"
	case *matrixNode:
		return "matrix"
	case *pmNode:
		return "solutions"
	case *percentNode:
		return "percent"
	}
	return "expression"
}

// Kind names the structure of a parsed answer (expression, equation,
// interval, set, ...), or "text".
func (v Value) Kind() string {
	if v.node == nil {
		return "text"
	}
	return kind(v.node)
}

// assignment recognizes "names = value": x = 5, P(x) = ..., k_3 = ...,
// and names written together: (p, q) = (3, 2), S_{ABC}:S = 7:32,
// \frac{NO}{BO} = \frac{3}{4}, a + b = 5 (see namesOnly).
func assignment(r *relNode) (node, bool) {
	if len(r.ops) != 1 || r.ops[0] != "=" {
		return nil, false
	}
	if nameLike(r.items[0]) || namesOnly(r.items[0], 0) {
		return r.items[1], true
	}
	return nil, false
}

// namesOnly reports whether n is written with variables and nothing else:
// no number or constant (2x + 1 = 5 is an equation, not a name for 5).
// Variables may be combined by sums, products, ratios and absolute values,
// or listed in a tuple.
func namesOnly(n node, depth int) bool {
	if depth > 8 {
		return false
	}
	var parts []node
	switch x := n.(type) {
	case *varNode:
		return true
	case *negNode:
		parts = []node{x.x}
	case *absNode:
		parts = []node{x.x}
	case *addNode:
		parts = x.terms
	case *mulNode:
		parts = x.factors
	case *divNode:
		parts = []node{x.num, x.den}
	case *intervalNode:
		if !x.pair {
			return false
		}
		parts = []node{x.lo, x.hi}
	case *listNode:
		if x.kind != listTuple {
			return false
		}
		parts = x.items
	default:
		return false
	}
	for _, part := range parts {
		if !namesOnly(part, depth+1) {
			return false
		}
	}
	return true
}

func nameLike(n node) bool {
	switch x := n.(type) {
	case *varNode:
		return true
	case *mulNode:
		// f(x): a name applied to variables
		if len(x.factors) == 2 {
			_, ok1 := x.factors[0].(*varNode)
			_, ok2 := x.factors[1].(*varNode)
			return ok1 && ok2
		}
	}
	return false
}

// asInterval reads an inequality about one variable as the interval it
// describes: b >= -2/3 is [-2/3, inf); 0 < x < 1 is (0, 1); t in [1, 2] is
// [1, 2].
func asInterval(r *relNode) (node, bool) {
	if len(r.ops) == 1 && r.ops[0] == "in" {
		if _, ok := r.items[0].(*varNode); ok {
			switch r.items[1].(type) {
			case *intervalNode, *unionNode, *listNode:
				return r.items[1], true
			}
		}
		return nil, false
	}
	for _, op := range r.ops {
		if op != "<" && op != "<=" && op != ">" && op != ">=" {
			return nil, false
		}
	}
	// Normalize to ascending: a < x <= b.
	items, ops := ascending(r)
	for _, op := range ops {
		if op != "<" && op != "<=" {
			return nil, false
		}
	}
	if len(items) > 3 {
		return nil, false
	}
	varIdx := -1
	if len(items) == 3 {
		// lo < subject < hi: the subject may be any expression (e <= b/a <= 7).
		varIdx = 1
	} else {
		for i, it := range items {
			if _, ok := it.(*varNode); ok {
				if varIdx >= 0 {
					return nil, false
				}
				varIdx = i
			} else if hasVars(it) {
				return nil, false
			}
		}
		if varIdx < 0 {
			return nil, false
		}
	}
	iv := &intervalNode{lo: &negNode{&constNode{"inf"}}, hi: &constNode{"inf"}}
	if varIdx > 0 {
		iv.lo, iv.loClosed = items[varIdx-1], ops[varIdx-1] == "<="
	}
	if varIdx < len(items)-1 {
		iv.hi, iv.hiClosed = items[varIdx+1], ops[varIdx] == "<="
	}
	return iv, true
}

func reversed(items []node) []node {
	out := make([]node, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	return out
}

func flip(ops []string) []string {
	m := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}
	out := make([]string, len(ops))
	for i, op := range ops {
		out[len(ops)-1-i] = m[op]
	}
	return out
}

// vars collects the free variables of a scalar node; a structural node
// (list, interval, union, relation, matrix, ±) is not searched.
func vars(n node, into map[string]bool) {
	switch x := n.(type) {
	case *varNode:
		into[x.name] = true
	case *sumNode:
		inner := map[string]bool{}
		vars(x.body, inner)
		delete(inner, x.index)
		lo, hi := floatValue(x.lo, nil), floatValue(x.hi, nil)
		for k := range inner {
			base, sub, ok := strings.Cut(k, "_")
			if !ok || sub != x.index {
				into[k] = true
				continue
			}
			// a_i summed over i = 1..6 stands for a_1, ..., a_6.
			if lo == math.Trunc(lo) && hi == math.Trunc(hi) && hi-lo < 1000 {
				for i := lo; i <= hi; i++ {
					into[base+"_"+strconv.Itoa(int(i))] = true
				}
			}
		}
		vars(x.lo, into)
		vars(x.hi, into)
	default:
		if isScalar(n) {
			for _, c := range children(n) {
				vars(c, into)
			}
		}
	}
}

func hasVars(n node) bool {
	m := map[string]bool{}
	vars(n, m)
	return len(m) > 0
}

// integerValued reports whether a node only makes sense at integer points
// (floor, factorial, binomial, a power of a negative base).
func integerValued(n node) bool {
	found := false
	var walk func(node)
	walk = func(n node) {
		switch x := n.(type) {
		case *floorNode, *ceilNode, *factNode, *binomNode, *sumNode:
			found = true
		case *powNode:
			if v := floatValue(x.base, nil); v < 0 || math.IsNaN(v) {
				if hasVars(x.exp) {
					found = true
				}
			}
			walk(x.base)
			walk(x.exp)
		case *funcNode:
			walk(x.arg) // not a log's base or a power written on the name
		case *absNode:
			walk(x.x)
		default:
			walkArithmetic(n, walk)
		}
	}
	walk(n)
	return found
}

// walkArithmetic hands the operands of a negation, sum, product or
// quotient to walk, in order; it hands nothing for any other node. The
// walkers that use it each add the kinds they also descend through.
func walkArithmetic(n node, walk func(node)) {
	switch n.(type) {
	case *negNode, *addNode, *mulNode, *divNode:
		for _, c := range children(n) {
			walk(c)
		}
	}
}

// hasDecimal reports whether a number was written with a decimal point,
// which makes it an approximation when the other side is irrational.
func hasDecimal(n node) bool {
	found := false
	var walk func(node)
	walk = func(n node) {
		switch x := n.(type) {
		case *numNode:
			if x.decimals > 0 {
				found = true
			}
		case *percentNode:
			walk(x.x)
		default:
			walkArithmetic(n, walk)
		}
	}
	walk(n)
	return found
}
