package datg

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/answer"
)

// SymbolicBuilder and SymbolicAligner name the LLM-free DAG builder and
// aligner in the tables.
const (
	SymbolicBuilder = "symbolic"
	SymbolicAligner = "symbolic"
)

// maxSymbolicNodes bounds a symbolic DAG.
const maxSymbolicNodes = 24

// SymbolicDAG extracts a DAG from a derivation without an LLM: every
// correct equation chain that establishes a value is an anchor; an anchor
// depends on the earlier anchors whose value (or variable) its left side
// uses; the final node is the last anchor whose value is the final answer
// (finalAnswer, when it evaluates), else the last anchor; anchors that do
// not lead to it are dropped. A derivation without equations gives a single
// node stating the answer.
func SymbolicDAG(derivation, finalAnswer string) DAG {
	eqs := Equations(derivation)
	type cand struct {
		eq      Equation
		parents []int
	}
	var cands []cand
	seen := map[string]bool{}
	for _, eq := range eqs {
		if !eq.Correct() || seen[eq.Text] {
			continue
		}
		seen[eq.Text] = true
		c := cand{eq: eq}
		for i, prev := range cands {
			if uses(eq, prev.eq) {
				c.parents = append(c.parents, i)
			}
		}
		cands = append(cands, c)
	}
	final := len(cands) - 1
	if v, ok := answer.Evaluate(finalAnswer); ok {
		for i := len(cands) - 1; i >= 0; i-- {
			if sameValue(cands[i].eq.Result(), v) {
				final = i
				break
			}
		}
	}
	if final < 0 {
		ans := strings.TrimSpace(strings.ReplaceAll(finalAnswer, "$", ""))
		if ans == "" {
			ans = "?"
		}
		return DAG{FinalNodeID: "n1", Nodes: []Node{{NodeID: "n1", Anchor: "answer = " + ans, Description: "final answer", Parents: []string{}}}}
	}
	// Keep the final node and what leads to it.
	keep := map[int]bool{final: true}
	for i := final; i >= 0; i-- {
		if keep[i] {
			for _, p := range cands[i].parents {
				keep[p] = true
			}
		}
	}
	var d DAG
	ids := map[int]string{}
	for i := 0; i <= final; i++ {
		if !keep[i] || len(d.Nodes) == maxSymbolicNodes-1 && i != final {
			continue
		}
		id := "n" + strconv.Itoa(len(d.Nodes)+1)
		ids[i] = id
		n := Node{NodeID: id, Anchor: anchorText(cands[i].eq), Description: describe(cands[i].eq, i == final), Parents: []string{}}
		for _, p := range cands[i].parents {
			if pid, ok := ids[p]; ok {
				n.Parents = append(n.Parents, pid)
			}
		}
		d.Nodes = append(d.Nodes, n)
	}
	d.FinalNodeID = ids[final]
	return d
}

// uses reports whether eq builds on prev: its left side names prev's
// variable, or one of its earlier sides holds prev's value as a number.
func uses(eq, prev Equation) bool {
	if prev.Var != "" && slices.Contains(eq.vars, prev.Var) {
		return true
	}
	r := prev.Result()
	for _, n := range eq.Lead {
		if sameValue(n, r) {
			return true
		}
	}
	return false
}

func anchorText(eq Equation) string { return strings.Join(eq.Parts, " = ") }

