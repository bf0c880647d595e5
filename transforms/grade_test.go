package transforms

import "testing"

func TestLastBoxed(t *testing.T) {
	cases := []struct {
		text, want string
		ok         bool
	}{
		{`so \boxed{18}.`, "18", true},
		{`\boxed{1} then \boxed{2}`, "2", true},
		{`\boxed{\frac{1}{2}}`, `\frac{1}{2}`, true},
		{`\boxed {7}`, "7", true},
		{`\fbox{9}`, "9", true},
		{`\boxed{\{1,2\}}`, `\{1,2\}`, true},
		{`\boxed{unbalanced`, "", false},
		{`no box here 42`, "", false},
		{`\boxed{1} and \boxed{oops`, "1", true},
	}
	for _, c := range cases {
		got, ok := LastBoxed(c.text)
		if got != c.want || ok != c.ok {
			t.Errorf("LastBoxed(%q) = %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

func TestFinalBoxedPrefersAnswerAfterThinking(t *testing.T) {
	text := "<think>\ntry \\boxed{3}\n</think>\n\nThe answer is \\boxed{4}."
	if got, _ := FinalBoxed(text); got != "4" {
		t.Fatalf("got %q, want 4", got)
	}
	if got, _ := FinalBoxed("<think>\nonly \\boxed{5} inside\n</think>\nno box"); got != "5" {
		t.Fatalf("got %q, want 5", got)
	}
}

func TestEquivalent(t *testing.T) {
	cases := []struct {
		gold, pred string
		want       bool
	}{
		{"18", "18", true},
		{"18", "18.0", true},
		{"70000", "70,000", true},
		{"$\\frac{1}{9}$", "\\dfrac{1}{9}", true},
		{"$\\frac{1}{2}$", "0.5", true},
		{"$\\frac{1}{2}$", "1/2", true},
		{"$-85$", "-85", true},
		{"$\\frac{\\pi}{3}$", "\\frac{\\pi}{3}", true},
		{"3", "x = 3", true},
		{"18", "\\text{18}", true},
		{"18", "19", false},
		{"18", "", false},
		{"$\\frac{1}{2}$", "\\frac{1}{3}", false},
		{"$2\\sqrt{2}$", "2 \\sqrt{2}", true},
	}
	for _, c := range cases {
		if got, reason := Equivalent(c.gold, c.pred); got != c.want {
			t.Errorf("Equivalent(%q, %q) = %v (%s), want %v", c.gold, c.pred, got, reason, c.want)
		}
	}
}

func TestGrade(t *testing.T) {
	v := Grade("<think>\nwork\n</think>\n\\boxed{18}", "18")
	if !v.Correct || v.Extracted != "18" || v.Reason != "numeric-match" && v.Reason != "string-match" {
		t.Fatalf("verdict %+v", v)
	}
	if v := Grade("<think>\nloop loop loop", "18"); v.HasAnswer || v.Correct || v.Reason != "no-answer" {
		t.Fatalf("verdict %+v", v)
	}
}

func FuzzLastBoxed(f *testing.F) {
	for _, s := range []string{`\boxed{1}`, `\boxed{{}`, `\boxed{\}`, `\fbox{a}\boxed{b}`, "\\boxed"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := LastBoxed(s)
		if ok && len(got) > len(s) {
			t.Fatalf("content longer than input")
		}
		Grade(s, "1")
	})
}
