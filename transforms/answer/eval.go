package answer

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Bounds that keep evaluation of adversarial answers fast.
const (
	maxExactBits  = 1 << 16 // a rational result above this size is left to floats
	maxFactorial  = 2000
	maxSumTerms   = 10000
	maxExactTerms = 1000
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
		v, ok := exact(x.x, env)
		if !ok {
			return nil, false
		}
		return new(big.Rat).Neg(v), true
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
		if !ok1 || !ok2 || !a.IsInt() || !b.IsInt() || a.Sign() < 0 || b.Sign() < 0 || a.Cmp(b) < 0 ||
			a.Num().Cmp(big.NewInt(100000)) > 0 {
			return nil, false
		}
		return new(big.Rat).SetInt(new(big.Int).Binomial(a.Num().Int64(), b.Num().Int64())), true
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
		a, ok := exact(x.x, env)
		if !ok {
			return nil, false
		}
		return new(big.Rat).Abs(a), true
	case *percentNode:
		a, ok := exact(x.x, env)
		if !ok {
			return nil, false
		}
		return new(big.Rat).Quo(a, big.NewRat(100, 1)), true
	case *degNode:
		return exact(x.x, env)
	case *sumNode:
		return exactSum(x, env)
	}
	return nil, false
}

// exactFold combines the exact values of items into acc with op (a sum or a
// product); it fails when any item is not exact or the result is too large.
func exactFold(items []node, env map[string]*big.Rat, acc *big.Rat, op func(z, x, y *big.Rat) *big.Rat) (*big.Rat, bool) {
	for _, it := range items {
		v, ok := exact(it, env)
		if !ok {
			return nil, false
		}
		op(acc, acc, v)
	}
	return bounded(acc)
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

// evalf evaluates a scalar node in floating point with the variables bound
// in env; anything undefined is NaN.
func evalf(n node, env map[string]float64) float64 {
	switch x := n.(type) {
	case *numNode:
		f, _ := x.r.Float64()
		return f
	case *constNode:
		switch x.name {
		case "pi":
			return math.Pi
		case "e":
			return math.E
		case "inf":
			return math.Inf(1)
		}
		return math.NaN()
	case *varNode:
		if v, ok := env[x.name]; ok {
			return v
		}
		// a_i inside a sum over i is a_1, a_2, ...
		if base, sub, ok := strings.Cut(x.name, "_"); ok {
			if i, ok := env[sub]; ok && i == math.Trunc(i) {
				if v, ok := env[base+"_"+strconv.Itoa(int(i))]; ok {
					return v
				}
			}
		}
		return math.NaN()
	case *negNode:
		return -evalf(x.x, env)
	case *addNode:
		s := 0.0
		for _, t := range x.terms {
			s += evalf(t, env)
		}
		return s
	case *mulNode:
		p := 1.0
		for _, f := range x.factors {
			p *= evalf(f, env)
		}
		return p
	case *divNode:
		return evalf(x.num, env) / evalf(x.den, env)
	case *powNode:
		return math.Pow(evalf(x.base, env), evalf(x.exp, env))
	case *funcNode:
		arg := evalf(x.arg, env)
		if trig[x.name] && hasDegrees(x.arg) {
			arg *= math.Pi / 180
		}
		v := applyFunc(x.name, arg)
		if x.base != nil {
			v = math.Log(evalf(x.arg, env)) / math.Log(evalf(x.base, env))
		}
		if x.power != nil {
			v = math.Pow(v, evalf(x.power, env))
		}
		return v
	case *factNode:
		a := evalf(x.x, env)
		if a < 0 && a == math.Trunc(a) {
			return math.NaN()
		}
		return math.Gamma(a + 1)
	case *binomNode:
		a, b := evalf(x.n, env), evalf(x.k, env)
		return math.Gamma(a+1) / (math.Gamma(b+1) * math.Gamma(a-b+1))
	case *floorNode:
		return math.Floor(evalf(x.x, env))
	case *ceilNode:
		return math.Ceil(evalf(x.x, env))
	case *absNode:
		return math.Abs(evalf(x.x, env))
	case *percentNode:
		return evalf(x.x, env) / 100
	case *degNode:
		return evalf(x.x, env)
	case *sumNode:
		return sumf(x, env)
	}
	return math.NaN()
}

func applyFunc(name string, a float64) float64 {
	switch name {
	case "sin":
		return math.Sin(a)
	case "cos":
		return math.Cos(a)
	case "tan":
		return math.Tan(a)
	case "cot":
		return 1 / math.Tan(a)
	case "sec":
		return 1 / math.Cos(a)
	case "csc":
		return 1 / math.Sin(a)
	case "asin":
		return math.Asin(a)
	case "acos":
		return math.Acos(a)
	case "atan":
		return math.Atan(a)
	case "acot":
		return math.Pi/2 - math.Atan(a)
	case "asec":
		return math.Acos(1 / a)
	case "acsc":
		return math.Asin(1 / a)
	case "sinh":
		return math.Sinh(a)
	case "cosh":
		return math.Cosh(a)
	case "tanh":
		return math.Tanh(a)
	case "coth":
		return 1 / math.Tanh(a)
	case "ln", "log":
		return math.Log(a)
	case "lg":
		return math.Log10(a)
	case "exp":
		return math.Exp(a)
	case "sqrt":
		return math.Sqrt(a)
	}
	return math.NaN()
}

// sumf sums a finite range, or an infinite one until it converges.
func sumf(s *sumNode, env map[string]float64) float64 {
	lo, hi := evalf(s.lo, env), evalf(s.hi, env)
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || lo != math.Trunc(lo) {
		return math.NaN()
	}
	inner := make(map[string]float64, len(env)+1)
	for k, v := range env {
		inner[k] = v
	}
	acc := 0.0
	if s.prod {
		acc = 1
	}
	infinite := math.IsInf(hi, 1)
	small := 0
	for i, n := lo, 0; infinite || i <= hi; i, n = i+1, n+1 {
		if n >= maxSumTerms {
			if infinite {
				return math.NaN() // did not converge
			}
			break
		}
		inner[s.index] = i
		v := evalf(s.body, inner)
		if math.IsNaN(v) {
			return math.NaN()
		}
		if s.prod {
			acc *= v
		} else {
			acc += v
		}
		if infinite {
			if math.Abs(v) <= 1e-15*math.Max(1, math.Abs(acc)) {
				small++
				if small >= 20 {
					return acc
				}
			} else {
				small = 0
			}
		}
	}
	return acc
}

var trig = map[string]bool{"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true}

// hasDegrees reports whether an angle was written in degrees.
func hasDegrees(n node) bool {
	switch x := n.(type) {
	case *degNode:
		return true
	case *negNode:
		return hasDegrees(x.x)
	case *addNode:
		for _, t := range x.terms {
			if hasDegrees(t) {
				return true
			}
		}
	case *mulNode:
		for _, t := range x.factors {
			if hasDegrees(t) {
				return true
			}
		}
	case *divNode:
		return hasDegrees(x.num)
	}
	return false
}
