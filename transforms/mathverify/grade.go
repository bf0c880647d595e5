package mathverify

import (
	"strings"
	"unsafe"
)

// Version names the Math-Verify release whose rules this package follows
// (math-verify 0.8 with latex2sympy2_extended 1.11, default options).
const Version = "0.8-defaults"

// Reasons a verdict gives.
const (
	ReasonMatch        = "match"
	ReasonMismatch     = "mismatch"
	ReasonNoAnswer     = "no-answer"
	ReasonGoldUnparsed = "gold-unparsed"
)

// Verdict is the grading of one generation against one gold answer.
type Verdict struct {
	Extracted string // what was read from the prediction (parsed value, else its text)
	HasAnswer bool   // something was extracted from the prediction
	Correct   bool   // Math-Verify's verify(parse(gold), parse(prediction))
	Reason    string // match, mismatch, no-answer or gold-unparsed
	Where     string // the extraction target that supplied the prediction's answer
}

// Gold is a gold answer parsed once with Math-Verify's default extraction.
type Gold struct {
	Raw string
	ex  extraction
}

// NewGold parses a gold answer as parse(gold) does.
func NewGold(gold string) Gold {
	return Gold{Raw: gold, ex: extractAnswer(gold)}
}

// Parsed reports whether parse(gold) yielded a value verify can compare
// mathematically (not only a string).
func (g Gold) Parsed() bool { return g.ex.value != nil }

// Grade grades a whole generation.
func (g Gold) Grade(text string) Verdict { return g.verdict(extractAnswer(text)) }

// verdict grades what was extracted from a generation.
func (g Gold) verdict(pred extraction) Verdict {
	v := Verdict{}
	switch {
	case pred.value != nil:
		v.HasAnswer, v.Extracted, v.Where = true, pred.value.String(), pred.where
	case pred.hasFB:
		v.HasAnswer, v.Extracted, v.Where = true, pred.fallback, "string"
	}
	correct := verifyExtractions(g.ex, pred)
	switch {
	case correct:
		v.Correct, v.Reason = true, ReasonMatch
	case g.ex.value == nil:
		v.Reason = ReasonGoldUnparsed
	case !v.HasAnswer:
		v.Reason = ReasonNoAnswer
	default:
		v.Reason = ReasonMismatch
	}
	return v
}

// GradeBytes is Grade(string(text)) without copying a long text (a
// trace is read from JSON into a buffer reused line after line): text is
// only read during the call, and nothing the verdict holds refers to it.
// A long text is extracted from the runes it is decoded into, and every
// string kept is cut from those. A short one is copied: it costs nothing
// next to grading it, and a plain number's extraction cuts its strings
// from the text itself. TestGradeBytesAsGrade overwrites the text after
// grading.
func (g Gold) GradeBytes(text []byte) Verdict {
	if len(text) <= maxPlainNumber {
		return g.Grade(string(text))
	}
	return g.Grade(unsafe.String(unsafe.SliceData(text), len(text)))
}

// Check grades a (gold, prediction) pair: NewGold(gold).Grade(pred).
func Check(gold, pred string) Verdict { return NewGold(gold).Grade(pred) }

// verifyExtractions is verify(gold_list, pred_list): any pair of the
// parsed values or of the string fallbacks.
func verifyExtractions(g, p extraction) bool {
	if g.value != nil && p.value != nil && safeExprEq(g.value, p.value) {
		return true
	}
	if g.hasFB && p.hasFB {
		gs, ps := strings.TrimSpace(g.fallback), strings.TrimSpace(p.fallback)
		if gs != "" && gs == ps {
			return true
		}
	}
	return false
}

// safeExprEq counts a comparison that fails inside as unequal, as verify
// catches every exception of a comparison.
func safeExprEq(g, p *node) (eq bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(budgetExceeded); ok {
				eq = false
				return
			}
			panic(r)
		}
	}()
	return exprEq(g, p)
}
