package answer

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name, text, gold string
		truncated        bool
		want, where      string
	}{
		{"box after think", "<think>\ntry \\boxed{3}\n</think>\n\nSo \\boxed{4}.", "4", false, "4", "after-think boxed"},
		{"box only inside", "<think>\nwe get \\boxed{5}\n</think>\nThe end.", "5", false, "5", "in-think boxed"},
		{"nested braces", "</think> $\\boxed{\\frac{1}{\\sqrt{2}}}$", "", false, `\frac{1}{\sqrt{2}}`, "after-think boxed"},
		{"fbox", "</think> \\fbox{7}", "", false, "7", "after-think boxed"},
		{"several boxes for a list", "</think> $\\boxed{2}$ and $\\boxed{-2}$", "${2, -2}$", false, "2, -2", "after-think boxed"},
		{"several boxes, single gold", "</think> first \\boxed{2}, finally \\boxed{3}", "3", false, "3", "after-think boxed"},
		{"english marker", "</think>\nAnswer: 42", "", false, "42", "after-think marker"},
		{"swahili marker", "</think>\nJibu: 18", "", false, "18", "after-think marker"},
		{"chinese marker", "</think>\n答案：$\\frac{1}{2}$", "", false, "\\frac{1}{2}", "after-think marker"},
		{"bengali marker", "</think>\nউত্তর: 18", "", false, "18", "after-think marker"},
		{"bengali digits", "</think>\nমোট ১৮টি ডিম।", "", false, "18", "after-think last-number"},
		{"telugu marker", "</think>\nసమాధానం: 25", "", false, "25", "after-think marker"},
		{"thai marker", "</think>\nคำตอบคือ 12", "", false, "12", "after-think marker"},
		{"korean marker", "</think>\n정답은 9", "", false, "9", "after-think marker"},
		{"last number", "</think>\nShe earns 18 dollars, so 2 times 9 is 18.", "", false, "18", "after-think last-number"},
		{"no think block", "The total is 3 + 4 = 7", "", false, "7", "after-think last-number"},
		{"cut off, no box", "<think>\nFirst 12 then 13, wait, wait, wait", "", true, "", "none"},
		{"cut off, boxed inside", "<think>\nso \\boxed{13} wait wait", "", true, "13", "in-think boxed"},
		{"unclosed think, not cut", "<think>\nreasoning 5 and then 6", "", false, "6", "in-think last-number"},
		{"unbalanced box", "</think> \\boxed{3", "", false, "3", "after-think last-number"},
		{"nothing", "</think> I cannot solve this.", "", false, "", "none"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Extract(c.text, c.gold, c.truncated)
			if got.Answer != c.want || got.Where != c.where {
				t.Fatalf("Extract = %q (%s), want %q (%s)", got.Answer, got.Where, c.want, c.where)
			}
		})
	}
}

func TestGradeAndCheck(t *testing.T) {
	v := Grade("<think>\nKwanza tunajumlisha 12 na 6.\n</think>\n\nJibu la mwisho ni $\\boxed{18}$.", "18", false)
	if diff := cmp.Diff(Verdict{Correct: true, Extracted: "18"}, v, cmpopts.IgnoreFields(Verdict{}, "HasAnswer", "Reason", "Where")); diff != "" {
		t.Fatalf("verdict (-want +got):\n%s", diff)
	}
	v = Grade("<think>\nwait wait wait 18", "18", true)
	if diff := cmp.Diff(Verdict{Reason: ReasonNoAnswer}, v, cmpopts.IgnoreFields(Verdict{}, "Extracted", "Where")); diff != "" {
		t.Fatalf("a cut-off trace without an answer (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		gold, pred string
		want       bool
	}{
		{"18", "18", true},
		{"18", "The answer is 18.", true},
		{"18", "x = 18", true},
		{"18", "答案是 $\\boxed{18}$", true},
		{"18", "Jibu ni \\boxed{17}", false},
		{"$\\frac{1}{2}$", "0.5", true},
		{"5", "", false},
	} {
		if got := Check(c.gold, c.pred); got.Correct != c.want {
			t.Errorf("Check(%q, %q) = %+v, want correct=%v", c.gold, c.pred, got, c.want)
		}
	}
}

// Adversarial inputs get a verdict, quickly and without a panic.
func TestAdversarial(t *testing.T) {
	inputs := []string{
		strings.Repeat("{", 100000),
		strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000),
		strings.Repeat("\\frac{1}{", 3000) + "2" + strings.Repeat("}", 3000),
		"2^{2^{2^{2^{2^{2^{2^{2^{2^{2}}}}}}}}}",
		"10^{10^{10}}",
		"99999999999!",
		"\\binom{100000000}{50000000}",
		"\\sum_{n=1}^{1000000000} n",
		"\\sum_{n=1}^{\\infty} n",
		strings.Repeat("x", 1<<20),
		"\\boxed{" + strings.Repeat("1+", 200000) + "1}",
		"\xff\xfe\x00",
		"$$$$\\\\\\",
		"\\begin{pmatrix}",
		"|||||",
		"\\sqrt[0]{4}",
		"0^{-1}",
		"\\frac{1}{0}",
		// extraction: runs of boxes and expressions, unclosed math, long clauses
		strings.Repeat("\\boxed{1}, ", 50000),
		strings.Repeat("$x$ and ", 50000),
		strings.Repeat("\\[", 50000) + "1",
		strings.Repeat("$$", 50001) + "\\begin{pmatrix}",
		"Answer: " + strings.Repeat("the ", 100000) + "7",
		"Jibu: " + strings.Repeat("$n$ ", 50000),
		strings.Repeat("1 000 ", 50000),
		"Answer: " + strings.Repeat("\\text{\\text{", 5000),
	}
	for _, in := range inputs {
		v := Check("7", in)
		if v.Reason == "" {
			t.Errorf("no reason for %.40q", in)
		}
		Grade("<think>"+in+"</think>"+in, in, false)
		for _, gold := range []string{"7", "1, 2"} {
			for _, truncated := range []bool{false, true} {
				if v := Grade(in, gold, truncated); v.Reason == "" {
					t.Errorf("no reason for %.40q", in)
				}
			}
		}
		Equal(Parse(in), Parse(in))
	}
}

