package answer

import (
	"math"
	"math/big"
)

// Bounds that keep evaluation of adversarial answers fast.
const (
	maxExactBits  = 1 << 16 // a rational result above this size is left to floats
	maxFactorial  = 2000
	maxSumTerms   = 10000
	maxExactTerms = 1000
	// A binomial of a large n is exact for min(k, n−k) up to this.
	maxSmallBinomialK = 256
)

// exact evaluates a node that denotes a rational number without error:
// integers, decimals, fractions, integer powers, factorials, binomials,
// roots of perfect powers, floor, ceiling and absolute value, finite sums.
func exact(n node, env map[string]*big.Rat) (*big.Rat, bool) {
	switch x := n.(type) {
	case *numNode:
		return x.r, true
	case *varNode:
		if env != nil {
			if v, ok := env[x.name]; ok {
				return v, true
			}
		}
		return nil, false
	case *negNode:
		return exactThen(x.x, env, new(big.Rat).Neg)
	case *addNode:
		return exactFold(x.terms, env, new(big.Rat), (*big.Rat).Add)
	case *mulNode:
		return exactFold(x.factors, env, big.NewRat(1, 1), (*big.Rat).Mul)
	case *divNode:
		a, ok1 := exact(x.num, env)
		b, ok2 := exact(x.den, env)
		if !ok1 || !ok2 || b.Sign() == 0 {
			return nil, false
		}
		return bounded(new(big.Rat).Quo(a, b))
	case *powNode:
		return exactPow(x, env)
	case *funcNode:
		if x.name != "sqrt" || x.power != nil {
			return nil, false
		}
		a, ok := exact(x.arg, env)
		if !ok {
			return nil, false
		}
		return ratRoot(a, 2)
	case *factNode:
		a, ok := exact(x.x, env)
		if !ok || !a.IsInt() || a.Sign() < 0 || a.Num().Cmp(big.NewInt(maxFactorial)) > 0 {
			return nil, false
		}
		return new(big.Rat).SetInt(new(big.Int).MulRange(1, a.Num().Int64())), true
	case *binomNode:
		a, ok1 := exact(x.n, env)
		b, ok2 := exact(x.k, env)
		if !ok1 || !ok2 || !a.IsInt() || !b.IsInt() || a.Sign() < 0 || b.Sign() < 0 || a.Cmp(b) < 0 {
			return nil, false
		}
		if a.Num().Cmp(big.NewInt(100000)) <= 0 {
			n, k := a.Num().Int64(), b.Num().Int64()
			if binomialBits(n, k) > maxExactBits {
				return nil, false // \binom{100000}{50000} would take a second to compute, and be dropped
			}
			return new(big.Rat).SetInt(new(big.Int).Binomial(n, k)), true
		}
		return smallBinomial(a.Num(), b.Num())
	case *floorNode, *ceilNode:
		var inner node
		if f, ok := x.(*floorNode); ok {
			inner = f.x
		} else {
			inner = x.(*ceilNode).x
		}
		a, ok := exact(inner, env)
		if !ok {
			return nil, false
		}
		q := new(big.Int).Div(a.Num(), a.Denom()) // Euclidean division: floor for a positive denominator
		if _, isCeil := x.(*ceilNode); isCeil && !a.IsInt() {
			q.Add(q, big.NewInt(1))
		}
		return new(big.Rat).SetInt(q), true
	case *absNode:
		return exactThen(x.x, env, new(big.Rat).Abs)
	case *percentNode:
		return exactThen(x.x, env, func(a *big.Rat) *big.Rat { return new(big.Rat).Quo(a, big.NewRat(100, 1)) })
	case *degNode:
		return exact(x.x, env)
	case *sumNode:
		return exactSum(x, env)
	}
	return nil, false
}

// exactThen is f of n's exact value, when n has one.
func exactThen(n node, env map[string]*big.Rat, f func(*big.Rat) *big.Rat) (*big.Rat, bool) {
	a, ok := exact(n, env)
	if !ok {
		return nil, false
	}
	return f(a), true
}

// binomialBits estimates the bits of C(n, k) by log-gamma.
func binomialBits(n, k int64) float64 {
	a, _ := math.Lgamma(float64(n) + 1)
	b, _ := math.Lgamma(float64(k) + 1)
	c, _ := math.Lgamma(float64(n-k) + 1)
	return (a - b - c) / math.Ln2
}

// smallBinomial is C(n, k) for a large n when min(k, n − k) is small
// (\binom{10^9}{5}), as the product n (n−1) ... over k!, within the bound
// on bits.
func smallBinomial(n, k *big.Int) (*big.Rat, bool) {
	if rest := new(big.Int).Sub(n, k); rest.Cmp(k) < 0 {
		k = rest
	}
	if !k.IsInt64() || k.Int64() > maxSmallBinomialK || k.Int64()*int64(n.BitLen()) > maxExactBits {
		return nil, false
	}
	acc := big.NewInt(1)
	factor := new(big.Int)
	for i := int64(0); i < k.Int64(); i++ {
		// acc·(n − i)/(i + 1) is C(n, i + 1): the division is exact.
		acc.Mul(acc, factor.Sub(n, big.NewInt(i)))
		acc.Quo(acc, big.NewInt(i+1))
	}
	return new(big.Rat).SetInt(acc), true
}

