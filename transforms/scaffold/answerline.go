package scaffold

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// dropKind applies rules 2 and 3: the kind of removal for a line that must
// go whole, or "" for a line to keep. A \boxed or a line named Final/Answer
// states the answer whatever else it holds, so masking parts of it would
// still leave the sentence that tells phase 2 it is done.
func dropKind(text string) string {
	if strings.Contains(text, `\boxed`) {
		return kindBoxed
	}
	if isAnswerLine(text) {
		return kindAnswerLine
	}
	return ""
}

// answerWords name an answer line when the line starts with one of them as a
// whole word. Longer phrases first only for readability; each is checked.
var answerWords = []string{
	"so the answer", "therefore the answer", "the answer", "the final",
	"final", "answer", "answers",
}

// answerLabels name an answer line only as a label ("Result: 63"); as a
// variable ("result = a * b = ?") they are an ordinary plan step.
var answerLabels = []string{"ans", "result"}

// finalAnswer finds "final answer" anywhere, also as an identifier or in
// bold ("final_answer", "**Final** answer").
var finalAnswer = regexp.MustCompile(`(?i)final[\s_*-]*answer`)

// isAnswerLine reports whether the line is a final-answer line: after list
// and markdown decoration it starts with an answer word, or it mentions a
// final answer anywhere.
func isAnswerLine(text string) bool {
	s := strings.ToLower(stripDecoration(text))
	for _, w := range answerWords {
		if startsWithWord(s, w) {
			return true
		}
	}
	for _, w := range answerLabels {
		if rest, ok := strings.CutPrefix(s, w); ok {
			if strings.HasPrefix(strings.TrimLeft(rest, " \t*"), ":") {
				return true
			}
		}
	}
	return finalAnswer.MatchString(text)
}

// startsWithWord reports whether s starts with w followed by a non-word
// rune, so "final:" and "final answer" count but "finally" and "final_total"
// (an identifier in a plan step) do not.
func startsWithWord(s, w string) bool {
	rest, ok := strings.CutPrefix(s, w)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !isWordRune(r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// stripDecoration removes leading space, bullets ("-", "*", "+", "•"),
// numbering ("3." or "3)"), markdown headings, quotes and bold, in any mix,
// so "  - **Final answer:**" is seen as "Final answer:**".
func stripDecoration(s string) string {
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case strings.ContainsRune("-*+•#>", r) && n > 0 && s != "":
			s = s[n:]
		case r >= '0' && r <= '9':
			d := strings.TrimLeft(s, "0123456789")
			if d == "" || (d[0] != '.' && d[0] != ')') {
				return s
			}
			s = d[1:]
		default:
			return s
		}
	}
}
