package datg

// Equations as it was before the scanners of mathspans.go: the regexps
// over the whole text, kept as the oracle the scanners must agree with.

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/datg/datg/transforms/answer"
)

var refMathSpan = regexp.MustCompile(`(?s)\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|\$([^$\n]+?)\$`)

func refEquations(text string) []Equation {
	var out []Equation
	covered := make([]bool, len(text))
	for _, m := range refMathSpan.FindAllStringSubmatchIndex(text, -1) {
		for i := m[0]; i < m[1]; i++ {
			covered[i] = true
		}
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				for _, piece := range refSplitChains(text[m[g]:m[g+1]]) {
					if eq, ok := refNewEquation(piece, text[m[0]:m[1]], m[0]); ok {
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
		plain := strings.TrimRight(text[m[0]:m[1]], ".,")
		if eq, ok := refNewEquation(plain, plain, m[0]); ok {
			out = append(out, eq)
		}
	}
	slices.SortStableFunc(out, func(a, b Equation) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

func refSplitChains(s string) []string {
	s = relationSplit.ReplaceAllString(s, ";")
	s = strings.NewReplacer(`\quad`, ";", `\text{ and }`, ";", `\text{and}`, ";", `\\`, ";", "&", " ").Replace(s)
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' }) {
		for _, q := range splitTopLevelCommas(p) {
			if strings.Contains(q, "=") {
				out = append(out, strings.TrimSpace(q))
			}
		}
	}
	return out
}

// refMathSpans is refMathSpan's matches as mathSpans gives them.
func refMathSpans(text string) []mathSpanMatch {
	var out []mathSpanMatch
	for _, m := range refMathSpan.FindAllStringSubmatchIndex(text, -1) {
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				out = append(out, mathSpanMatch{start: m[0], end: m[1], contentStart: m[g], contentEnd: m[g+1]})
				break
			}
		}
	}
	return out
}

func refNewEquation(chain, span string, start int) (Equation, bool) {
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

// refReadSymbolicDAG is ReadSymbolicDAG with the anchors read as before.
func refReadSymbolicDAG(d DAG) *SymbolicNodes {
	n := &SymbolicNodes{dag: d, facts: make([]anchorFacts, len(d.Nodes)), ok: make([]bool, len(d.Nodes))}
	for i, node := range d.Nodes {
		chains := refSplitChains(node.Anchor)
		if len(chains) == 0 {
			continue
		}
		eq, ok := refNewEquation(chains[len(chains)-1], chains[len(chains)-1], 0)
		if !ok {
			continue
		}
		n.facts[i], n.ok[i] = anchorFacts{result: eq.Result(), lead: eq.Lead, given: len(eq.Lead) == 0, lhs: eq.Values[0]}, true
	}
	return n
}

// refReadSymbolic is ReadSymbolic as before.
func refReadSymbolic(text string) *SymbolicTrace {
	t := &SymbolicTrace{eqs: refEquations(text)}
	t.loops, t.degenerate = repetitions(text)
	return t
}
