package mathverify

// Numeric evaluation standing in for sympy's evaluation and simplify:
// rational arithmetic stays exact (big integers, bounded), everything else
// is complex128. Symbols take values from a fixed list of points, so that
// two expressions equal at every point are taken as identical, as sympy's
// simplify(a - b) == 0 would find them.

import (
	"hash/fnv"
	"math"
	"math/big"
	"math/cmplx"
)

type value struct {
	exact *big.Rat // nil when inexact
	c     complex128
}

func exactVal(r *big.Rat) value {
	f, _ := r.Float64()
	return value{exact: r, c: complex(f, 0)}
}

func approxVal(c complex128) value { return value{c: c} }

const maxExactBits = 1 << 16

type env map[string]complex128

type evaluator struct {
	env   env
	steps int
}

func (e *evaluator) eval(n *node) (value, error) {
	e.steps++
	if e.steps > 200000 {
		return value{}, ErrTooBig
	}
	switch n.k {
	case kNum:
		return exactVal(n.rat), nil
	case kFloat:
		return approxVal(complex(n.f, 0)), nil
	case kSym:
		if v, ok := e.env[n.name]; ok {
			return approxVal(v), nil
		}
		return value{}, errFreeSymbol
	case kConst:
		switch n.name {
		case "pi":
			return approxVal(complex(math.Pi, 0)), nil
		case "E":
			return approxVal(complex(math.E, 0)), nil
		case "EulerGamma":
			return approxVal(complex(0.5772156649015329, 0)), nil
		case "I":
			return approxVal(1i), nil
		case "oo":
			return approxVal(complex(math.Inf(1), 0)), nil
		}
		return value{}, errNotNumeric
	case kPct:
		v, err := e.eval(n.args[0])
		if err != nil {
			return v, err
		}
		return divVals(v, exactVal(big.NewRat(100, 1)))
	case kAdd:
		return e.fold(n.args, exactVal(new(big.Rat)), addVals)
	case kMul:
		return e.fold(n.args, exactVal(big.NewRat(1, 1)), mulVals)
	case kPow:
		b, x, err := e.evalTwo(n.args[0], n.args[1])
		if err != nil {
			return value{}, err
		}
		return powVals(b, x)
	case kFn:
		return e.evalFn(n)
	case kSum, kProd:
		return e.evalSeries(n)
	}
	return value{}, errNotNumeric
}

// evalEach evaluates args in written order and hands each value to use;
// the first argument that fails stops it, and its result is returned.
func (e *evaluator) evalEach(args []*node, use func(i int, v value)) (value, error) {
	for i, a := range args {
		v, err := e.eval(a)
		if err != nil {
			return v, err
		}
		use(i, v)
	}
	return value{}, nil
}

// evalTwo evaluates a, then b. A failure comes with the zero value, as
// every failure of eval does.
func (e *evaluator) evalTwo(a, b *node) (va, vb value, err error) {
	if va, err = e.eval(a); err != nil {
		return value{}, value{}, err
	}
	if vb, err = e.eval(b); err != nil {
		return value{}, value{}, err
	}
	return va, vb, nil
}

// fold combines the values of args into acc, which starts as the
// operation's identity, in written order.
func (e *evaluator) fold(args []*node, acc value, combine func(a, b value) value) (value, error) {
	if v, err := e.evalEach(args, func(_ int, v value) { acc = combine(acc, v) }); err != nil {
		return v, err
	}
	return acc, nil
}

type evalError string

func (e evalError) Error() string { return string(e) }

const (
	errFreeSymbol = evalError("free symbol")
	errNotNumeric = evalError("not numeric")
)

func addVals(a, b value) value {
	if a.exact != nil && b.exact != nil {
		return exactVal(new(big.Rat).Add(a.exact, b.exact))
	}
	return approxVal(a.c + b.c)
}

func mulVals(a, b value) value {
	if a.exact != nil && b.exact != nil {
		return exactVal(new(big.Rat).Mul(a.exact, b.exact))
	}
	return approxVal(a.c * b.c)
}

