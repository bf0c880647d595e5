package answer

import "math/big"

// node is a parsed answer. Scalar nodes evaluate to numbers; structural
// nodes (lists, intervals, relations, matrices) are compared part by part.
type node interface{}

type (
	numNode struct {
		r        *big.Rat
		decimals int // digits after the decimal point as written
	}
	constNode struct{ name string } // pi, e, inf, empty
	varNode   struct{ name string }
	negNode   struct{ x node }
	addNode   struct{ terms []node }
	mulNode   struct{ factors []node }
	divNode   struct{ num, den node }
	powNode   struct{ base, exp node }
	funcNode  struct {
		name  string
		arg   node
		base  node // log base; nil for natural or default
		power node // sin^2 x
	}
	factNode    struct{ x node }
	binomNode   struct{ n, k node }
	floorNode   struct{ x node }
	ceilNode    struct{ x node }
	absNode     struct{ x node }
	percentNode struct{ x node }
	degNode     struct{ x node } // x degrees: x itself, but π x / 180 inside sin, cos, ...
	sumNode     struct {
		prod   bool
		index  string
		lo, hi node
		body   node
	}
	// pmNode is a ± b: two solutions.
	pmNode struct {
		a, b  node
		minus bool // ∓
	}
)

// listKind tells how a list compares.
type listKind int

const (
	listSolutions listKind = iota // a, b, c at the top level: unordered
	listSet                       // {a, b}: unordered
	listTuple                     // (a, b, c): ordered
	listBracket                   // [a, b, c]: ordered
	listParts                     // a; b: the parts of a multi-part answer, ordered
)

type (
	listNode struct {
		kind  listKind
		items []node
		conj  string // "and" or "or" when a word joined the items
	}
	// intervalNode is (lo, hi), [lo, hi], (lo, hi], [lo, hi). A pair in
	// parentheses may also be a point or tuple; pair records that.
	intervalNode struct {
		lo, hi             node
		loClosed, hiClosed bool
		pair               bool
	}
	unionNode struct{ parts []node }
	// relNode is a chain: items[0] ops[0] items[1] ops[1] items[2] ...
	relNode struct {
		items []node
		ops   []string
	}
	matrixNode struct{ rows [][]node }
)

// children lists a node's sub-nodes.
func children(n node) []node {
	switch x := n.(type) {
	case *negNode:
		return []node{x.x}
	case *addNode:
		return x.terms
	case *mulNode:
		return x.factors
	case *divNode:
		return []node{x.num, x.den}
	case *powNode:
		return []node{x.base, x.exp}
	case *funcNode:
		out := []node{x.arg}
		if x.base != nil {
			out = append(out, x.base)
		}
		if x.power != nil {
			out = append(out, x.power)
		}
		return out
	case *factNode:
		return []node{x.x}
	case *binomNode:
		return []node{x.n, x.k}
	case *floorNode:
		return []node{x.x}
	case *ceilNode:
		return []node{x.x}
	case *absNode:
		return []node{x.x}
	case *percentNode:
		return []node{x.x}
	case *degNode:
		return []node{x.x}
	case *sumNode:
		return []node{x.lo, x.hi, x.body}
	case *pmNode:
		return []node{x.a, x.b}
	case *listNode:
		return x.items
	case *intervalNode:
		return []node{x.lo, x.hi}
	case *unionNode:
		return x.parts
	case *relNode:
		return x.items
	case *matrixNode:
		var out []node
		for _, r := range x.rows {
			out = append(out, r...)
		}
		return out
	}
	return nil
}
