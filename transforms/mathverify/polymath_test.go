package mathverify

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// notSelfMatching are the golds Math-Verify itself cannot match against
// their own boxed form, and why. Math-Verify is followed anyway.
var notSelfMatching = map[string]string{
	`$\frac{1}{2\sqrt{2} \ln\frac{\sqrt{2}+2}{2-\sqrt{2}}$`: "unbalanced braces: the gold parses to nothing but its string",
	`$b \geq $-\frac{2}{3}$`:                                "a stray $ splits the gold; the last match read is the fraction -2/3, not the relation",
	"(1,4,4), (2,4,4), (4,5,6), (4,6,5)":                    "plain text without $: no pattern anchors a tuple, so parse() returns nothing",
}

// longTrace is a long Swahili reasoning trace ending in a boxed answer.
func longTrace(answer string) string {
	body := strings.Repeat("Kwanza, tunaandika thamani zilizotolewa: 12 na 30. Tukijumlisha tunapata $12 + 30 = 42$. ", 150)
	return "<think>\nNitaanza kutafakari kwa Kiswahili.\nKwanza, " + body + "\n</think>\n\nJibu la mwisho ni $\\boxed{" + answer + "}$."
}

func boxable(gold string) string {
	return strings.TrimSpace(strings.ReplaceAll(gold, "$", ""))
}

func TestPolyMathGoldsAgainstThemselves(t *testing.T) {
	golds := testenv.PolyMathGolds(t)
	if len(golds) < 250 {
		t.Fatalf("only %d distinct golds", len(golds))
	}
	var skipped []string
	for _, gold := range golds {
		g := NewGold(gold)
		v := g.Grade(longTrace(boxable(gold)))
		if why, known := notSelfMatching[gold]; known {
			skipped = append(skipped, gold+": "+why)
			if v.Correct {
				t.Errorf("gold %q is listed as not self-matching but matches; take it off the list", gold)
			}
			continue
		}
		if !v.Correct {
			t.Errorf("gold %q boxed at the end of a long trace: %+v (gold parsed: %v)", gold, v, g.ex.value)
			continue
		}
		p := testenv.PerturbGold(boxable(gold))
		if p == boxable(gold) {
			continue
		}
		if w := g.Grade(longTrace(p)); w.Correct {
			t.Errorf("gold %q matches its perturbation %q: %+v", gold, p, w)
		}
	}
	t.Logf("%d distinct golds; %d skipped:\n%s", len(golds), len(skipped), strings.Join(skipped, "\n"))
}