func divVals(a, b value) (value, error) {
	if a.exact != nil && b.exact != nil {
		if b.exact.Sign() == 0 {
			return value{}, errNotNumeric
		}
		return exactVal(new(big.Rat).Quo(a.exact, b.exact)), nil
	}
	return approxVal(a.c / b.c), nil
}

func powVals(b, x value) (value, error) {
	if b.exact != nil && x.exact != nil && x.exact.IsInt() {
		ex := x.exact.Num()
		if ex.IsInt64() {
			k := ex.Int64()
			bits := int64(b.exact.Num().BitLen() + b.exact.Denom().BitLen())
			if abs64(k)*bits <= maxExactBits {
				if k < 0 && b.exact.Sign() == 0 {
					return value{}, errNotNumeric
				}
				num := new(big.Int).Exp(b.exact.Num(), big.NewInt(abs64(k)), nil)
				den := new(big.Int).Exp(b.exact.Denom(), big.NewInt(abs64(k)), nil)
				r := new(big.Rat).SetFrac(num, den)
				if k < 0 {
					r.Inv(r)
				}
				return exactVal(r), nil
			}
		}
	}
	if b.exact != nil && b.exact.Sign() > 0 && x.exact != nil {
		// exact roots of perfect powers (sqrt(4) = 2) keep exactness
		if r, ok := exactRoot(b.exact, x.exact); ok {
			return exactVal(r), nil
		}
	}
	if imag(b.c) == 0 && imag(x.c) == 0 && real(b.c) >= 0 {
		return approxVal(complex(math.Pow(real(b.c), real(x.c)), 0)), nil
	}
	if imag(x.c) == 0 && real(x.c) == math.Trunc(real(x.c)) && math.Abs(real(x.c)) < 1e6 {
		return approxVal(cmplxPowInt(b.c, int(real(x.c)))), nil
	}
	return approxVal(cmplx.Pow(b.c, x.c)), nil
}

func cmplxPowInt(b complex128, k int) complex128 {
	if k < 0 {
		return 1 / cmplxPowInt(b, -k)
	}
	r := complex(1, 0)
	for k > 0 {
		if k&1 == 1 {
			r *= b
		}
		b *= b
		k >>= 1
	}
	return r
}

// exactRoot is b^(p/q) when it is rational.
func exactRoot(b, x *big.Rat) (*big.Rat, bool) {
	q := x.Denom()
	if !q.IsInt64() || q.Int64() > 16 || q.Int64() < 2 {
		return nil, false
	}
	n := q.Int64()
	rn, ok1 := intRoot(b.Num(), n)
	rd, ok2 := intRoot(b.Denom(), n)
	if !ok1 || !ok2 {
		return nil, false
	}
	base := new(big.Rat).SetFrac(rn, rd)
	v, err := powVals(exactVal(base), exactVal(new(big.Rat).SetInt(x.Num())))
	if err != nil || v.exact == nil {
		return nil, false
	}
	return v.exact, true
}

func intRoot(a *big.Int, n int64) (*big.Int, bool) {
	if a.BitLen() > 4096 {
		return nil, false
	}
	f, _ := new(big.Float).SetInt(a).Float64()
	guess := math.Round(math.Pow(f, 1/float64(n)))
	for d := -1.0; d <= 1; d++ {
		g := big.NewInt(int64(guess + d))
		if g.Sign() < 0 {
			continue
		}
		if new(big.Int).Exp(g, big.NewInt(n), nil).Cmp(a) == 0 {
			return g, true
		}
	}
	return nil, false
}

