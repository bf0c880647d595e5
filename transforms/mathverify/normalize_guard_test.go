package mathverify

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// guardedSubs pairs each guarded substitution's pattern with its guard.
func guardedSubs() map[string]struct {
	may func(string) bool
	p   *pattern
} {
	out := map[string]struct {
		may func(string) bool
		p   *pattern
	}{
		"left":        {mayMatchLeft, reLeft()},
		"right":       {mayMatchRight, reRight()},
		"permutation": {mayMatchPermutation, rePermutation()},
		"toRemove":    {mayMatchToRemove, reToRemove()},
		"replace":     {mayMatchReplace, reReplace()},
		"unitSup":     {mayMatchUnitSup, reUnitSup()},
	}
	for i, f := range reMalformed() {
		out["malformed"+string(rune('0'+i))] = struct {
			may func(string) bool
			p   *pattern
		}{func(text string) bool { return strings.Contains(text, f.need) }, f.p}
	}
	return out
}

// normalizeTriggers are pieces of text each substitution matches on (and
// near misses), spaces of several kinds, and plain answers.
var normalizeTriggers = []string{"1", "23", "140,892", "0.5", ".5", "x", "-", "/", "3/4", " ", "  ", "\u00a0", "\u2009", "\t", "\n", "\\",
	`\left(`, `\mleft[`, `\right)`, `\mright]`, "left", "right", "(1+2)_{3}", "(a)_{b}", ")_{", "$", `\$`, "'", `"`, `\!`, `\! `,
	`\text{ }`, `\text{}`, `\mathrm{th}`, `\displaystyle`, `\mathrm{`, `\mathbf{`, `\textbf{`, `\textit`, `\dfrac`, `\tfrac`,
	`\cfrac`, `\frac`, " .", "{.", "~=", "{ , }", "{,}", " and ", "and", " or ", ", or", "band", "\\ ", `\text{ and }`,
	"infinity", "inf", `\inf`, `\ldots`, ",\\ldots", " percent", "percentage", "pct", `\text{percent}`, " sqrt", "sqrt(2)",
	"^(2)", "^ (x)", `\frac12`, `\frac 1 2`, `\frac{1}2`, `\frac1{2}`, `\log_2 8`, `\sqrt2`, `\sqrt 3`, `\mbox{cm}^2`,
	`\text{ cm}`, "{", "}", ",", "cm", " m", "feet", "°", "\xff", "π"}

// normalizeSamples are the corpus's texts, their box contents, and random
// texts of normalizeTriggers.
func normalizeSamples(t testing.TB, random int) []string {
	var out []string
	for _, text := range corpusTexts(t) {
		out = append(out, text)
		if content, ok := boxedContent([]rune(text), boxedLast); ok {
			out = append(out, content)
		}
	}
	rng := rand.New(rand.NewPCG(29, 31))
	for range random {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(normalizeTriggers[rng.IntN(len(normalizeTriggers))])
		}
		out = append(out, b.String())
	}
	return out
}

// Every guard is a necessary condition: where it says no, its pattern
// finds nothing. Each pattern must also match somewhere, or the samples
// would not test its guard.
func TestNormalizationGuardsAreNecessary(t *testing.T) {
	samples := normalizeSamples(t, 50000)
	for name, g := range guardedSubs() {
		matched := 0
		for _, text := range samples {
			rs := []rune(text)
			m := newMatcher(rs)
			spans := g.p.findAll(m)
			m.release()
			if len(spans) > 0 {
				matched++
				if !g.may(text) {
					t.Fatalf("%s: the guard skips %q, where the pattern matches %q", name, text, string(rs[spans[0].start:spans[0].end]))
				}
			}
		}
		if matched < 50 {
			t.Errorf("%s: the pattern matched only %d samples", name, matched)
		}
	}
}

// normalizeBoth is normalizeUnboxed with the guards and without.
func normalizeBoth(text string) (guarded, all string) {
	defer func(was bool) { skipDoomedSubs = was }(skipDoomedSubs)
	skipDoomedSubs = true
	guarded = normalizeUnboxed(text)
	skipDoomedSubs = false
	return guarded, normalizeUnboxed(text)
}

// Normalization gives the same text with the guards as without.
func TestNormalizationGuardsChangeNothing(t *testing.T) {
	changed := 0
	for _, text := range normalizeSamples(t, 50000) {
		got, want := normalizeBoth(text)
		if got != want {
			t.Fatalf("normalizeUnboxed(%q) = %q with the guards, %q without", text, got, want)
		}
		if got != text {
			changed++
		}
	}
	if changed < 10000 {
		t.Fatalf("only %d samples changed: they do not exercise normalization", changed)
	}
}

func FuzzNormalizationGuards(f *testing.F) {
	for _, s := range []string{"140,892", `\frac{3}{4}`, `3\sqrt{2}`, `\left( 1, 2 \right)`, `5 \text{ cm}^2`, "x and y", `\$12.5`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 300 {
			return
		}
		for name, g := range guardedSubs() {
			rs := []rune(text)
			m := newMatcher(rs)
			spans := g.p.findAll(m)
			m.release()
			if len(spans) > 0 && !g.may(text) {
				t.Fatalf("%s: the guard skips %q, where the pattern matches", name, text)
			}
		}
		if got, want := normalizeBoth(text); got != want {
			t.Fatalf("normalizeUnboxed(%q) = %q with the guards, %q without", text, got, want)
		}
		if got, want := removeTrailingUnit(text), refRemoveTrailingUnit(text); got != want {
			t.Fatalf("removeTrailingUnit(%q) = %q, before %q", text, got, want)
		}
	})
}
