package datg

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/datg/datg/transforms/answer"
)

// Equation is a chain a = b = c found in a text, with where it stands.
type Equation struct {
	Text   string    // the chain as written (the math span's content)
	Span   string    // the exact text quoted as evidence (<= 120 bytes)
	Start  int       // byte offset of Span in the text
	Parts  []string  // the sides of the chain
	Values []float64 // each side's value (NaN when it has free variables)
	Lead   []float64 // the numbers written in every side but the last, sorted: the computation
	Var    string    // the single variable the first side names, if it is one

	vars []string // the variables the first side names, sorted (read once for uses)
}

// Result is the value the chain ends with.
func (e Equation) Result() float64 { return e.Values[len(e.Values)-1] }

// Correct reports whether every side that has a value agrees.
func (e Equation) Correct() bool {
	first := math.NaN()
	for _, v := range e.Values {
		if math.IsNaN(v) {
			continue
		}
		if math.IsNaN(first) {
			first = v
		} else if !sameValue(first, v) {
			return false
		}
	}
	return true
}

func sameValue(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

var (
	mathSpan = regexp.MustCompile(`(?s)\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|\$([^$\n]+?)\$`)
	// A plain-text chain: an expression of numbers and operators equal to a number.
	plainEquation = regexp.MustCompile(`(?:[\w.]+\s*[-+*/×÷·^]\s*)*[\w.]+\s*=\s*-?\d[\d.,]*`)
	relationSplit = regexp.MustCompile(`\\(?:leq?|geq?|neq|approx|Rightarrow|implies|to)\b|[<>≤≥≠≈]`)
)

// Equations finds the equation chains of a text, in order: in math spans
// ($...$, \(...\), \[...\], $$...$$) and, outside them, plain arithmetic such
// as 16 - 3 - 4 = 9.
func Equations(text string) []Equation {
	var out []Equation
	covered := make([]bool, len(text))
	for _, m := range mathSpan.FindAllStringSubmatchIndex(text, -1) {
		for i := m[0]; i < m[1]; i++ {
			covered[i] = true
		}
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				for _, piece := range splitChains(text[m[g]:m[g+1]]) {
					if eq, ok := newEquation(piece, text[m[0]:m[1]], m[0]); ok {
						out = append(out, eq)
					}
				}
				break
			}
		}
	}
	for _, m := range plainEquation.FindAllStringIndex(text, -1) {
		if covered[m[0]] {
			continue
		}
		plain := strings.TrimRight(text[m[0]:m[1]], ".,") // sentence punctuation after the number
		if eq, ok := newEquation(plain, plain, m[0]); ok {
			out = append(out, eq)
		}
	}
	slices.SortStableFunc(out, func(a, b Equation) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// splitChains cuts a math span at commas, semicolons, "and" and relations
// other than =, so "a = 1, b = 2" gives two chains.
func splitChains(s string) []string {
	s = relationSplit.ReplaceAllString(s, ";")
	s = strings.NewReplacer(`\quad`, ";", `\text{ and }`, ";", `\text{and}`, ";", `\\`, ";", "&", " ").Replace(s)
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' }) {
		// Commas inside numbers (1,000) stay; commas between chains split.
		for _, q := range splitTopLevelCommas(p) {
			if strings.Contains(q, "=") {
				out = append(out, strings.TrimSpace(q))
			}
		}
	}
	return out
}

func splitTopLevelCommas(s string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			digitsAround := i > 0 && i+3 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3])
			if depth == 0 && !digitsAround {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func newEquation(chain, span string, start int) (Equation, bool) {
	parts := strings.Split(chain, "=")
	if len(parts) < 2 {
		return Equation{}, false
	}
	eq := Equation{Text: strings.TrimSpace(chain), Span: span, Start: start}
	if len(eq.Span) > 120 {
		eq.Span, eq.Start = eq.Text, start+strings.Index(span, strings.TrimSpace(chain))
		if len(eq.Span) > 120 || eq.Start < start {
			return Equation{}, false
		}
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return Equation{}, false
		}
		eq.Parts = append(eq.Parts, p)
		v, ok := answer.Evaluate(p)
		if !ok {
			v = math.NaN()
		}
		eq.Values = append(eq.Values, v)
	}
	if math.IsNaN(eq.Result()) {
		return Equation{}, false // nothing is established
	}
	for _, p := range eq.Parts[:len(eq.Parts)-1] {
		eq.Lead = append(eq.Lead, answer.Numbers(p)...)
	}
	sort.Float64s(eq.Lead)
	eq.vars = answer.Variables(eq.Parts[0])
	if len(eq.vars) == 1 && len(eq.Lead) == 0 && len(parts) == 2 {
		eq.Var = eq.vars[0]
	}
	return eq, true
}

func sameNumbers(a, b []float64) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) {
			return false
		}
	}
	return true
}
