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

// TestStripMathAndCountIsBoth compares StripMathAndCount with StripMath
// (itself checked against the regular expression) and LettersAndLength of
// its result, on 200,000 texts of delimiters, letters of one to three
// bytes, invalid UTF-8 and ASCII runs (so delimiters fall at every place of
// the eight bytes read at once), and on the written sentences of
// TestLettersAndLengthIsTheDefinition's kinds.
func TestStripMathAndCountIsBoth(t *testing.T) {
	pieces := []string{"$", "$$", `\[`, `\]`, `\(`, `\)`, `\`, "x", "Q", " ", "\n", "é", "数", "\xff", "\xe4\xb8", "[", "(", "abcdefg", "12 + 3", "😀", "ー"}
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(s string) {
		t.Helper()
		got, letters, length, valid := StripMathAndCount(s)
		want := StripMath(s)
		wl, wn, wv := LettersAndLength(want)
		if got != want || letters != wl || length != wn || valid != wv {
			t.Fatalf("StripMathAndCount(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", s, got, letters, length, valid, want, wl, wn, wv)
		}
	}
	for n := 0; n < 200_000; n++ {
		var b strings.Builder
		for k := rng.IntN(40); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
	for _, s := range []string{"", "no math at all, and long enough", "$$", "$$$", "$a$$b$", `\[ \( \] \)`, strings.Repeat(`\[`, 100), strings.Repeat("$$ x ", 99),
		"Tuna $x = 3$ na $$y=4$$ \\(z\\) \\[w\\]. Kisha 数学 é.", "abcdefg$x$abcdefg\\(y\\)abcdefgh"} {
		check(s)
	}
}

func FuzzStripMathAndCount(f *testing.F) {
	for _, s := range []string{"tuna $x = 3$ na $$y=4$$ \\(z\\) \\[w\\].", "$$ $ $$", `\[\(\]\)`, "$\xff$", "abcdefg$x$abcdefg"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, letters, length, valid := StripMathAndCount(s)
		want := StripMath(s)
		wl, wn, wv := LettersAndLength(want)
		if got != want || letters != wl || length != wn || valid != wv {
			t.Fatalf("StripMathAndCount(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", s, got, letters, length, valid, want, wl, wn, wv)
		}
	})
}
