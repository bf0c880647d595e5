package answer

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// unparsedGolds are the PolyMath gold answers (low, medium, high) that are
// not read as math, and why. They are graded as normalized text.
var unparsedGolds = map[string]string{
	`$n\equiv 0,1 \pmod{4}$`: "congruences are not modeled as math",
}

// A long Swahili trace ending in the boxed gold answer.
func traceWith(answer string) string {
	body := strings.Repeat("Kwanza, tunaandika thamani zilizotolewa: 12 na 30. Tukijumlisha tunapata 42. ", 200)
	return "<think>\nNitaanza kutafakari kwa Kiswahili.\nKwanza, " + body + "\n</think>\n\nJibu la mwisho ni $\\boxed{" + answer + "}$."
}

func TestPolyMathGolds(t *testing.T) {
	golds := testenv.PolyMathGolds(t, "en")
	if len(golds) < 200 {
		t.Fatalf("only %d distinct gold answers", len(golds))
	}
	var unparsed []string
	for _, gold := range golds {
		g := Parse(gold)
		if !g.Parsed() {
			unparsed = append(unparsed, gold+" ("+g.Err.Error()+")")
			if _, known := unparsedGolds[gold]; !known {
				t.Errorf("gold %q does not parse: %v", gold, g.Err)
			}
		}
		if ok, why := Equal(g, Parse(gold)); !ok {
			t.Errorf("gold %q does not equal itself (%s)", gold, why)
		}
		boxed := strings.TrimSpace(strings.ReplaceAll(gold, "$", ""))
		if v := Grade(traceWith(boxed), gold, false); !v.Correct {
			t.Errorf("gold %q boxed at the end of a trace: %+v", gold, v)
		}
		if p := testenv.PerturbGold(gold); p != gold {
			if ok, why := Equal(g, Parse(p)); ok {
				t.Errorf("gold %q equals its perturbation %q (%s)", gold, p, why)
			}
		}
	}
	for gold := range unparsedGolds {
		if Parse(gold).Parsed() {
			t.Errorf("%q is listed as unparsed but parses; take it off the list", gold)
		}
	}
	t.Logf("%d distinct golds; %d graded as text: %s", len(golds), len(unparsed), strings.Join(unparsed, "; "))
}

// unboxedEndings end a trace with an answer written without a box: after a
// marker, and as the last expression of the text, in the styles of several
// study languages.
var unboxedEndings = []string{
	"</think>\nJibu: $%s$",
	"</think>\n答案：$%s$。",
	"</think>\nOleh itu, nilainya ialah $%s$.",
	"</think>\nTherefore the answer is \\[%s\\]",
	"</think>\nИтак, получаем\n$$%s$$\nЭто и есть ответ.",
}

// Every PolyMath gold written without a box, after a marker or as the last
// expression of a trace, is found whole and matches itself; its
// perturbation written the same way does not (issue 11, kinds 6 and 7).
func TestPolyMathGoldsUnboxed(t *testing.T) {
	for _, gold := range testenv.PolyMathGolds(t, "en") {
		bare := strings.TrimSpace(strings.ReplaceAll(gold, "$", ""))
		for _, ending := range unboxedEndings {
			text := strings.Replace(ending, "%s", bare, 1)
			if v := Grade(text, gold, false); !v.Correct {
				t.Errorf("gold %q unboxed in %q: %+v", gold, text, v)
			}
			if p := testenv.PerturbGold(gold); p != gold {
				wrong := strings.Replace(ending, "%s", strings.TrimSpace(strings.ReplaceAll(p, "$", "")), 1)
				if v := Grade(wrong, gold, false); v.Correct {
					t.Errorf("gold %q matches its perturbation unboxed in %q: %+v", gold, wrong, v)
				}
			}
		}
	}
}
