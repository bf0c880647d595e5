package answer

// splitPlusMinus turns an expression holding ± (\frac{-1 \pm \sqrt{5}}{2})
// into the list of its solutions; ok is false when there is no ± below the
// top of the expression.
func splitPlusMinus(n node) (node, bool) {
	if _, top := n.(*pmNode); top {
		return nil, false
	}
	plus, found := withSign(n, +1)
	if !found {
		return nil, false
	}
	minus, _ := withSign(n, -1)
	return &listNode{kind: listSolutions, items: []node{plus, minus}}, true
}

// withSign copies n with its first ± resolved to + (sign 1) or - (sign -1).
func withSign(n node, sign int) (node, bool) {
	switch x := n.(type) {
	case *pmNode:
		if x.minus {
			sign = -sign
		}
		if sign > 0 {
			return &addNode{terms: []node{x.a, x.b}}, true
		}
		return &addNode{terms: []node{x.a, &negNode{x.b}}}, true
	case *negNode:
		y, ok := withSign(x.x, sign)
		return &negNode{y}, ok
	case *addNode:
		terms, ok := withSignList(x.terms, sign)
		return &addNode{terms: terms}, ok
	case *mulNode:
		factors, ok := withSignList(x.factors, sign)
		return &mulNode{factors: factors}, ok
	case *divNode:
		if num, ok := withSign(x.num, sign); ok {
			return &divNode{num: num, den: x.den}, true
		}
		den, ok := withSign(x.den, sign)
		return &divNode{num: x.num, den: den}, ok
	case *powNode:
		if b, ok := withSign(x.base, sign); ok {
			return &powNode{base: b, exp: x.exp}, true
		}
		return n, false
	case *funcNode:
		if a, ok := withSign(x.arg, sign); ok {
			return &funcNode{name: x.name, arg: a, base: x.base, power: x.power}, true
		}
	}
	return n, false
}

func withSignList(items []node, sign int) ([]node, bool) {
	out := append([]node(nil), items...)
	for i, it := range items {
		if y, ok := withSign(it, sign); ok {
			out[i] = y
			return out, true
		}
	}
	return out, false
}
