package texmath

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// piece is a segment as the tests write it: "t:" text or "m:"/"d:" inline
// or display math holding the TeX.
func pieces(segs []Segment) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		switch {
		case s.Display:
			out[i] = "d:" + s.Text
		case s.Math:
			out[i] = "m:" + s.Text
		default:
			out[i] = "t:" + s.Text
		}
	}
	return out
}

// The cases marked pandoc come from Pandoc's manual (extension
// tex_math_dollars); commonmark from commonmark-hs's
// commonmark-extensions/test/math.md; markdown-it from markdown-it-katex's
// test fixtures; issue 22 from the traces of the demo run.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{}},
		{"plain", "no math here", []string{"t:no math here"}},
		{"commonmark inline and display", "Let $x$ and $y$ be integers such that $$x=y + 2$$",
			[]string{"t:Let ", "m:x", "t: and ", "m:y", "t: be integers such that ", "d:x=y + 2"}},
		{"commonmark display on its own lines", "$$\ne=mc^2\n$$", []string{"d:\ne=mc^2\n"}},
		{"commonmark a closing $ after a space", "This is not math: 2000$.", []string{"t:This is not math: 2000$."}},
		{"commonmark a formula cut by a line break", "Or this $4\n$.", []string{"t:Or this $4\n$."}},
		{"pandoc prices", "Thus, $20,000 and $30,000 won't parse as math.", []string{"t:Thus, $20,000 and $30,000 won't parse as math."}},
		{"commonmark escaped dollar", `The cost is between \$10 and 30$.`, []string{`t:The cost is between \$10 and 30$.`}},
		{"markdown-it tight to words", "foo$1+1 = 2$bar", []string{"t:foo", "m:1+1 = 2", "t:bar"}},
		{"markdown-it a lone $$", "aaa $$ bbb", []string{"t:aaa $$ bbb"}},
		{"markdown-it a price", "aaa $5.99 bbb", []string{"t:aaa $5.99 bbb"}},
		{"markdown-it a paragraph break", "foo $1+1\n\n= 2$ bar", []string{"t:foo $1+1\n\n= 2$ bar"}},
		{"markdown-it a blank line of spaces", "foo $1+1\n \t\n= 2$ bar", []string{"t:foo $1+1\n \t\n= 2$ bar"}},
		{"markdown-it a word after", "$n$-th order", []string{"m:n", "t:-th order"}},
		{"markdown-it soda", "For some Europeans, it is 2$ for a can of soda, not 1$.", []string{"t:For some Europeans, it is 2$ for a can of soda, not 1$."}},
		{"markdown-it escaped", `Foo \$1$ bar \$\$ 1 \$\$`, []string{`t:Foo \$1$ bar \$\$ 1 \$\$`}},
		{"issue 22 a spaced formula", `$ a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} $`,
			[]string{`m: a + 2b = \sqrt{2} + 2 \times \frac{\sqrt{2}}{2} `}},
		{"issue 22 a bare boxed answer", `So the answer is \boxed{18}.`, []string{"t:So the answer is ", `m:\boxed{18}`, "t:."}},
		{"boxed with nested braces", `\boxed{\frac{1}{2}} and \boxed{x`, []string{`m:\boxed{\frac{1}{2}}`, `t: and \boxed{x`}},
		{"boxed inside display math stays in it", `\[ \boxed{7} \]`, []string{`d: \boxed{7} `}},
		{"boxed with escaped braces", `\boxed{\{1\}}`, []string{`m:\boxed{\{1\}}`}},
		{"boxed empty", `\boxed{}`, []string{`m:\boxed{}`}},
		{"parens", `where \(x^2\) is`, []string{"t:where ", "m:x^2", "t: is"}},
		{"brackets", "see\n\\[\n\\frac{a}{b}\n\\]\nthen", []string{"t:see\n", "d:\n\\frac{a}{b}\n", "t:\nthen"}},
		{"unclosed paren", `\(x and more`, []string{`t:\(x and more`}},
		{"empty delimiters stay text", `\(\) \[ \] $$ $$`, []string{`t:\(\) \[ \] $$ $$`}},
		{"escaped backslash before paren", `a \\(b\) c`, []string{`t:a \\(b\) c`}},
		{"asymmetric spaces", "$x $ and $ y$", []string{"t:$x $ and $ y$"}},
		{"spaced words are no formula", "pay $ 5 and $ 6", []string{"t:pay $ 5 and $ 6"}},
		{"spaced TeX is", `$ \text{total} = 5 $`, []string{`m: \text{total} = 5 `}},
		{"closing $ before $", "$a$$b$", []string{"t:$a$$b$"}},
		{"inline then price", "$x$ costs $5", []string{"m:x", "t: costs $5"}},
		{"dollar at the end", "x$", []string{"t:x$"}},
		{"lone backslash at the end", `x\`, []string{`t:x\`}},
		{"unicode inside", "$α+β$ এবং $১২$", []string{"m:α+β", "t: এবং ", "m:১২"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			segs := Split(c.in)
			if diff := cmp.Diff(c.want, pieces(segs)); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", c.in, diff)
			}
			checkTiling(t, c.in, segs)
		})
	}
}

// Content longer than MaxMathBytes stays text, at the cap's edge.
func TestSplitCapsMath(t *testing.T) {
	at := "$" + strings.Repeat("x", MaxMathBytes) + "$"
	if got := pieces(Split(at)); len(got) != 1 || got[0][:2] != "m:" {
		t.Errorf("content of MaxMathBytes: %.20q", got)
	}
	over := "$" + strings.Repeat("x", MaxMathBytes+1) + "$"
	if got := pieces(Split(over)); len(got) != 1 || got[0][:2] != "t:" {
		t.Errorf("content of MaxMathBytes+1: %.20q", got)
	}
	boxedOver := `\boxed{` + strings.Repeat("x", MaxMathBytes+1) + "}"
	if got := pieces(Split(boxedOver)); len(got) != 1 || got[0][:2] != "t:" {
		t.Errorf("boxed content of MaxMathBytes+1: %.20q", got)
	}
}

// checkTiling checks the segments tile the text in order, each math
// segment's TeX lies inside it, and no two text segments are adjacent.
func checkTiling(t *testing.T, text string, segs []Segment) {
	t.Helper()
	at := 0
	for i, s := range segs {
		if s.Start != at || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("segment %d [%d,%d) after %d in a text of %d bytes", i, s.Start, s.End, at, len(text))
		}
		raw := text[s.Start:s.End]
		switch {
		case !s.Math && s.Text != raw:
			t.Fatalf("text segment %d is %q, the text there %q", i, s.Text, raw)
		case !s.Math && i > 0 && !segs[i-1].Math:
			t.Fatalf("text segments %d and %d are adjacent", i-1, i)
		case s.Math && (!strings.Contains(raw, s.Text) || strings.TrimSpace(s.Text) == "" && !strings.HasPrefix(raw, `\boxed{`)):
			t.Fatalf("math segment %d holds %q, the text there %q", i, s.Text, raw)
		case s.Math && len(s.Text) > MaxMathBytes+len(`\boxed{}`):
			t.Fatalf("math segment %d of %d bytes", i, len(s.Text))
		}
		at = s.End
	}
	if at != len(text) {
		t.Fatalf("segments end at %d in a text of %d bytes", at, len(text))
	}
}