func FuzzGrade(f *testing.F) {
	for _, s := range []string{"18", `\frac{1}{2}`, `[2,3)`, `x^2+1`, `\{1,2\}`, `\begin{pmatrix}1&2\end{pmatrix}`, `\sum_{i=1}^{3} i`, `2\frac{1}{2}`} {
		f.Add(s, s)
	}
	// The kinds of issue 11: chains, boxes, relations, names, number
	// formats, unboxed answers, matrices in prose.
	for _, pair := range [][2]string{
		{"18", `x = 9 \cdot 2 = 18`},
		{"2, 3", "</think> \\boxed{5}. Wait. $\\boxed{2}$ et $x = \\boxed{3}$"},
		{`x \geq 2`, `-x <= -2`},
		{`(3,2)`, `(p,q) = (3,2)`},
		{"11111", `11,\!111 \textnormal{ cm}`},
		{"0.5", "asilimia 50"},
		{"34", "</think>\nJibu: $n$ kubwa zaidi ni 34."},
		{"34", "</think>\n答案：最大的 $n$ 是 34。"},
		{`\begin{pmatrix}1&2\\3&4\end{pmatrix}`, "</think>\nSo $$\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}$$."},
		{"1.22", "</think> Jadi hasilnya 1,22 dan 1.500.000."},
	} {
		f.Add(pair[0], pair[1])
	}
	// Values beyond the range of floats, poles, undefined values, huge
	// exact values: bounded time and memory, never equal by accident.
	for _, pair := range [][2]string{
		{`e^{1000}`, `e^{1001}`},
		{`100000000!`, `(10^9)!`},
		{`10^{10^{10}}`, `(10^{10})^{10^9}`},
		{`2^{2^{100}}`, `4^{2^{99}}`},
		{`2^{2^{2^{2^{2^{2}}}}}`, `2^{2^{2^{2^{2^{2}}}}}+1`},
		{`\binom{10^9}{5}`, `\binom{10^{100}}{10^{50}}`},
		{`\tan(\pi/2)`, `\sec(90^\circ)`},
		{`0^0`, `1/0`},
		{`2^{100000}+1`, `4^{50000}`},
		{`\sum_{i=1}^{\infty}\sum_{j=1}^{\infty} i j`, `\prod_{n=1}^{10^{12}} n`},
		{`[0, e^{1000})`, `x > 10^{400}`},
		{`y = 10^{20} x`, `e^{1000} + x`},
		{`\frac{1}{\sqrt{2}^2-2} i`, `(10^9)! - (10^9)!`},
	} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, gold, pred string) {
		v := Check(gold, pred)
		if v.Reason == "" {
			t.Fatal("verdict without a reason")
		}
		for _, truncated := range []bool{false, true} {
			if v := Grade(pred, gold, truncated); v.Reason == "" {
				t.Fatal("grade without a reason")
			}
		}
		if ok, _ := Equal(Parse(gold), Parse(gold)); !ok && Parse(gold).Text != "" {
			// An answer always equals itself, whether or not it is math.
			t.Fatalf("%q does not equal itself", gold)
		}
	})
}
