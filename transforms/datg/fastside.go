package datg

import (
	"strconv"
	"strings"
)

// readSimpleSide reads the sides most chains are made of, a whole number
// or two joined by +, - or a product sign ("42", "72 - 57", "6 \times
// 12"), without answer's parser, which costs tens of microseconds a side
// (it normalizes LaTeX first): align --aligner symbolic reads thousands
// of sides a trace. It gives what answer.Evaluate, Numbers and Variables
// give (TestSimpleSidesAgreeWithAnswer): the exact value (integers below
// 2^53, so float64 holds it as big.Rat would), the numbers written, sorted (a
// subtrahend as written, not negated), no variables. Anything else is
// left to answer (ok false).
func readSimpleSide(s string) (f partFacts, ok bool) {
	a, rest, ok := leadingWhole(s)
	if !ok {
		return partFacts{}, false
	}
	if rest == "" {
		return partFacts{text: s, val: float64(a), nums: []float64{float64(a)}, vars: []string{}, haveVal: true, haveNums: true, haveVars: true}, true
	}
	var op string
	for _, o := range []string{" + ", " - ", ` \times `, ` \cdot `, " × ", " * "} {
		if strings.HasPrefix(rest, o) {
			op, rest = strings.TrimSpace(o), rest[len(o):]
			break
		}
	}
	b, tail, ok := leadingWhole(rest)
	if op == "" || !ok || tail != "" {
		return partFacts{}, false
	}
	var v int64
	switch op {
	case "+":
		v = a + b
	case "-":
		v = a - b
	default:
		if a != 0 && b > maxExactWhole/a {
			return partFacts{}, false
		}
		v = a * b
	}
	if v > maxExactWhole || v < -maxExactWhole {
		return partFacts{}, false
	}
	return partFacts{text: s, val: float64(v), nums: []float64{float64(min(a, b)), float64(max(a, b))}, vars: []string{}, haveVal: true, haveNums: true, haveVars: true}, true
}

// maxExactWhole is the largest whole number readSimpleSide works with:
// 2^53, below which float64 holds every integer.
const maxExactWhole = 1 << 53

// leadingWhole reads the whole number s starts with: 1 to 15 ASCII
// digits, no leading zero (0 alone is one), not followed by another digit,
// a period or a comma (a decimal, 1,000).
func leadingWhole(s string) (int64, string, bool) {
	n := 0
	for n < len(s) && n < 16 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 15 || s[0] == '0' && n > 1 {
		return 0, "", false
	}
	if n < len(s) && (s[n] == '.' || s[n] == ',') {
		return 0, "", false
	}
	v, err := strconv.ParseInt(s[:n], 10, 64)
	return v, s[n:], err == nil
}
