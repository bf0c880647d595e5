package answer

import "strings"

// Verdict is the grader's decision on one generation.
type Verdict struct {
	Extracted string // the final answer found (empty when none)
	HasAnswer bool
	Correct   bool
	Reason    string // how the answer matched or why it did not
	Where     string // where the answer was found
}

// Gold is a gold answer parsed once, to grade many generations against.
type Gold struct {
	Raw   string
	value Value
	list  bool // the gold holds several values: several boxes are one answer
}

// NewGold parses a gold answer.
func NewGold(gold string) Gold {
	v := Parse(gold)
	return Gold{Raw: gold, value: v, list: isList(v.node)}
}

// Grade extracts the final answer of a generation and compares it with the
// gold answer. truncated says the token budget cut the generation.
func (g Gold) Grade(text string, truncated bool) Verdict {
	ex := extract(text, g.list, truncated)
	if strings.TrimSpace(ex.Answer) == "" {
		return Verdict{Reason: ReasonNoAnswer, Where: ex.Where}
	}
	return g.verdict(ex.Answer, ex.Where)
}

func (g Gold) verdict(answer, where string) Verdict {
	ok, reason := Equal(g.value, Parse(answer))
	return Verdict{Extracted: answer, HasAnswer: true, Correct: ok, Reason: reason, Where: where}
}

// Grade grades a generation against a gold answer.
func Grade(text, gold string, truncated bool) Verdict {
	return NewGold(gold).Grade(text, truncated)
}

// Check grades a prediction that may be a bare final answer ("x = 5",
// "18 dollars") or a whole generation: a box or an answer marker is looked
// for first, then a short prediction is taken whole.
func Check(gold, pred string) Verdict {
	g := NewGold(gold)
	scanned(3 * len(pred))
	if strings.Contains(pred, `\boxed`) || strings.Contains(pred, `\fbox`) || strings.Contains(pred, thinkClose) {
		return g.Grade(pred, false)
	}
	if len(pred) > tailLen {
		return g.Grade(pred, false)
	}
	if a, ok := lastMarker(pred, g.list); ok {
		return g.verdict(a, "marker")
	}
	if p := strings.TrimSpace(pred); p != "" && len(p) <= 400 && !strings.Contains(p, "\n\n") {
		return g.verdict(p, "whole")
	}
	return g.Grade(pred, false)
}
