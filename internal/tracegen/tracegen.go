// Package tracegen writes synthetic reasoning traces shaped like long
// model traces, for benchmarks, differential tests and scripts/scale.sh:
// paragraphs of given prose with inline math ($...$, \(...\)) inside the
// sentences and displayed math ($$...$$, \[...\]) between them,
// intermediate results ("= 42", "so x = 3"), English sentences mixed in,
// and, unless the trace was cut at its budget, the end of thinking and a
// final answer in one of the forms models write (boxed, in display math,
// after "Answer:", after "final answer is"). The prose is the caller's;
// math is put only between its own $...$ spans, never in one, so that
// every trace is valid TeX (a viewer renders it: math nested in math was
// shown as an error).
package tracegen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Trace describes one trace to write.
type Trace struct {
	Prose   []string // paragraphs in the trace's language
	English []string // paragraphs mixed in now and then (may be empty)
	Bytes   int      // about how long the reasoning is
	Cut     bool     // the budget cut it: no end of thinking, no answer
	Answer  string   // the final answer, e.g. "140,892" or `\frac{3}{4}`
	Seed    uint64
}

var (
	inline = []string{
		"$x = %d$", `$\frac{%d}{7}$`, `\(n^2 + %d\)`, `$a_{%d} \le b$`, `$\sqrt{%d}$`,
		"$%d + 30 = 42$", `$\boxed{%d}$`, `$%d \times 12$`,
	}
	display = []string{
		`$$\sum_{k=1}^{%d} k^2 = \frac{n(n+1)(2n+1)}{6}$$`,
		`\[ f(x) = x^{%d} - 3x + 1 \]`,
		`$$%d \times 12 = 3{,}240$$`,
		"\\[\n\\begin{aligned}\nS &= %d + 17 \\\\\n&= 42\n\\end{aligned}\n\\]",
	}
	steps = []string{
		"So the total is %d.", "That gives %d.", "Then %d - 3 = 39.", "Hence the answer would be %d, but let me check.",
		"Wait, %d is not right.", "= %d", "**%d**",
	}
	finals = []string{
		"\n</think>\n\nThe final answer is $\\boxed{%s}$.",
		"\n</think>\n\n**Final Answer**\n\\[\n\\boxed{%s}\n\\]",
		"\n</think>\n\nAnswer: %s",
		"\n</think>\n\nSo the answer is $%s$.",
		"\n</think>\n\nThe final answer is %s. I hope it is correct.",
	}
)

// Write returns the trace's text, starting with <think>.
func Write(t Trace) string {
	rng := rand.New(rand.NewPCG(t.Seed, 0x5ca1e))
	var b strings.Builder
	b.Grow(t.Bytes + 256)
	b.WriteString("<think>\n")
	for b.Len() < t.Bytes {
		p := t.Prose[rng.IntN(len(t.Prose))]
		if len(t.English) > 0 && rng.IntN(8) == 0 {
			p = t.English[rng.IntN(len(t.English))]
		}
		inMath := false // inside the prose's own $...$: no math goes in it
		for i, w := range strings.Fields(p) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			inMath = inMath != (strings.Count(w, "$")%2 == 1)
			if rng.IntN(25) == 0 && !inMath {
				fmt.Fprintf(&b, " "+inline[rng.IntN(len(inline))], rng.IntN(1000))
			}
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, " "+steps[rng.IntN(len(steps))], rng.IntN(100000))
		}
		b.WriteString("\n\n")
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, display[rng.IntN(len(display))]+"\n\n", rng.IntN(100))
		}
	}
	if !t.Cut {
		fmt.Fprintf(&b, finals[rng.IntN(len(finals))], t.Answer)
	}
	return b.String()
}
