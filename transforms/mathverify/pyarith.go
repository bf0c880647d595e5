package mathverify

// sympy's parse_expr(expr, evaluate=False) on what the expression pattern
// extracts: digits, decimal points, spaces and + - * / ** ( ). Anything
// Python would not read (× ÷, two numbers side by side, a call such as
// 2(3)) fails, as it does there.

import (
	"fmt"
	"math/big"
	"strings"
)

type pyTok struct {
	t string // "num", "op", "(", ")"
	s string
}

func pyLex(s string) ([]pyTok, error) {
	var out []pyTok
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			i++
		case isASCIIDigit(r) || (r == '.' && i+1 < len(rs) && isASCIIDigit(rs[i+1])):
			j := i
			for j < len(rs) && isASCIIDigit(rs[j]) {
				j++
			}
			if j < len(rs) && rs[j] == '.' {
				j++
				for j < len(rs) && isASCIIDigit(rs[j]) {
					j++
				}
			}
			tok := string(rs[i:j])
			if len(tok) > 1 && tok[0] == '0' && !strings.Contains(tok, ".") && strings.Trim(tok, "0") != "" {
				return nil, fmt.Errorf("%w: leading zeros in %q", ErrSyntax, tok)
			}
			out = append(out, pyTok{"num", tok})
			i = j
		case r == '*' && i+1 < len(rs) && rs[i+1] == '*':
			out = append(out, pyTok{"op", "**"})
			i += 2
		case strings.ContainsRune("+-*/", r):
			out = append(out, pyTok{"op", string(r)})
			i++
		case r == '(' || r == ')':
			out = append(out, pyTok{string(r), string(r)})
			i++
		default:
			return nil, fmt.Errorf("%w: %q in a Python expression", ErrSyntax, r)
		}
	}
	return out, nil
}

type pyParser struct {
	toks  []pyTok
	pos   int
	depth int
}

func parsePyArith(s string) (*node, error) {
	toks, err := pyLex(s)
	if err != nil {
		return nil, err
	}
	p := &pyParser{toks: toks}
	n, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("%w: trailing input", ErrSyntax)
	}
	return n, nil
}

func (p *pyParser) peek() pyTok {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return pyTok{}
}

func (p *pyParser) sum() (*node, error) {
	return p.leftFold("+", "-", p.term, func(left, right *node, op string) *node {
		if op == "-" {
			right = mul(intNode(-1), right)
		}
		return add(left, right)
	})
}

func (p *pyParser) term() (*node, error) {
	return p.leftFold("*", "/", p.factor, func(left, right *node, op string) *node {
		if op == "/" {
			right = inv(right)
		}
		return mul(left, right)
	})
}

// leftFold reads operand (op operand)*, op being either of two operators,
// and joins it from the left: a op b op c is (a op b) op c.
func (p *pyParser) leftFold(op1, op2 string, operand func() (*node, error), join func(left, right *node, op string) *node) (*node, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for p.peek().t == "op" && (p.peek().s == op1 || p.peek().s == op2) {
		op := p.toks[p.pos].s
		p.pos++
		right, err := operand()
		if err != nil {
			return nil, err
		}
		left = join(left, right, op)
	}
	return left, nil
}

// nested reads f one level deeper, failing past maxDepth.
func (p *pyParser) nested(f func() (*node, error)) (*node, error) {
	p.depth++
	if p.depth > maxDepth {
		return nil, fmt.Errorf("%w: nesting too deep", ErrSyntax)
	}
	v, err := f()
	p.depth--
	return v, err
}

func (p *pyParser) factor() (*node, error) {
	if t := p.peek(); t.t == "op" && (t.s == "+" || t.s == "-") {
		p.pos++
		v, err := p.nested(p.factor)
		if err != nil {
			return nil, err
		}
		if t.s == "-" {
			return mul(intNode(-1), v), nil
		}
		return v, nil
	}
	return p.power()
}

func (p *pyParser) power() (*node, error) {
	base, err := p.atom()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.t == "op" && t.s == "**" {
		p.pos++
		ex, err := p.factor()
		if err != nil {
			return nil, err
		}
		return pow(base, ex), nil
	}
	return base, nil
}

func (p *pyParser) atom() (*node, error) {
	t := p.peek()
	switch t.t {
	case "num":
		p.pos++
		if strings.Contains(t.s, ".") {
			return numberFromString(t.s)
		}
		r, _ := new(big.Rat).SetString(strings.TrimLeft(t.s, "0") + "0")
		return num(r.Quo(r, big.NewRat(10, 1))), nil
	case "(":
		p.pos++
		v, err := p.nested(p.sum)
		if err != nil {
			return nil, err
		}
		if p.peek().t != ")" {
			return nil, fmt.Errorf("%w: unclosed parenthesis", ErrSyntax)
		}
		p.pos++
		if p.peek().t == "(" || p.peek().t == "num" {
			return nil, fmt.Errorf("%w: call or juxtaposition", ErrSyntax)
		}
		return v, nil
	}
	return nil, fmt.Errorf("%w: expected a number", ErrSyntax)
}
