package mathverify

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// everyPattern is every pattern the package matches with: the extraction
// targets' and normalization's.
func everyPattern() []*pattern {
	var out []*pattern
	for _, p := range allPatterns() {
		out = append(out, p.p)
	}
	out = append(out, reLeft(), reRight(), rePermutation(), reToRemove(), reReplace(), reUnitSup())
	for _, f := range reMalformed() {
		out = append(out, f.p)
	}
	return out
}

// refSpans is refFindAll, or an error when the old matcher ran out of its
// budget.
func refSpans(p *pattern, rs []rune) (spans []span, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(budgetExceeded); !ok {
				panic(r)
			}
			err = errors.New("budget")
		}
	}()
	return p.refFindAll(&refMatcher{rs: rs}), nil
}

// sameSpans compares two finditer results, groups included.
func sameSpans(a, b []span) bool {
	return slices.EqualFunc(a, b, func(x, y span) bool {
		return x.start == y.start && x.end == y.end && slices.Equal(x.caps, y.caps) && x.pat == y.pat
	})
}

// patternTokens make random texts that exercise every pattern: delimiters
// open and closed, boxes, answer phrases, numbers, operators, units.
var patternTokens = []string{"$", "$$", `\(`, `\)`, `\[`, `\]`, " [", "] ", `\boxed{`, `\fbox{`, "{", "}", `\`, "\n", " ", "  ",
	"final answer is", "Final Answer", " is ", "answer:", "Answer", " = ", "=", "I hope", ", and ", " or ", ",", ".", ":", "**",
	"1", "23", "4,567", "0.5", ",5", "-", "+", "*", "/", "^", "(", ")", "x", "%", " percent", "pct", `\%`, "€",
	`\frac{1}{2}`, `\frac`, `\left(`, `\right)`, `\text{cm}`, `\mbox{ m}^2`, "sqrt(", `\log_2 8`, "(1 2 3)_{4}",
	`\mathrm{th}`, "٣", "১৮", "é"}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(patternTokens[rng.IntN(len(patternTokens))])
	}
	return b.String()
}

// The compiled matcher finds what the old backtracking matcher found,
// groups included, with every pattern, on the graders' test cases and on
// random texts of the patterns' pieces (where the old one stayed within
// its budget).
func TestPatternsMatchAsBefore(t *testing.T) {
	texts := corpusTexts(t)
	rng := rand.New(rand.NewPCG(19, 20))
	for range 3000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(60)))
	}
	patterns := everyPattern()
	found, skipped := 0, 0
	for _, text := range texts {
		rs := []rune(text)
		for pi, p := range patterns {
			want, err := refSpans(p, rs)
			if err != nil {
				skipped++
				continue
			}
			got := p.findAll(newMatcher(rs))
			if !sameSpans(got, want) {
				t.Fatalf("pattern %d on %q:\n got %s\nwant %s", pi, text, showSpans(got), showSpans(want))
			}
			found += len(got)
		}
	}
	if found < 20000 || skipped > len(texts) {
		t.Fatalf("%d matches compared, %d (text, pattern) pairs skipped over the old budget", found, skipped)
	}
}

func showSpans(ss []span) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("[%d,%d)%v", s.start, s.end, s.caps))
	}
	return strings.Join(parts, " ")
}

// FuzzPatternsMatchAsBefore: on any text every pattern matches as the old
// matcher did (within its budget), in work linear in the text.
func FuzzPatternsMatchAsBefore(f *testing.F) {
	for _, s := range []string{`The final answer is $\boxed{18}$. I hope it is correct.`, `\[x \(y\) \[x`, "answer: 1 2 = 3", `$\boxed{\boxed{$`} {
		f.Add(s)
	}
	patterns := everyPattern()
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 {
			return
		}
		rs := []rune(text)
		for pi, p := range patterns {
			m := newMatcher(rs)
			got := p.findAll(m)
			if m.steps > 500*len(rs)+5000 {
				t.Fatalf("pattern %d took %d steps on %d runes", pi, m.steps, len(rs))
			}
			if want, err := refSpans(p, rs); err == nil && !sameSpans(got, want) {
				t.Fatalf("pattern %d on %q:\n got %s\nwant %s", pi, text, showSpans(got), showSpans(want))
			}
		}
	})
}
