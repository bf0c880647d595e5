package answer

import (
	"strings"
)

// Multiple-choice answers: a gold "(D)" or "\textbf{(D) }18" is matched by
// the letter (D, (D), D) or the letter with its value) or, without a letter,
// by the value alone; a different letter is wrong even beside the right value.
var (
	goldChoiceRe  = lazyRegexp(`^\(\s*([A-E])\s*\)\s*(.*)$`)
	otherLetterRe = lazyRegexp(`(^|[^A-Za-z\\])[A-E]([^A-Za-z]|$)`)
	predChoiceRe  = lazyRegexp(`^\(?\s*([A-E])\s*\)?(?:\s*[.:]\s*|\s+|$)(.*)$`)
)

// choice reads a multiple-choice gold: its letter and the value after it.
func choice(v Value) (letter, value string, ok bool) {
	m := goldChoiceRe().FindStringSubmatch(normForm(v))
	if m == nil {
		return "", "", false
	}
	return m[1], strings.TrimSpace(m[2]), true
}

// choiceEqual compares a prediction with a multiple-choice gold.
func choiceEqual(letter, value string, pred Value) bool {
	p := normForm(pred)
	if m := predChoiceRe().FindStringSubmatch(p); m != nil && (strings.HasPrefix(p, "(") || len(p) == 1 || strings.TrimSpace(m[2]) != "") {
		rest := strings.TrimSpace(m[2])
		if m[1] != letter || otherLetterRe().MatchString(rest) {
			return false // another letter, or a hedge between two ("A or C")
		}
		if rest == "" || value == "" {
			return true
		}
		ok, _ := Equal(Parse(value), Parse(rest))
		return ok
	}
	if value == "" {
		return false
	}
	ok, _ := Equal(Parse(value), pred)
	return ok
}

// normForm is the normalized answer: the one Parse kept, else (an answer too
// long to read, or a Value not made by Parse) its raw text normalized now.
func normForm(v Value) string {
	if v.norm == "" && v.Raw != "" {
		return normalize(v.Raw)
	}
	return v.norm
}
