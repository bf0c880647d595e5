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
	// A plain-text chain: an expression of numbers and operators equal to a number.
	plainEquation = regexp.MustCompile(`(?:[\w.]+\s*[-+*/×÷·^]\s*)*[\w.]+\s*=\s*-?\d[\d.,]*`)
	relationSplit = regexp.MustCompile(`\\(?:leq?|geq?|neq|approx|Rightarrow|implies|to)\b|[<>≤≥≠≈]`)
)

// chainSeparators are the other separators of chains in a math span
// (built once: a Replacer's first use builds its tables).
var chainSeparators = strings.NewReplacer(`\quad`, ";", `\text{ and }`, ";", `\text{and}`, ";", `\\`, ";", "&", " ")

// mayHoldRelation reports whether s may hold one of relationSplit's
// matches (a text without these has none): most math spans hold a
// backslash, few a relation, and the regexp costs more than the look.
func mayHoldRelation(s string) bool {
	if strings.ContainsAny(s, "<>≤≥≠≈") {
		return true
	}
	for _, cmd := range []string{`\le`, `\ge`, `\neq`, `\approx`, `\Rightarrow`, `\implies`, `\to`} {
		if strings.Contains(s, cmd) {
			return true
		}
	}
	return false
}

// Equations finds the equation chains of a text, in order: in math spans
// ($...$, \(...\), \[...\], $$...$$) and, outside them, plain arithmetic such
// as 16 - 3 - 4 = 9.
func Equations(text string) []Equation {
	var out []Equation
	covered := make([]bool, len(text))
	parts := partReader{}
	for _, m := range mathSpans(text) {
		for i := m.start; i < m.end; i++ {
			covered[i] = true
		}
		for _, piece := range splitChains(text[m.contentStart:m.contentEnd]) {
			if eq, ok := newEquation(piece, text[m.start:m.end], m.start, parts); ok {
				out = append(out, eq)
			}
		}
	}
	for _, m := range plainEquationsOutside(text, covered) {
		if covered[m[0]] {
			continue
		}
		plain := strings.TrimRight(text[m[0]:m[1]], ".,") // sentence punctuation after the number
		if eq, ok := newEquation(plain, plain, m[0], parts); ok {
			out = append(out, eq)
		}
	}
	slices.SortStableFunc(out, func(a, b Equation) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// splitChains cuts a math span at commas, semicolons, "and" and relations
// other than =, so "a = 1, b = 2" gives two chains.
func splitChains(s string) []string {
	if mayHoldRelation(s) {
		s = relationSplit.ReplaceAllString(s, ";")
	}
	if strings.Contains(s, `\quad`) || strings.Contains(s, `\text{`) || strings.Contains(s, `\\`) || strings.IndexByte(s, '&') >= 0 {
		s = chainSeparators.Replace(s)
	}
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

// newEquation reads a chain; parts remembers what its sides were read
// as (nil: read them afresh).
func newEquation(chain, span string, start int, parts partReader) (Equation, bool) {
	sides := strings.Split(chain, "=")
	if len(sides) < 2 {
		return Equation{}, false
	}
	eq := Equation{Text: strings.TrimSpace(chain), Span: span, Start: start}
	if len(eq.Span) > 120 {
		eq.Span, eq.Start = eq.Text, start+strings.Index(span, strings.TrimSpace(chain))
		if len(eq.Span) > 120 || eq.Start < start {
			return Equation{}, false
		}
	}
	read := make([]*partFacts, 0, len(sides))
	for _, p := range sides {
		p = strings.TrimSpace(p)
		if p == "" {
			return Equation{}, false
		}
		f := parts.of(p)
		eq.Parts = append(eq.Parts, p)
		eq.Values = append(eq.Values, f.value())
		read = append(read, f)
	}
	if math.IsNaN(eq.Result()) {
		return Equation{}, false // nothing is established
	}
	for _, f := range read[:len(read)-1] {
		eq.Lead = append(eq.Lead, f.numbers()...)
	}
	sort.Float64s(eq.Lead)
	eq.vars = slices.Clone(read[0].variables())
	if len(eq.vars) == 1 && len(eq.Lead) == 0 && len(sides) == 2 {
		eq.Var = eq.vars[0]
	}
	return eq, true
}

// partReader remembers what the sides of a text's chains read as: a
// trace writes the same sides (x, 42, 3 \times 4) again and again, and
// answer's parser is most of the cost of reading them. Each of Evaluate,
// Numbers and Variables parses its side; a side's facts are read once,
// each when first needed.
type partReader map[string]*partFacts

type partFacts struct {
	text              string
	val               float64
	nums              []float64
	vars              []string
	haveVal, haveNums bool
	haveVars          bool
}

func (r partReader) of(p string) *partFacts {
	if f, ok := r[p]; ok {
		return f
	}
	f := &partFacts{text: p}
	if simple, ok := readSimpleSide(p); ok {
		f = &simple
	}
	if r != nil {
		r[p] = f
	}
	return f
}

// value is the side's value, NaN when it has none.
func (f *partFacts) value() float64 {
	if !f.haveVal {
		v, ok := answer.Evaluate(f.text)
		if !ok {
			v = math.NaN()
		}
		f.val, f.haveVal = v, true
	}
	return f.val
}

func (f *partFacts) numbers() []float64 {
	if !f.haveNums {
		f.nums, f.haveNums = answer.Numbers(f.text), true
	}
	return f.nums
}

func (f *partFacts) variables() []string {
	if !f.haveVars {
		f.vars, f.haveVars = answer.Variables(f.text), true
	}
	return f.vars
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
