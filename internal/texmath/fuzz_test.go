package texmath

import (
	"strings"
	"testing"
)

// workBound is the most bytes Split may look at for a text of n bytes:
// the main walk, one pass of each of its five finders, the brace matching
// and the reading of spaced formulas, each at most n.
func workBound(n int) int { return 10*n + 64 }

// splitWork is Split's segments and the bytes it looked at.
func splitWork(text string) ([]Segment, int) {
	sc := scanner{s: text}
	sc.run()
	return sc.out, sc.work
}

// hostile are texts of 500 KB that a looping model writes, each built to
// make a naive scanner quadratic (an opener whose closer search fails, once
// per opener).
func hostile() map[string]string {
	const size = 500 << 10
	rep := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return map[string]string{
		"dollars":            rep("$"),
		"tight openers":      rep("$a "),
		"spaced openers":     rep("$ 1 "),
		"price pairs":        rep("$1 and $2 "),
		"paren openers":      rep(`\(`),
		"bracket openers":    rep(`\[x`),
		"display openers":    rep("$$x"),
		"boxed openers":      rep(`\boxed{`),
		"boxed then closers": rep(`\boxed{`) + rep("}"),
		"open braces":        rep("{"),
		"blank lines":        rep("$a\n\n"),
		"line breaks":        rep("$a\n \n b$"),
		"escapes":            rep(`\$`),
		"backslashes":        rep(`\`),
		"long formula":       "$" + rep("x") + "$",
		"long spaced":        "$ " + rep("1+") + " $",
		"many formulas":      rep(`$x$ \(y\) \boxed{z} `),
	}
}

// Split looks at each byte of a hostile text a bounded number of times:
// linear time, counted (BenchmarkSplit has the seconds).
func TestSplitIsLinearOnHostileText(t *testing.T) {
	for name, text := range hostile() {
		segs, work := splitWork(text)
		if work > workBound(len(text)) {
			t.Errorf("%s: %d bytes looked at for %d bytes of text", name, work, len(text))
		}
		checkTiling(t, text, segs)
	}
}

// FuzzSplit checks, besides not panicking: the segments tile the text,
// Split's work is linear, HTML is well-formed XML with one element per math
// segment, and a math span's TeX and a text's HTML come back out of it.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"Let $x$ and $y$ be integers such that $$x=y + 2$$",
		`$ a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} $ and \boxed{18}`,
		`\(x\) \[y\] \$5 \\(z\) $5 and $10`,
		"$a\n\n$ {{}} \\boxed{{}",
		"<script>$</script>$ & \xff",
		`the number of boxes is \lceil 900 / 20 \rceil = 45 in all`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		segs, work := splitWork(text)
		checkTiling(t, text, segs)
		if work > workBound(len(text)) {
			t.Fatalf("%d bytes looked at for %d bytes of text %q", work, len(text), text)
		}
		math := 0
		for _, s := range segs {
			if s.Math {
				math++
			}
		}
		if err := wellFormed(string(HTML(text)), math); err != nil {
			t.Fatalf("HTML(%q) = %s: %v", text, HTML(text), err)
		}
		checkTiling(t, text, SplitAnchor(text))
	})
}

// Benchmark: a trace of 16 KB with formulas, and the hostile texts.
func BenchmarkSplit(b *testing.B) {
	trace := strings.Repeat(`We have $a + 2b = \sqrt{2}$, so \(x^2 = 4\) and $$\frac{a}{b} = 3$$; it costs $5. `, 200)
	cases := map[string]string{"trace 16KB": trace}
	for name, text := range hostile() {
		cases["hostile "+name] = text
	}
	for name, text := range cases {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Split(text)
			}
		})
	}
}
