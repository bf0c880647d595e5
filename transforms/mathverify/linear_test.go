package mathverify

import (
	"fmt"
	"strings"
	"testing"
)

// adversarialTexts are generations built to make extraction's work grow
// faster than the text: Math-Verify's delimiters opened and never closed
// ($, $$, \(, \[, " [", \boxed{), boxes and their separators, runs of
// digits, operators and spaces that its number and expression patterns
// read, the answer phrases its patterns start at, units at the end. Each
// makes a text of about n bytes.
var adversarialTexts = map[string]func(n int) string{
	"unclosed-boxed":         repeatTo(`\boxed{`),
	"unclosed-boxed-value":   repeatTo(`\boxed{1`),
	"unclosed-fbox":          repeatTo(`\fbox {`),
	"boxes-joined":           repeatTo(`\boxed{1}, `),
	"boxes-in-math":          repeatTo(`$\boxed{1}$ and `),
	"boxes-in-brackets":      repeatTo(`\[\boxed{1} `),
	"closed-nested-boxes":    func(n int) string { return strings.Repeat(`\boxed{`, n/8) + strings.Repeat("}", n/8) },
	"braces":                 repeatTo("{"),
	"dollars":                repeatTo("$"),
	"inline-math":            repeatTo("$x"),
	"display-math":           repeatTo("$$x"),
	"open-parens":            repeatTo(`\(`),
	"open-brackets":          repeatTo(`\[x`),
	"brackets-and-parens":    repeatTo(`\[x \(y\) `),
	"space-brackets":         repeatTo(" [x"),
	"frac":                   repeatTo(`\frac{`),
	"begin":                  repeatTo(`\begin{`),
	"text":                   repeatTo(`\text{`),
	"backslashes":            repeatTo(`\\`),
	"bold":                   repeatTo("**"),
	"digits":                 repeatTo("1"),
	"digit-groups":           repeatTo("1,"),
	"spaced-digits":          repeatTo("1 "),
	"sums":                   repeatTo(" 1 + "),
	"equations":              repeatTo("= 1 "),
	"spaces":                 repeatTo("  "),
	"final-answer":           repeatTo("final answer "),
	"answer-is":              repeatTo("the answer is "),
	"answer-colon":           repeatTo("answer: 1 "),
	"answer-math":            repeatTo("Answer: $"),
	"permutations":           repeatTo("(1 2)_{"),
	"malformed-powers":       repeatTo("^ ("),
	"malformed-roots":        repeatTo("sqrt ("),
	"failed-latex":           repeatTo(`$\foo 1$ `),
	"math-then-unit":         func(n int) string { return "$" + strings.Repeat("1 ", n/2) + " feet$" },
	"boxed-spaces-then-unit": func(n int) string { return `\boxed{1` + strings.Repeat(" ", n) + "m}" },
}

func repeatTo(unit string) func(n int) string {
	return func(n int) string { return strings.Repeat(unit, n/len(unit)+1)[:n] }
}

// extractionWork is the work of grading text as verify and answers check
// do (the gold parsed once), and whether its extraction ran out of budget.
func extractionWork(gold Gold, text string) (work int, aborted bool) {
	workUnits = &work
	defer func() { workUnits = nil }()
	aborted = extract(text).aborted
	gold.Grade(text)
	return work, aborted
}

// Issue 19: extraction is linear. Math-Verify's regexes backtrack, quadratic
// on a delimiter opened again and again without its closing one (and run
// under a 5-second timeout); the old matcher, a plain backtracker, was cut
// at 4 million steps, so a long trace, hostile or not, got no answer after
// seconds of work. On every adversarial text the work of a text four times
// longer is at most about four times the work, at most a constant per
// rune, and never reaches the budget.
func TestExtractionWorkIsLinear(t *testing.T) {
	const n = 5_000
	gold := NewGold("18")
	for name, make := range adversarialTexts {
		small, abortedSmall := extractionWork(gold, make(n))
		large, abortedLarge := extractionWork(gold, make(4*n))
		if abortedSmall || abortedLarge {
			t.Errorf("%s: extraction ran out of budget", name)
		}
		if large > 5*small || large > maxWorkPerRune*4*n {
			t.Errorf("%s: work %d at %d bytes, %d at %d (%.1f times, %.0f a byte)", name, small, n, large, 4*n,
				float64(large)/float64(small), float64(large)/float64(4*n))
		}
	}
}

// maxWorkPerRune bounds the work of extracting from a text, per rune.
const maxWorkPerRune = 2000

// A 560 KB trace of repeated unclosed \boxed{, one of \( and \[ never
// closed (which overflowed the old matcher's 1 GB goroutine stack: a fatal
// error, the whole verify run lost), and a long ordinary trace ending in
// its boxed answer are read in work linear in their length, and the
// ordinary one gets its answer.
func TestLongTracesAt560KB(t *testing.T) {
	gold := NewGold("1344")
	line := "Tukijumlisha $12 + 30 = 42$ na \\(x = 7\\), kisha 1,234 + 5 = 1239. "
	for name, text := range map[string]string{
		"unclosed boxes":      repeatTo(`\boxed{`)(560_000),
		"unclosed parens":     repeatTo(`\(`)(560_000),
		"brackets and parens": adversarialTexts["brackets-and-parens"](560_000),
		"ordinary":            strings.Repeat(line, 560_000/len(line)) + "\nJibu la mwisho ni $\\boxed{1344}$.",
	} {
		work, aborted := extractionWork(gold, text)
		if aborted || work > maxWorkPerRune*len([]rune(text)) {
			t.Errorf("%s: %d runes, work %d, out of budget %v", name, len([]rune(text)), work, aborted)
		}
		if v := gold.Grade(text); name == "ordinary" && !v.Correct {
			t.Errorf("%s: %+v", name, v)
		}
	}
}

// BenchmarkAdversarial grades adversarial texts of 10k, 40k, 160k and 560k
// bytes against a parsed gold, as verify does:
//
//	go test ./transforms/mathverify -run '^$' -bench Adversarial -benchtime 1x
func BenchmarkAdversarial(b *testing.B) {
	gold := NewGold("18")
	for _, name := range []string{"unclosed-boxed", "boxes-joined", "open-parens", "brackets-and-parens", "final-answer"} {
		for _, n := range []int{10_000, 40_000, 160_000, 560_000} {
			text := adversarialTexts[name](n)
			b.Run(fmt.Sprintf("%s/%dk", name, n/1000), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					gold.Grade(text)
				}
			})
		}
	}
}