// exactFold combines the exact values of items into acc with op (a sum or a
// product); it fails when any item is not exact or the result, at any step,
// is too large (300 factors of 2000! are not multiplied out).
func exactFold(items []node, env map[string]*big.Rat, acc *big.Rat, op func(z, x, y *big.Rat) *big.Rat) (*big.Rat, bool) {
	for _, it := range items {
		v, ok := exact(it, env)
		if !ok {
			return nil, false
		}
		if _, ok := bounded(op(acc, acc, v)); !ok {
			return nil, false
		}
	}
	return acc, true
}

func bounded(r *big.Rat) (*big.Rat, bool) {
	if r.Num().BitLen()+r.Denom().BitLen() > maxExactBits {
		return nil, false
	}
	return r, true
}

func exactPow(x *powNode, env map[string]*big.Rat) (*big.Rat, bool) {
	base, ok := exact(x.base, env)
	if !ok {
		return nil, false
	}
	e, ok := exact(x.exp, env)
	if !ok {
		return nil, false
	}
	if !e.IsInt() {
		// a^(p/q): exact when a is a perfect q-th power.
		if e.Denom().Cmp(big.NewInt(12)) > 0 || base.Sign() < 0 {
			return nil, false
		}
		root, ok := ratRoot(base, int(e.Denom().Int64()))
		if !ok {
			return nil, false
		}
		return exactPow(&powNode{base: &numNode{r: root}, exp: &numNode{r: new(big.Rat).SetInt(e.Num())}}, nil)
	}
	if !e.Num().IsInt64() {
		return nil, false
	}
	k := e.Num().Int64()
	if base.Sign() == 0 {
		if k < 0 {
			return nil, false
		}
		if k == 0 {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	}
	abs := k
	if abs < 0 {
		abs = -abs
	}
	bits := int64(base.Num().BitLen() + base.Denom().BitLen())
	if abs > 1<<20 || bits*abs > maxExactBits {
		return nil, false
	}
	num := new(big.Int).Exp(base.Num(), big.NewInt(abs), nil)
	den := new(big.Int).Exp(base.Denom(), big.NewInt(abs), nil)
	if k < 0 {
		num, den = den, num
	}
	return new(big.Rat).SetFrac(num, den), true
}

// ratRoot is the exact q-th root of a non-negative rational, if it is one.
func ratRoot(a *big.Rat, q int) (*big.Rat, bool) {
	if a.Sign() < 0 || q < 1 {
		return nil, false
	}
	n, ok1 := intRoot(a.Num(), q)
	d, ok2 := intRoot(a.Denom(), q)
	if !ok1 || !ok2 {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}

func intRoot(x *big.Int, q int) (*big.Int, bool) {
	if q == 1 {
		return x, true
	}
	if x.BitLen() > 4096 {
		return nil, false
	}
	if q == 2 {
		r := new(big.Int).Sqrt(x)
		return r, new(big.Int).Mul(r, r).Cmp(x) == 0
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	guess := int64(math.Round(math.Pow(f, 1/float64(q))))
	for _, g := range []int64{guess - 1, guess, guess + 1} {
		if g < 0 {
			continue
		}
		r := big.NewInt(g)
		if new(big.Int).Exp(r, big.NewInt(int64(q)), nil).Cmp(x) == 0 {
			return r, true
		}
	}
	return nil, false
}

func exactSum(s *sumNode, env map[string]*big.Rat) (*big.Rat, bool) {
	lo, ok1 := exact(s.lo, env)
	hi, ok2 := exact(s.hi, env)
	if !ok1 || !ok2 || !lo.IsInt() || !hi.IsInt() {
		return nil, false
	}
	count := new(big.Int).Sub(hi.Num(), lo.Num())
	if count.Cmp(big.NewInt(maxExactTerms)) > 0 {
		return nil, false
	}
	inner := map[string]*big.Rat{}
	for k, v := range env {
		inner[k] = v
	}
	acc := new(big.Rat)
	if s.prod {
		acc.SetInt64(1)
	}
	for i := lo.Num().Int64(); i <= hi.Num().Int64(); i++ {
		inner[s.index] = new(big.Rat).SetInt64(i)
		v, ok := exact(s.body, inner)
		if !ok {
			return nil, false
		}
		if s.prod {
			acc.Mul(acc, v)
		} else {
			acc.Add(acc, v)
		}
		if _, ok := bounded(acc); !ok {
			return nil, false
		}
	}
	return acc, true
}
