package simulate

import (
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/datg/datg/prompts"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/answer"
	"github.com/datg/datg/transforms/datg"
)

// referenceAccuracy is how often a simulated reference derivation ends in
// the gold answer (the others are rejected by the grader).
const referenceAccuracy = 0.85

// reference writes an English reference derivation: the problem's solution
// steps when they are known, ending in the boxed answer (usually the gold).
func (m *model) reference(question string, s sampling) generation {
	info, known := m.key[normQuestion(question)]
	rng := rand.New(seedFor(prompts.ReferenceSystem(), question, "", s))
	pb := phrases()["en"]
	var b strings.Builder
	b.WriteString("Let me work through the problem step by step.")
	if known && len(info.Steps) > 0 {
		for _, step := range varySteps(info.Steps, rng) {
			b.WriteString(" " + strings.ReplaceAll(pb.Equation, "{eq}", step))
		}
	} else {
		x, y := 2+rng.IntN(98), 2+rng.IntN(98)
		b.WriteString(" " + fill(pb.Steps[1], x, y, x+y, ""))
	}
	ans := boxedForm(info.Answer)
	if !known {
		ans = "0"
	}
	if rng.Float64() >= referenceAccuracy {
		ans = perturb(ans, rng)
	}
	return reply(b.String(), pb.Final+" $\\boxed{"+ans+"}$.")
}

// Reference derivations of a problem differ the way independent solutions
// do, so that reference-side diversity is not trivially perfect: each
// attempt may reorder two independent steps, fold a step into the one that
// uses its result, or add a check of the last step.
const (
	swapRate  = 0.5
	foldRate  = 0.5
	checkRate = 0.35
)

// varySteps returns one attempt's version of a solution's steps ("lhs =
// rhs" equations in LaTeX).
func varySteps(steps []string, rng *rand.Rand) []string {
	out := slices.Clone(steps)
	if len(out) > 2 && rng.Float64() < swapRate {
		i := rng.IntN(len(out) - 2) // never moves the last step
		if !usesResultOf(out[i+1], out[i]) {
			out[i], out[i+1] = out[i+1], out[i]
		}
	}
	if len(out) > 1 && rng.Float64() < foldRate {
		i := rng.IntN(len(out) - 1)
		lhs, rhs, ok := strings.Cut(out[i], " = ")
		for j := i + 1; ok && j < len(out); j++ {
			if later, rest, ok2 := strings.Cut(out[j], " = "); ok2 && usesResultOf(out[j], out[i]) {
				out[j] = replaceNumber(later, strings.TrimSpace(rhs), "("+lhs+")") + " = " + rest
				out = slices.Delete(out, i, i+1)
				break
			}
		}
	}
	if rng.Float64() < checkRate {
		if check, ok := inverseCheck(out[len(out)-1]); ok {
			out = append(out, check)
		}
	}
	return out
}

var numberToken = regexp.MustCompile(`\d+(?:\.\d+)?`)

// usesResultOf reports whether step's left side writes prev's result.
func usesResultOf(step, prev string) bool {
	_, result, ok := strings.Cut(prev, " = ")
	lhs, _, ok2 := strings.Cut(step, " = ")
	if !ok || !ok2 {
		return false
	}
	return slices.Contains(numberToken.FindAllString(lhs, -1), strings.TrimSpace(result))
}

// replaceNumber replaces the first whole-number occurrence of num in s.
func replaceNumber(s, num, with string) string {
	for _, loc := range numberToken.FindAllStringIndex(s, -1) {
		if s[loc[0]:loc[1]] == num {
			return s[:loc[0]] + with + s[loc[1]:]
		}
	}
	return s
}

// inverseCheck turns "a + b = c" into the check "c - b = a" (and likewise
// for -, \times, \div) when the step is a single binary operation.
func inverseCheck(step string) (string, bool) {
	m := binaryStep.FindStringSubmatch(step)
	if m == nil {
		return "", false
	}
	inverse := map[string]string{"+": "-", "-": "+", `\times`: `\div`, `\div`: `\times`}[m[2]]
	return m[4] + " " + inverse + " " + m[3] + " = " + m[1], true
}

var binaryStep = regexp.MustCompile(`^(\d+) (\+|-|\\times|\\div) (\d+) = (\d+)$`)

// reply is a generation that opens and closes its own reasoning block (a
// thinking model answering a chat request).
func reply(reasoning, content string) generation {
	g := generation{Reasoning: "<think>\n" + reasoning + "\n</think>", Answer: "\n\n" + content, FinishReason: "stop", Outcome: OutcomeCorrect}
	g.Tokens = tokenize(g.Text())
	return g
}