func abs64(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

func realOf(v value) (float64, bool) {
	if v.exact != nil {
		f, _ := v.exact.Float64()
		return f, true
	}
	if math.Abs(imag(v.c)) > 1e-12*math.Max(1, math.Abs(real(v.c))) {
		return 0, false
	}
	return real(v.c), true
}

func (e *evaluator) evalFn(n *node) (value, error) {
	if n.undef {
		return e.evalUndefined(n)
	}
	args := make([]value, len(n.args))
	if v, err := e.evalEach(n.args, func(i int, v value) { args[i] = v }); err != nil {
		return v, err
	}
	c := func(i int) complex128 { return args[i].c }
	switch n.name {
	case "Abs":
		if args[0].exact != nil {
			return exactVal(new(big.Rat).Abs(args[0].exact)), nil
		}
		return approxVal(complex(cmplx.Abs(c(0)), 0)), nil
	case "floor", "ceiling":
		if args[0].exact != nil {
			q := new(big.Int).Div(args[0].exact.Num(), args[0].exact.Denom()) // floor for positive denominators
			if n.name == "ceiling" && !args[0].exact.IsInt() {
				q.Add(q, big.NewInt(1))
			}
			return exactVal(new(big.Rat).SetInt(q)), nil
		}
		f, ok := realOf(args[0])
		if !ok {
			return value{}, errNotNumeric
		}
		if n.name == "floor" {
			return approxVal(complex(math.Floor(f+1e-12*math.Max(1, math.Abs(f))), 0)), nil
		}
		return approxVal(complex(math.Ceil(f-1e-12*math.Max(1, math.Abs(f))), 0)), nil
	case "factorial":
		if args[0].exact != nil && args[0].exact.IsInt() {
			k := args[0].exact.Num()
			if k.Sign() < 0 {
				return value{}, errNotNumeric
			}
			if k.IsInt64() && k.Int64() <= 3000 {
				return exactVal(new(big.Rat).SetInt(new(big.Int).MulRange(1, max(k.Int64(), 1)))), nil
			}
			return value{}, ErrTooBig
		}
		f, ok := realOf(args[0])
		if !ok {
			return value{}, errNotNumeric
		}
		return approxVal(complex(math.Gamma(f+1), 0)), nil
	case "gamma":
		f, ok := realOf(args[0])
		if !ok {
			return value{}, errNotNumeric
		}
		if args[0].exact != nil && args[0].exact.IsInt() && args[0].exact.Sign() > 0 && args[0].exact.Num().Int64() <= 3000 {
			return exactVal(new(big.Rat).SetInt(new(big.Int).MulRange(1, max(args[0].exact.Num().Int64()-1, 1)))), nil
		}
		return approxVal(complex(math.Gamma(f), 0)), nil
	case "binomial":
		if args[0].exact != nil && args[1].exact != nil && args[0].exact.IsInt() && args[1].exact.IsInt() {
			nn, kk := args[0].exact.Num(), args[1].exact.Num()
			if nn.IsInt64() && kk.IsInt64() && nn.Int64() >= 0 && nn.Int64() <= 20000 {
				if kk.Sign() < 0 || kk.Cmp(nn) > 0 {
					return exactVal(new(big.Rat)), nil
				}
				return exactVal(new(big.Rat).SetInt(new(big.Int).Binomial(nn.Int64(), kk.Int64()))), nil
			}
		}
		a, ok1 := realOf(args[0])
		b, ok2 := realOf(args[1])
		if !ok1 || !ok2 {
			return value{}, errNotNumeric
		}
		la, _ := math.Lgamma(a + 1)
		lb, _ := math.Lgamma(b + 1)
		lc, _ := math.Lgamma(a - b + 1)
		return approxVal(complex(math.Exp(la-lb-lc), 0)), nil
	case "log":
		if args[0].exact != nil && args[0].exact.Sign() == 0 {
			return value{}, errNotNumeric
		}
		return approxVal(cmplx.Log(c(0)) / cmplx.Log(c(1))), nil
	case "Max", "Min":
		best := args[0]
		bf, ok := realOf(best)
		if !ok {
			return value{}, errNotNumeric
		}
		for _, a := range args[1:] {
			f, ok := realOf(a)
			if !ok {
				return value{}, errNotNumeric
			}
			if (n.name == "Max" && f > bf) || (n.name == "Min" && f < bf) {
				best, bf = a, f
			}
		}
		return best, nil
	case "gcd", "lcm":
		acc := new(big.Int)
		for i, a := range args {
			if a.exact == nil || !a.exact.IsInt() {
				return value{}, errNotNumeric
			}
			x := new(big.Int).Abs(a.exact.Num())
			if i == 0 {
				acc = x
			} else if n.name == "gcd" {
				acc = new(big.Int).GCD(nil, nil, acc, x)
			} else {
				g := new(big.Int).GCD(nil, nil, acc, x)
				if g.Sign() == 0 {
					acc = new(big.Int)
				} else {
					acc = new(big.Int).Mul(new(big.Int).Div(acc, g), x)
				}
			}
		}
		return exactVal(new(big.Rat).SetInt(acc)), nil
	case "Mod":
		if args[0].exact != nil && args[1].exact != nil && args[1].exact.Sign() != 0 {
			q := new(big.Rat).Quo(args[0].exact, args[1].exact)
			fl := new(big.Int).Div(q.Num(), q.Denom())
			r := new(big.Rat).Sub(args[0].exact, new(big.Rat).Mul(args[1].exact, new(big.Rat).SetInt(fl)))
			return exactVal(r), nil
		}
		a, ok1 := realOf(args[0])
		b, ok2 := realOf(args[1])
		if !ok1 || !ok2 || b == 0 {
			return value{}, errNotNumeric
		}
		return approxVal(complex(a-b*math.Floor(a/b), 0)), nil
	}
	if f, ok := complexFns[n.name]; ok {
		return approxVal(f(c(0))), nil
	}
	return value{}, errNotNumeric
}

// complexFns are the functions of one argument evaluated in complex
// floating point.
var complexFns = map[string]func(complex128) complex128{
	"exp":   cmplx.Exp,
	"sin":   cmplx.Sin,
	"cos":   cmplx.Cos,
	"tan":   cmplx.Tan,
	"cot":   func(z complex128) complex128 { return 1 / cmplx.Tan(z) },
	"sec":   func(z complex128) complex128 { return 1 / cmplx.Cos(z) },
	"csc":   func(z complex128) complex128 { return 1 / cmplx.Sin(z) },
	"asin":  cmplx.Asin,
	"acos":  cmplx.Acos,
	"atan":  cmplx.Atan,
	"acot":  func(z complex128) complex128 { return cmplx.Atan(1 / z) },
	"asec":  func(z complex128) complex128 { return cmplx.Acos(1 / z) },
	"acsc":  func(z complex128) complex128 { return cmplx.Asin(1 / z) },
	"sinh":  cmplx.Sinh,
	"cosh":  cmplx.Cosh,
	"tanh":  cmplx.Tanh,
	"asinh": cmplx.Asinh,
	"acosh": cmplx.Acosh,
	"atanh": cmplx.Atanh,
}

// evalUndefined models an undefined function f(x, ...) as a fixed smooth
// function chosen by f's name, so that f(x) equals f(x) and not g(x).
func (e *evaluator) evalUndefined(n *node) (value, error) {
	h := fnv.New64a()
	h.Write([]byte(n.name))
	seed := float64(h.Sum64()%1000)/1000 + 0.3
	acc := complex(seed, 0)
	if v, err := e.evalEach(n.args, func(i int, v value) {
		acc += cmplx.Sin(v.c*complex(seed+float64(i), 0)) * complex(1.7+seed, 0)
	}); err != nil {
		return v, err
	}
	return approxVal(acc), nil
}

func (e *evaluator) evalSeries(n *node) (value, error) {
	if n.args[1].k != kSym {
		return value{}, errNotNumeric
	}
	lo, hi, err := e.evalTwo(n.args[2], n.args[3])
	if err != nil {
		return value{}, err
	}
	if lo.exact == nil || hi.exact == nil || !lo.exact.IsInt() || !hi.exact.IsInt() {
		return value{}, errNotNumeric
	}
	a, b := lo.exact.Num(), hi.exact.Num()
	if !a.IsInt64() || !b.IsInt64() || b.Int64()-a.Int64() > 20000 {
		return value{}, ErrTooBig
	}
	name := n.args[1].name
	saved, had := e.env[name]
	inner := &evaluator{env: env{}, steps: e.steps}
	for k, v := range e.env {
		inner.env[k] = v
	}
	acc := exactVal(new(big.Rat))
	if n.k == kProd {
		acc = exactVal(big.NewRat(1, 1))
	}
	for i := a.Int64(); i <= b.Int64(); i++ {
		inner.env[name] = complex(float64(i), 0)
		v, err := inner.evalWithIndex(n.args[0], name, i)
		if err != nil {
			return v, err
		}
		if n.k == kSum {
			acc = addVals(acc, v)
		} else {
			acc = mulVals(acc, v)
			if acc.exact != nil && acc.exact.Num().BitLen() > maxExactBits {
				return value{}, ErrTooBig
			}
		}
	}
	e.steps = inner.steps
	_ = saved
	_ = had
	return acc, nil
}

// evalWithIndex evaluates a series body with its index exact.
func (e *evaluator) evalWithIndex(body *node, name string, i int64) (value, error) {
	return e.eval(substitute(body, name, intNode(i)))
}

func substitute(n *node, name string, v *node) *node {
	if n.k == kSym && n.name == name {
		return v
	}
	if len(n.args) == 0 {
		return n
	}
	c := *n
	c.args = make([]*node, len(n.args))
	for i, a := range n.args {
		c.args[i] = substitute(a, name, v)
	}
	return &c
}

// freeSymbols lists the symbol names of n (series indices excluded).
func freeSymbols(n *node, out map[string]bool) {
	switch n.k {
	case kSym:
		out[n.name] = true
		return
	case kSum, kProd:
		inner := map[string]bool{}
		freeSymbols(n.args[0], inner)
		if n.args[1].k == kSym {
			delete(inner, n.args[1].name)
		}
		for k := range inner {
			out[k] = true
		}
		for _, a := range n.args[2:] {
			freeSymbols(a, out)
		}
		return
	}
	for _, a := range n.args {
		freeSymbols(a, out)
	}
}

// samplePoints are the values symbols take, per point and symbol index.
var samplePoints = [][]float64{
	{0.6180339887, 1.4142135624, 2.2360679775, 0.3819660113, 1.7320508076, 2.6457513111, 0.8660254038, 1.1892071150},
	{1.3247179572, 0.5772156649, 1.6180339887, 2.7182818285, 0.6931471806, 1.2020569032, 3.1415926536, 0.9159655942},
	{-0.7390851332, 1.9021130326, -1.4655712319, 0.4142135624, -2.0794415417, 1.0471975512, -0.5403023059, 2.4142135624},
	{2.5029078750, -0.2360679775, 0.7071067812, -1.2599210499, 1.5707963268, -0.8414709848, 2.9129311828, 0.2679491924},
	{0.1234567891, 3.3166247904, -0.9876543210, 0.4472135955, -1.7724538509, 0.5555555556, 1.4426950409, -2.2214414691},
}

func symbolEnv(names []string, point int) env {
	e := env{}
	for i, n := range names {
		e[n] = complex(samplePoints[point][i%len(samplePoints[point])]+float64(i/len(samplePoints[point]))*0.37, 0)
	}
	return e
}

// compareReal compares two symbol-free real values, for the interval rule
// that an empty interval is a tuple (sympy's right <= left).
func compareReal(a, b *node) (int, bool) {
	ev := &evaluator{env: env{}}
	va, err1 := ev.eval(a)
	vb, err2 := ev.eval(b)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	if va.exact != nil && vb.exact != nil {
		return va.exact.Cmp(vb.exact), true
	}
	fa, ok1 := realOf(va)
	fb, ok2 := realOf(vb)
	if !ok1 || !ok2 || math.IsNaN(fa) || math.IsNaN(fb) {
		return 0, false
	}
	switch {
	case fa < fb:
		return -1, true
	case fa > fb:
		return 1, true
	}
	return 0, true
}
