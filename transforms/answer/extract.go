package answer

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Think tags of reasoning models.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// LastBoxed returns the content of the last \boxed{...} or \fbox{...} whose
// braces balance; nested braces are kept.
func LastBoxed(text string) (string, bool) {
	boxes := allBoxed(text)
	if len(boxes) == 0 {
		return "", false
	}
	return boxes[len(boxes)-1], true
}

// allBoxed returns the contents of every balanced \boxed{} and \fbox{} in
// order of appearance (a box inside another is part of the outer one).
func allBoxed(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\\')
		if j < 0 {
			break
		}
		at := i + j
		rest := text[at:]
		var n int
		switch {
		case strings.HasPrefix(rest, `\boxed`):
			n = len(`\boxed`)
		case strings.HasPrefix(rest, `\fbox`):
			n = len(`\fbox`)
		default:
			i = at + 1
			continue
		}
		k := at + n
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) && text[k] == '{' {
			if content, ok := balanced(text[k:]); ok {
				out = append(out, content)
				i = k + len(content) + 2
				continue
			}
		}
		i = at + n
	}
	return out
}

// balanced returns what lies between s[0] == '{' and its matching '}'.
func balanced(s string) (string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // an escaped brace does not count
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[1:i], true
			}
		}
	}
	return "", false
}

// markerRe finds a final-answer marker in any of the study's languages;
// the answer is what follows on the same line.
var markerRe = regexp.MustCompile(`(?i)(?:final answer|the answer is|answer|réponse finale|réponse|la réponse est|окончательный ответ|ответ|最终答案|答案|答|最終的な答え|答え|解答|최종 답|정답|답|jawaban(?:nya)?(?: akhir(?:nya)?)?|jawapan(?:nya)?(?: akhir(?:nya)?)?|คำตอบสุดท้าย|คำตอบ|চূড়ান্ত উত্তর|উত্তর|jibu la mwisho|jibu|తుది సమాధానం|సమాధానం)\s*(?:(?:is|equals|est|ni|adalah|ialah|คือ|হলো|হল|は|은|는|是|为|為|:|：|=)\s*)+([^\n]+)`)

// numberRe finds numbers (with signs, thousands separators, decimals and
// simple fractions) for the last-number fallback.
var numberRe = regexp.MustCompile(`-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:\s*/\s*\d+)?`)

// Extraction says where an answer was found.
type Extraction struct {
	Answer string
	Where  string // boxed, marker, last-number (after-think or in-think), or none
}

// Extract finds the final answer of a generation. gold, when given, tells
// whether several boxes are one list answer. truncated says the token budget
// cut the generation: then only a boxed answer counts.
func Extract(text, gold string, truncated bool) Extraction {
	return extract(text, isList(Parse(gold).node), truncated)
}

// extract is Extract with the gold read: list says it holds several values.
func extract(text string, list, truncated bool) Extraction {
	after, inside := text, ""
	if i := strings.LastIndex(text, thinkClose); i >= 0 {
		after, inside = text[i+len(thinkClose):], text[:i]
	} else if strings.Contains(text, thinkOpen) || truncated {
		// The reasoning never closed: everything is inside it.
		after, inside = "", text
	}
	if a, how, ok := fromRegion(after, list); ok {
		return Extraction{Answer: a, Where: "after-think " + how}
	}
	if boxes := allBoxed(inside); len(boxes) > 0 {
		return Extraction{Answer: joinBoxes(boxes, list), Where: "in-think boxed"}
	}
	if truncated {
		return Extraction{Where: "none"}
	}
	if a, how, ok := fromRegion(inside, list); ok {
		return Extraction{Answer: a, Where: "in-think " + how}
	}
	return Extraction{Where: "none"}
}

// fromRegion applies boxed, then marker, then last number to one region,
// and says which found the answer.
func fromRegion(region string, list bool) (string, string, bool) {
	if strings.TrimSpace(region) == "" {
		return "", "", false
	}
	if boxes := allBoxed(region); len(boxes) > 0 {
		return joinBoxes(boxes, list), "boxed", true
	}
	// Markers and numbers are looked for near the end, where a final answer
	// is; this also bounds the work on a runaway generation.
	tail := region
	if len(tail) > tailLen {
		tail = tail[len(tail)-tailLen:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
	}
	if a, ok := lastMarker(tail); ok {
		return a, "marker", true
	}
	if ns := numberRe.FindAllString(nativeDigits(tail), -1); len(ns) > 0 {
		return ns[len(ns)-1], "last-number", true
	}
	return "", "", false
}

// tailLen is how far from the end of a region markers and numbers are
// looked for.
const tailLen = 2000

func lastMarker(s string) (string, bool) {
	if !mayHaveMarker(s) {
		return "", false
	}
	s = strings.ReplaceAll(s, "**", "") // markdown bold around a marker
	ms := markerRe.FindAllStringSubmatch(s, -1)
	if len(ms) == 0 {
		return "", false
	}
	a := strings.TrimSpace(ms[len(ms)-1][1])
	// "Final Answer: The final answer is $7$. I hope it is correct."
	for i := 0; i < 3; i++ {
		inner := markerRe.FindAllStringSubmatch(a, -1)
		if len(inner) == 0 {
			break
		}
		a = strings.TrimSpace(inner[len(inner)-1][1])
	}
	a = firstClause(a)
	return a, a != ""
}

var inlineMathRe = regexp.MustCompile(`\$\$?([^$]+)\$\$?`)

// firstClause cuts what follows a marker to the answer itself: its first
// math span when it has one, else the text up to the end of the sentence.
func firstClause(a string) string {
	if m := inlineMathRe.FindStringSubmatch(a); m != nil {
		return strings.TrimSpace(m[1])
	}
	for _, end := range []string{". ", "。", "! "} {
		if i := strings.Index(a, end); i > 0 {
			a = a[:i]
		}
	}
	return strings.TrimRight(strings.TrimSpace(a), " .。")
}

// nativeDigits writes digits of any script (১৮, ๑๘, １８) as ASCII digits.
func nativeDigits(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= utf8.RuneSelf && unicode.IsDigit(r) {
			return '0' + digitValue(r)
		}
		return r
	}, s)
}

// digitValue is the value of a decimal digit rune: Unicode places each
// script's digits 0-9 consecutively.
func digitValue(r rune) rune {
	for zero := r; zero > r-10; zero-- {
		if !unicode.IsDigit(zero - 1) {
			return r - zero
		}
	}
	return 0
}

// joinBoxes is the last box, or all boxes of the final answer as one list
// when the gold answer is itself a list of several values.
func joinBoxes(boxes []string, list bool) string {
	if len(boxes) > 1 && list {
		return strings.Join(boxes, ", ")
	}
	return boxes[len(boxes)-1]
}

// isList reports whether a parsed gold answer holds several values.
func isList(n node) bool {
	switch x := n.(type) {
	case *listNode:
		return len(x.items) > 1
	case *relNode:
		if len(x.items) == 2 {
			if l, ok := x.items[1].(*listNode); ok {
				return len(l.items) > 1
			}
		}
	}
	return false
}

// markerStems are substrings every marker holds; text without any of them
// skips the (costlier) marker expression.
var markerStems = []string{"answer", "Answer", "ANSWER", "réponse", "Réponse", "ответ", "Ответ", "答", "답", "jawab", "Jawab",
	"jawap", "Jawap", "คำตอบ", "উত্তর", "jibu", "Jibu", "సమాధానం"}

func mayHaveMarker(s string) bool { return containsAny(s, markerStems...) }
