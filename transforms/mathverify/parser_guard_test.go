package mathverify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// dumpNode writes every field of a parsed value, so two parses compare
// exactly (String() rounds floats and drops flags).
func dumpNode(b *strings.Builder, n *node) {
	if n == nil {
		b.WriteString("nil")
		return
	}
	fmt.Fprintf(b, "(%d", n.k)
	if n.rat != nil {
		b.WriteString(" " + n.rat.String())
	}
	if n.k == kFloat {
		fmt.Fprintf(b, " f%x", math.Float64bits(n.f))
	}
	fmt.Fprintf(b, " %q %q %v %v %d %d %v", n.name, n.op, n.lopen, n.ropen, n.rows, n.cols, n.undef)
	for _, a := range n.args {
		b.WriteByte(' ')
		dumpNode(b, a)
	}
	b.WriteByte(')')
}

// parseDump is parseLatex's answer, every field of it, with the doomed
// tries skipped or not.
func parseDump(src string, skip bool) string {
	defer func(was bool) { skipDoomedTries = was }(skipDoomedTries)
	skipDoomedTries = skip
	v, err := parseLatex(src)
	var b strings.Builder
	if err != nil {
		b.WriteString("error: " + err.Error())
	}
	dumpNode(&b, v)
	return b.String()
}

// latexTokens build random LaTeX that reaches every alternative the
// guards skip: elements with and without \pm, sets, intervals, tuples,
// functions with and without parentheses, relations.
var latexTokens = []string{"1", "23", "4.5", "140,892", "-", "+", `\pm`, `\mp`, ",", ";", "(", ")", "[", "]", `\{`, `\}`,
	"{", "}", `\frac{1}{2}`, `\sqrt{2}`, `\sqrt[3]{8}`, "x", "y", "k", `\pi`, `\alpha`, `\sin`, `\log`, `\ln`, `\max`, `\gcd`,
	"f", "(x)", "=", "<", `\le`, `\geq`, `\in`, `\notin`, `\cup`, `\cap`, `\setminus`, `\mathbb{R}`, `\emptyset`, `\infty`,
	"^", "_", "2", "!", "|", `\cdot`, `\times`, "/", `\boxed{`, `\left(`, `\right)`, `\lbrack`, `\rbrack`, " ", `\%`, "%",
	`\operatorname{lcm}`, `\sum_{i=1}^{n}`, "i", `e^`, `\text{ cm}`, `\begin{pmatrix}1 & 2\\3 & 4\end{pmatrix}`, `\approx`}

// latexSamples are the corpus's texts and their normalizations, and
// random LaTeX of latexTokens.
func latexSamples(t testing.TB, random int) []string {
	var out []string
	for _, text := range corpusTexts(t) {
		out = append(out, text, normalizeLatex(text, boxedAll))
		if content, ok := boxedContent([]rune(text), boxedLast); ok {
			out = append(out, content, normalizeUnboxed(content))
		}
	}
	rng := rand.New(rand.NewPCG(23, 27))
	for range random {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(latexTokens[rng.IntN(len(latexTokens))])
		}
		out = append(out, b.String())
	}
	return out
}

// The parser that skips the tries that must fail reads every text as the
// one that tries everything: the same value, field by field, or the same
// error.
func TestParserSkipsOnlyDoomedTries(t *testing.T) {
	parsed := 0
	samples := latexSamples(t, 40000)
	for _, src := range samples {
		got, want := parseDump(src, true), parseDump(src, false)
		if got != want {
			t.Fatalf("parseLatex(%q) skipping doomed tries:\n%s\ntrying all:\n%s", src, got, want)
		}
		if !strings.HasPrefix(got, "error") {
			parsed++
		}
	}
	t.Logf("%d of %d texts parsed", parsed, len(samples))
	if parsed < 8000 {
		t.Fatalf("only %d texts parsed: the samples do not exercise the parser", parsed)
	}
}

func FuzzParserSkipsOnlyDoomedTries(f *testing.F) {
	for _, s := range []string{"140,892", `\frac{3}{4}`, `3\sqrt{2}`, `x \pm 2`, `\{1, 2\} \cup [3, 4)`, `\sin(x)^2`, `(1, 2); (3, 4)`, `f(x) = 2x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 500 {
			return
		}
		if got, want := parseDump(src, true), parseDump(src, false); got != want {
			t.Fatalf("parseLatex(%q) skipping doomed tries:\n%s\ntrying all:\n%s", src, got, want)
		}
	})
}

// lexBoth is lex's tokens (or error) with texts cut from the source and
// built from runes.
func lexBoth(src string) (cut, built string) {
	defer func(was bool) { lexTextFromRunes = was }(lexTextFromRunes)
	show := func() string {
		toks, err := lex(src)
		return fmt.Sprintf("%q %v", toks, err)
	}
	lexTextFromRunes = false
	cut = show()
	lexTextFromRunes = true
	return cut, show()
}

// Token texts cut from the source are the texts built from the runes.
func TestLexCutsTokensAsBuilt(t *testing.T) {
	for _, src := range append(latexSamples(t, 20000), "\xff1", "1\xffx", "é\u00a0+\u2009π", `\frac{1}{2}`+"\xe2\x82") {
		if cut, built := lexBoth(src); cut != built {
			t.Fatalf("lex(%q): cut from the source %s, built from runes %s", src, cut, built)
		}
	}
}

func FuzzLexCutsTokensAsBuilt(f *testing.F) {
	for _, s := range []string{"140,892", `\frac{3}{4}`, `3\sqrt{2}`, "é π", "\xff1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if cut, built := lexBoth(src); cut != built {
			t.Fatalf("lex(%q): cut from the source %s, built from runes %s", src, cut, built)
		}
	})
}