// writtenOut is a reply whose reasoning is written out in the answer, as a
// hosted reasoning model that hides its reasoning writes a derivation it
// is asked for; what it reasoned privately is a short plan.
func (g generation) writtenOut() generation {
	body := strings.TrimSuffix(strings.TrimPrefix(g.Reasoning, "<think>\n"), "\n</think>")
	return reply("Plan the derivation.", body+"\n\n"+strings.TrimPrefix(g.Answer, "\n\n"))
}

// reasonedFirst is g as a hosted reasoning model writes it after n tokens
// of reasoning it does not show, cut where its budget (which counts the
// reasoning) runs out: inside the reasoning, the reply has no content.
func (g generation) reasonedFirst(n, budget int) generation {
	plan := strings.TrimSuffix(strings.TrimPrefix(g.Reasoning, "<think>\n"), "\n</think>")
	answer := g.Answer
	if g.Reasoning == "" {
		answer = "\n\n" + answer
	}
	r := reply(strings.Repeat(" step", n)+"\n"+plan, strings.TrimPrefix(answer, "\n\n"))
	out := g
	out.Reasoning, out.Answer, out.Tokens = r.Reasoning, r.Answer, r.Tokens
	if len(out.Tokens) > budget {
		out.Tokens = out.Tokens[:budget]
		out.FinishReason = "length"
		cut := strings.Join(out.Tokens, "")
		if len(cut) <= len(out.Reasoning) {
			out.Reasoning, out.Answer = cut, ""
		} else {
			out.Answer = cut[len(out.Reasoning):]
		}
	}
	return out
}

// jsonReply is a generation that is only a JSON object (or, under faults,
// the object fenced, or cut off).
func jsonReply(obj string, rng *rand.Rand, f ContentFaults) generation {
	switch u := rng.Float64(); {
	case u < f.Malformed:
		obj = obj[:len(obj)/2]
	case u < f.Malformed+f.Fenced:
		obj = "Here is the result.\n```json\n" + obj + "\n```\nLet me know if anything is unclear."
	}
	g := generation{Answer: obj, FinishReason: "stop", Outcome: OutcomeCorrect}
	g.Tokens = tokenize(obj)
	return g
}

// dag answers a DAG-construction request with the symbolic DAG of the
// derivation it quotes. repair marks a repair request, which always gets a
// valid DAG.
func (m *model) dag(history string, repair bool, s sampling, f ContentFaults) generation {
	derivation, _ := prompts.Between(history, "DERIVATION")
	final, _ := prompts.Between(history, "FINAL")
	rng := rand.New(seedFor(prompts.DAGSystem(), history, "", s))
	ans := ""
	if box, ok := answer.LastBoxed(final); ok {
		ans = box
	}
	d := followGuidance(datg.SymbolicDAG(derivation, ans), history)
	if !repair && len(d.Nodes) > 1 && rng.Float64() < f.Cycle {
		d.Nodes[0].Parents = append(d.Nodes[0].Parents, d.Nodes[len(d.Nodes)-1].NodeID)
	}
	if repair {
		f.Malformed = 0
	}
	return jsonReply(datg.EncodeJSON(d), rng, f)
}

// align answers an alignment request with the symbolic alignment of the
// trace to the DAG it quotes, with content faults injected.
func (m *model) align(history string, s sampling, f ContentFaults) generation {
	dagText, _ := prompts.Between(history, "DAG")
	trace, _ := prompts.Between(history, "TRACE")
	rng := rand.New(seedFor(prompts.AlignSystem(), history, "", s))
	d, err := datg.ParseDAG(dagText)
	if err != nil {
		return jsonReply(`{"audit_results": {}}`, rng, f)
	}
	a := datg.SymbolicAlign(trace, d)
	if rng.Float64() < f.UnknownNode {
		a.AuditResults["n99"] = []datg.Event{{Status: string(study.Commit), Evidence: "x", EvidenceSpan: "x"}}
	}
	// Faults are drawn node by node in a fixed order: the same request gets
	// the same reply.
	for _, id := range slices.Sorted(maps.Keys(a.AuditResults)) {
		evs := a.AuditResults[id]
		for i := range evs {
			if rng.Float64() < f.AbsentSpan {
				evs[i].EvidenceSpan = "a sentence that appears nowhere in the trace"
			}
			if rng.Float64() < f.BadStatus {
				evs[i].Status = "PARTIAL"
			}
		}
	}
	return jsonReply(datg.EncodeJSON(a), rng, f)
}
