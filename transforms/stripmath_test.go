package transforms

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// stripMathRegexp is StripMath as it was (a regular expression replaced
// all over): the oracle the one-pass scanner is checked against.
var stripMathRegexp = regexp.MustCompile(`(?s)\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|\$[^$]*?\$`)

func oldStripMath(s string) string { return stripMathRegexp.ReplaceAllString(s, " ") }

// Texts made of math delimiters and a little prose, in every order: what
// the scanner's cases and its remembered closers must get right.
func TestStripMathIsTheRegexp(t *testing.T) {
	pieces := []string{"$", "$$", `\[`, `\]`, `\(`, `\)`, `\`, "x", " ", "\n", "é", "数", "\xff", "[", "("}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200_000; n++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := StripMath(s), oldStripMath(s); got != want {
			t.Fatalf("StripMath(%q) = %q, the regexp gives %q", s, got, want)
		}
	}
	for _, s := range []string{"", "no math", "$$", "$$$", "$$$$", "$a$$b$", `\[ \( \] \)`, strings.Repeat(`\[`, 1000), strings.Repeat("$$ x ", 999)} {
		if got, want := StripMath(s), oldStripMath(s); got != want {
			t.Errorf("StripMath(%q) = %q, the regexp gives %q", s, got, want)
		}
	}
}

func FuzzStripMath(f *testing.F) {
	for _, s := range []string{"tuna $x = 3$ na $$y=4$$ \\(z\\) \\[w\\].", "$$ $ $$", `\[\(\]\)`, "$\xff$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := StripMath(s), oldStripMath(s); got != want {
			t.Fatalf("StripMath(%q) = %q, the regexp gives %q", s, got, want)
		}
	})
}
