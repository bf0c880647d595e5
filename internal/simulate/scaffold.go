package simulate

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"

	"github.com/datg/datg/prompts"
	"github.com/datg/datg/transforms/scaffold"
)

// scaffoldSystems maps Formula-Retry's system message, rendered for each
// language once, to the language its phase 2 asks for.
var scaffoldSystems = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, l := range prompts.Languages() {
		m[prompts.ScaffoldSystem(prompts.ScaffoldInput{Language: l.Name})] = l.Code
	}
	return m
})

// scaffoldLanguage tells Formula-Retry's system message apart and returns
// the language its phase 2 asks for.
func scaffoldLanguage(system string) (string, bool) {
	code, ok := scaffoldSystems()[system]
	return code, ok
}

var questionNumber = regexp.MustCompile(`\d+(?:[.,]\d+)?`)

// scaffold writes the execution state of phase 1 after "Known:\n-": the
// question's numbers as given quantities, and the solution's steps (when
// known) with their results masked. At the ScaffoldLeak rate it disobeys
// and gives the result away, as models do; it then closes the block and,
// unless the request stops there, starts phase 2.
func (m *model) scaffold(user, lang string, s sampling, f ContentFaults) generation {
	info, known := m.key[normQuestion(user)]
	rng := rand.New(seedFor("scaffold", user, lang, s))
	var b strings.Builder
	for i, n := range questionNumber.FindAllString(user, 8) {
		if i > 0 {
			b.WriteString("\n-")
		}
		fmt.Fprintf(&b, " q%d = %s", i+1, n)
	}
	b.WriteString("\n\nPlan:")
	for i, step := range info.Steps {
		masked := step
		if j := strings.LastIndex(step, "="); j >= 0 {
			masked = step[:j+1] + " ?"
		}
		fmt.Fprintf(&b, "\n- s%d = %s", i+1, masked)
	}
	if len(info.Steps) == 0 {
		b.WriteString("\n- result = combine(q1, q2) = ?")
	}
	if known && rng.Float64() < f.ScaffoldLeak {
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "\n- Final answer: %s", boxedForm(info.Answer))
		case 1:
			fmt.Fprintf(&b, "\n- so the result is \\boxed{%s}", boxedForm(info.Answer))
		default:
			fmt.Fprintf(&b, "\n- total = q1 + q2 = %s", boxedForm(info.Answer))
		}
	}
	b.WriteString("\n" + scaffold.Close + "\n")
	if l, err := prompts.Lookup(lang); err == nil {
		b.WriteString(l.Prefix)
	}
	text := b.String()
	return generation{Reasoning: text, Tokens: tokenize(text), FinishReason: "stop", Outcome: "scaffold", ReasoningLang: lang, Level: info.Level}
}

// stopAt ends the generation before the first of the stop strings, as a
// server does (the stop string is not returned).
func (g generation) stopAt(stops []string) generation {
	if len(stops) == 0 {
		return g
	}
	text := g.Text()
	cut, stop := -1, ""
	for _, st := range stops {
		if i := strings.Index(text, st); st != "" && i >= 0 && (cut < 0 || i < cut) {
			cut, stop = i, st
		}
	}
	if cut < 0 {
		return g
	}
	g.FinishReason, g.StopReason = "stop", stop
	if cut <= len(g.Reasoning) {
		g.Reasoning, g.Answer = g.Reasoning[:cut], ""
	} else {
		g.Answer = g.Answer[:cut-len(g.Reasoning)]
	}
	g.Tokens = tokenize(g.Text())
	return g
}
