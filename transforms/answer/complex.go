package answer

import (
	"math"
	"math/cmplx"
	"strconv"
	"strings"
)

// imaginary is the variable read as the imaginary unit when an answer is a
// complex number (6 - 5i, 1/i).
const imaginary = "i"

// evalc evaluates a scalar node over the complex numbers, with the
// variables bound in env (i among them); undefined is NaN.
func evalc(n node, env map[string]complex128) complex128 {
	nan := cmplx.NaN()
	switch x := n.(type) {
	case *numNode:
		f, _ := x.r.Float64()
		return complex(f, 0)
	case *constNode:
		v := evalf(x, nil)
		if math.IsNaN(v) {
			return nan
		}
		return complex(v, 0)
	case *varNode:
		if v, ok := env[x.name]; ok {
			return v
		}
		if base, sub, ok := strings.Cut(x.name, "_"); ok {
			if i, ok := env[sub]; ok && imag(i) == 0 && real(i) == math.Trunc(real(i)) {
				if v, ok := env[base+"_"+strconv.Itoa(int(real(i)))]; ok {
					return v
				}
			}
		}
		return nan
	case *negNode:
		return -evalc(x.x, env)
	case *addNode:
		var s complex128
		for _, t := range x.terms {
			s += evalc(t, env)
		}
		return s
	case *mulNode:
		p := complex(1, 0)
		for _, f := range x.factors {
			p *= evalc(f, env)
		}
		return p
	case *divNode:
		d := evalc(x.den, env)
		if d == 0 {
			return nan
		}
		return evalc(x.num, env) / d
	case *powNode:
		b, e := evalc(x.base, env), evalc(x.exp, env)
		if imag(e) == 0 && real(e) == math.Trunc(real(e)) && math.Abs(real(e)) <= 64 {
			// Integer powers exactly, so i^2 is -1 and not -1 + 1e-16i.
			k := int(real(e))
			r := complex(1, 0)
			for j := 0; j < abs(k); j++ {
				r *= b
			}
			if k < 0 {
				if r == 0 {
					return nan
				}
				r = 1 / r
			}
			return r
		}
		return cmplx.Pow(b, e)
	case *funcNode:
		a := evalc(x.arg, env)
		var v complex128
		switch x.name {
		case "sqrt":
			v = cmplx.Sqrt(a)
		case "exp":
			v = cmplx.Exp(a)
		case "ln", "log":
			v = cmplx.Log(a)
		case "sin":
			v = cmplx.Sin(a)
		case "cos":
			v = cmplx.Cos(a)
		case "tan":
			v = cmplx.Tan(a)
		default:
			if imag(a) != 0 {
				return nan
			}
			v = complex(applyFunc(x.name, real(a)), 0)
		}
		if x.base != nil {
			v = cmplx.Log(a) / cmplx.Log(evalc(x.base, env))
		}
		if x.power != nil {
			v = cmplx.Pow(v, evalc(x.power, env))
		}
		return v
	case *absNode:
		return complex(cmplx.Abs(evalc(x.x, env)), 0)
	case *percentNode:
		return evalc(x.x, env) / 100
	case *degNode:
		return evalc(x.x, env)
	}
	// Factorials, floors, sums: defined on the reals only.
	reals := map[string]float64{}
	for k, v := range env {
		if imag(v) != 0 {
			return nan
		}
		reals[k] = real(v)
	}
	return complex(evalf(n, reals), 0)
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

// sameComplex compares two expressions in which i is the imaginary unit,
// with the other variables at the fixed real points.
func sameComplex(g, p node, names map[string]bool) bool {
	others := map[string]bool{}
	for k := range names {
		if k != imaginary {
			others[k] = true
		}
	}
	valid := 0
	for _, pt := range points(others, false)[:4] {
		env := map[string]complex128{imaginary: 1i}
		for k, v := range pt {
			env[k] = complex(v, 0)
		}
		a, b := evalc(g, env), evalc(p, env)
		if cmplx.IsNaN(a) || cmplx.IsNaN(b) || cmplx.IsInf(a) || cmplx.IsInf(b) {
			continue
		}
		if cmplx.Abs(a-b) > tolPoints*math.Max(1, math.Max(cmplx.Abs(a), cmplx.Abs(b))) {
			return false
		}
		valid++
		if len(others) == 0 {
			return true // a constant: one evaluation decides
		}
	}
	return valid >= 2
}
