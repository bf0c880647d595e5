package answer

import (
	"math/big"
	"reflect"
)

// Bounds of a structural comparison: matching the terms of sums and
// products in any order tries pairs, and parts are evaluated exactly.
const (
	maxTreeSteps = 10000
	maxTreeExact = 32
)

// sameTree reports whether two expressions are written alike: the same
// operations on the same numbers, constants and variables, terms of sums
// and factors of products in any order, exp(x) as e^x, and parts with equal
// exact values ((10^8)! and 100000000!). Alike expressions have the same
// value, so this decides what the bounds cannot: e^{10^8} and \exp(10^8),
// whose logs are known only to 1e-8.
func sameTree(a, b node) bool {
	m := treeMatcher{exact: map[node]*big.Rat{}}
	return m.same(a, b)
}

type treeMatcher struct {
	steps int
	exact map[node]*big.Rat // exact values of parts (nil: none)
}

func (m *treeMatcher) same(a, b node) bool {
	if m.steps++; m.steps > maxTreeSteps {
		return false
	}
	if m.alike(a, b) {
		return true
	}
	x, y := m.exactValue(a), m.exactValue(b)
	return x != nil && y != nil && x.Cmp(y) == 0
}

// exactValue is a part's exact value, if it has one.
func (m *treeMatcher) exactValue(n node) *big.Rat {
	if r, known := m.exact[n]; known {
		return r
	}
	if len(m.exact) >= maxTreeExact {
		return nil
	}
	r, ok := exact(n, nil)
	if !ok {
		r = nil
	}
	m.exact[n] = r
	return r
}

func (m *treeMatcher) alike(a, b node) bool {
	a, b = expAsPower(a), expAsPower(b)
	switch x := a.(type) {
	case *numNode:
		y, ok := b.(*numNode)
		return ok && x.r.Cmp(y.r) == 0
	case *constNode:
		y, ok := b.(*constNode)
		return ok && x.name == y.name
	case *varNode:
		y, ok := b.(*varNode)
		return ok && x.name == y.name
	case *addNode:
		y, ok := b.(*addNode)
		return ok && m.anyOrder(x.terms, y.terms)
	case *mulNode:
		y, ok := b.(*mulNode)
		return ok && m.anyOrder(x.factors, y.factors)
	case *negNode, *divNode, *powNode, *factNode, *binomNode, *floorNode, *ceilNode, *absNode, *percentNode, *degNode:
		// The same operation on alike operands, taken in order.
		return reflect.TypeOf(a) == reflect.TypeOf(b) && m.inOrder(children(a), children(b))
	case *funcNode:
		y, ok := b.(*funcNode)
		return ok && x.name == y.name && m.same(x.arg, y.arg) && m.optional(x.base, y.base) && m.optional(x.power, y.power)
	case *sumNode:
		y, ok := b.(*sumNode)
		return ok && x.prod == y.prod && x.index == y.index && m.same(x.lo, y.lo) && m.same(x.hi, y.hi) && m.same(x.body, y.body)
	}
	return false
}

func (m *treeMatcher) optional(a, b node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return m.same(a, b)
}

// inOrder reports whether a and b, of the same length, are alike item by
// item.
func (m *treeMatcher) inOrder(a, b []node) bool {
	for i := range a {
		if !m.same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// anyOrder matches every item of a to a distinct alike item of b; being
// alike is an equivalence, so taking the first match never misses one.
func (m *treeMatcher) anyOrder(a, b []node) bool {
	return matchFirstFree(a, b, m.same)
}

// expAsPower reads exp(x) as e^x.
func expAsPower(n node) node {
	if f, ok := n.(*funcNode); ok && f.name == "exp" && f.base == nil && f.power == nil {
		return &powNode{base: &constNode{"e"}, exp: f.arg}
	}
	return n
}