func describe(eq Equation, final bool) string {
	switch {
	case final:
		return "final answer"
	case eq.Var != "":
		return "value of " + eq.Var
	}
	return "computes " + formatValue(eq.Result())
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// anchorFacts is what a trace must establish to commit an anchor.
type anchorFacts struct {
	result float64   // the value the anchor ends with
	lead   []float64 // numbers of its first side
	given  bool      // a fact stated about a variable (eggs = 16), not a computation
	lhs    float64   // value of its first side (NaN when it has variables)
}

func factsOf(anchor string) (anchorFacts, bool) {
	chains := splitChains(anchor)
	if len(chains) == 0 {
		return anchorFacts{}, false
	}
	eq, ok := newEquation(chains[len(chains)-1], chains[len(chains)-1], 0, nil)
	if !ok {
		return anchorFacts{}, false
	}
	return anchorFacts{result: eq.Result(), lead: eq.Lead, given: len(eq.Lead) == 0, lhs: eq.Values[0]}, true
}

// SymbolicTrace is a trace read for symbolic alignment: its equations and
// its repeated sentences, found once however many DAGs it is aligned to.
// It is read-only after ReadSymbolic returns, so goroutines may share one
// and call Align concurrently.
type SymbolicTrace struct {
	eqs        []Equation
	loops      []string // sentences said three times or more (at most two)
	degenerate string   // the sentence the trace ends repeating, if any
}

// ReadSymbolic reads a trace for SymbolicTrace.Align.
func ReadSymbolic(trace string) *SymbolicTrace {
	t := &SymbolicTrace{eqs: Equations(trace)}
	t.loops, t.degenerate = repetitions(trace)
	return t
}

// SymbolicAlign aligns a trace to a DAG without an LLM, on the math alone,
// so it reads a trace in any language. For each node, in the order of the
// trace: an equation with the anchor's first-side numbers and its result
// commits the node, with another result it is an ERROR; a correct equation
// reaching the anchor's result also commits it, and for a stated fact a
// correct equation that uses the fact's value does. ERRORs are also
// contradictory steps; a sentence repeated three times or more is a
// harmful loop, and a trace that ends repeating itself is degenerate.
//
// It is ReadSymbolic(trace).Align(d); to align one trace to several DAGs,
// read it once.
func SymbolicAlign(trace string, d DAG) Alignment {
	return ReadSymbolic(trace).Align(d)
}

// SymbolicNodes is a DAG read for symbolic alignment: what each node's
// anchor establishes, read once however many traces it is aligned to. It
// is read-only after ReadSymbolicDAG returns.
type SymbolicNodes struct {
	dag   DAG
	facts []anchorFacts
	ok    []bool // the anchor is an equation with a value
}

// ReadSymbolicDAG reads a DAG for SymbolicTrace.AlignNodes.
func ReadSymbolicDAG(d DAG) *SymbolicNodes {
	n := &SymbolicNodes{dag: d, facts: make([]anchorFacts, len(d.Nodes)), ok: make([]bool, len(d.Nodes))}
	for i, node := range d.Nodes {
		n.facts[i], n.ok[i] = factsOf(node.Anchor)
	}
	return n
}

// Align aligns the trace to a DAG as SymbolicAlign does. It does not modify
// t, and the Alignment it returns shares no slice or map with t or with
// other calls' results.
func (t *SymbolicTrace) Align(d DAG) Alignment {
	return t.AlignNodes(ReadSymbolicDAG(d))
}

// AlignNodes is Align of a DAG already read. It modifies neither t nor
// nodes, so goroutines may share both.
func (t *SymbolicTrace) AlignNodes(nodes *SymbolicNodes) Alignment {
	eqs := t.eqs
	a := Alignment{AuditResults: map[string][]Event{}}
	for i, n := range nodes.dag.Nodes {
		events := []Event{}
		f, ok := nodes.facts[i], nodes.ok[i]
		if ok {
			for _, eq := range eqs {
				var status study.NodeStatus
				switch {
				case sameNumbers(eq.Lead, f.lead) && sameValue(eq.Result(), f.result) && eq.Correct():
					status = study.Commit
				case sameNumbers(eq.Lead, f.lead) && !sameValue(eq.Result(), f.result):
					status = study.Error
				case !f.given && eq.Correct() && sameValue(eq.Result(), f.result) && !math.IsNaN(f.lhs) && len(eq.Lead) > 1:
					status = study.Commit
				case f.given && eq.Correct() && containsValue(eq.Lead, f.result):
					status = study.Commit
				}
				if status == "" {
					continue
				}
				events = append(events, Event{Status: string(status), Evidence: clip(eq.Text, 80), EvidenceSpan: eq.Span})
				if status == study.Commit {
					break
				}
			}
		}
		a.AuditResults[n.NodeID] = events
		for _, e := range events {
			if e.Status == string(study.Error) && len(a.ContradictorySteps) < 2 {
				a.ContradictorySteps = append(a.ContradictorySteps, Action{Evidence: e.Evidence, EvidenceSpan: e.EvidenceSpan, Category: "contradiction"})
			}
		}
	}
	for _, s := range t.loops {
		a.HarmfulLoopSteps = append(a.HarmfulLoopSteps, Action{Evidence: clip(s, 80), EvidenceSpan: clip(s, 120), Category: "loop"})
	}
	if t.degenerate != "" {
		a.DegenerateSteps = []Action{{Evidence: clip(t.degenerate, 80), EvidenceSpan: clip(t.degenerate, 120), Category: "collapse"}}
	}
	return a
}

func containsValue(vals []float64, v float64) bool {
	for _, x := range vals {
		if sameValue(x, v) {
			return true
		}
	}
	return false
}

// repetitions finds sentences said three times or more (at most two) and,
// when the trace ends repeating one, that sentence.
func repetitions(trace string) (loops []string, degenerate string) {
	sentences := strings.FieldsFunc(trace, func(r rune) bool { return r == '\n' || r == '.' || r == '。' || r == '।' })
	count := map[string]int{}
	var order []string
	for _, s := range sentences {
		s = strings.TrimSpace(s)
		if utf8.RuneCountInString(s) < 12 {
			continue
		}
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	for _, s := range order {
		if count[s] >= 3 && len(loops) < 2 {
			loops = append(loops, s)
		}
	}
	if n := len(sentences); n >= 6 {
		last := strings.TrimSpace(sentences[n-1])
		same := 0
		for i := n - 1; i >= 0 && strings.TrimSpace(sentences[i]) == last; i-- {
			same++
		}
		if same >= 5 && last != "" {
			degenerate = last
		}
	}
	return loops, degenerate
}

// clip shortens s to at most n bytes at a character boundary.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// SymbolicAlignmentJSON is SymbolicAlign's result as the JSON an aligner
// returns.
func SymbolicAlignmentJSON(trace string, d DAG) string {
	return ReadSymbolic(trace).AlignmentJSON(d)
}

// AlignmentJSON is Align's result as the JSON an aligner returns.
func (t *SymbolicTrace) AlignmentJSON(d DAG) string {
	return EncodeJSON(t.Align(d))
}

// NodesJSON is AlignNodes's result as the JSON an aligner returns.
func (t *SymbolicTrace) NodesJSON(nodes *SymbolicNodes) string {
	return EncodeJSON(t.AlignNodes(nodes))
}

// SymbolicDAGJSON is SymbolicDAG's result as the JSON a DAG builder returns.
func SymbolicDAGJSON(derivation, finalAnswer string) string {
	return EncodeJSON(SymbolicDAG(derivation, finalAnswer))
}
