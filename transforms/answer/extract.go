package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Think tags of reasoning models.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// markerRe finds a final-answer marker in any of the study's languages;
// the answer is read from what follows (see clauseAnswer).
var markerRe = lazyRegexp(`(?i)(?:final answer|the answer is|answer|réponse finale|réponse|la réponse est|окончательный ответ|ответ|最终答案|答案|答|最終的な答え|答え|解答|최종 답|정답|답|jawaban(?:nya)?(?: akhir(?:nya)?)?|jawapan(?:nya)?(?: (?:akhir|muktamad)(?:nya)?)?|คำตอบสุดท้าย|คำตอบ|চূড়ান্ত উত্তর|উত্তর|jibu la mwisho|jibu|తుది సమాధానం|సమాధానం)\s*(?:(?:is|equals|est|ni|adalah|ialah|คือ|হলো|হল|は|은|는|是|为|為|:|：|=)\s*)+([^\n]+)`)

// Extraction says where an answer was found.
type Extraction struct {
	Answer string
	Where  string // after-think or in-think, then boxed, marker, last-math or last-number; or none
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
	scanned(2 * len(text)) // the think tags
	if i := strings.LastIndex(text, thinkClose); i >= 0 {
		after, inside = text[i+len(thinkClose):], text[:i]
	} else if strings.Contains(text, thinkOpen) || truncated {
		// The reasoning never closed: everything is inside it.
		after, inside = "", text
	}
	if a, how, ok := fromRegion(after, list); ok {
		return Extraction{Answer: a, Where: "after-think " + how}
	}
	if boxes := boxesIn(inside); len(boxes) > 0 {
		return Extraction{Answer: finalBoxes(inside, boxes, list), Where: "in-think boxed"}
	}
	if truncated {
		return Extraction{Where: "none"}
	}
	if a, how, ok := fromRegion(inside, list); ok {
		return Extraction{Answer: a, Where: "in-think " + how}
	}
	return Extraction{Where: "none"}
}

// fromRegion applies boxed, then marker, then the last expression to one
// region, and says which found the answer.
func fromRegion(region string, list bool) (string, string, bool) {
	scanned(len(region))
	if strings.TrimSpace(region) == "" {
		return "", "", false
	}
	if boxes := boxesIn(region); len(boxes) > 0 {
		return finalBoxes(region, boxes, list), "boxed", true
	}
	// Markers and expressions are looked for near the end, where a final
	// answer is; this also bounds the work on a runaway generation.
	tail := region
	if len(tail) > tailLen {
		tail = tail[len(tail)-tailLen:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
	}
	if a, ok := lastMarker(tail, list); ok {
		return a, "marker", true
	}
	return lastExpression(nativeDigits(tail), list)
}

// tailLen is how far from the end of a region markers and expressions are
// looked for.
const tailLen = 2000

// lastMarker reads the answer after the last final-answer marker of s (see
// clauseAnswer).
func lastMarker(s string, list bool) (string, bool) {
	scanned(len(markerStems) * len(s))
	if !mayHaveMarker(s) {
		return "", false
	}
	s = strings.ReplaceAll(s, "**", "") // markdown bold around a marker
	scanned(2 * len(s))
	ms := markerRe().FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 {
		return "", false
	}
	rest := s[ms[len(ms)-1][2]:]
	// "Final Answer: The final answer is $7$. I hope it is correct."
	for i := 0; i < 3; i++ {
		clause := rest[:clauseEnd(rest, mathSpans(rest))]
		scanned(len(clause))
		inner := markerRe().FindAllStringSubmatchIndex(clause, -1)
		if len(inner) == 0 {
			break
		}
		rest = rest[inner[len(inner)-1][2]:]
	}
	a := clauseAnswer(rest, list)
	return a, a != ""
}

// nativeDigits writes digits of any script (১৮, ๑๘, １８) as ASCII digits.
func nativeDigits(s string) string {
	scanned(len(s))
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

// isList reports whether a parsed gold answer holds several values: a
// list, a set, a tuple or a point, alone or assigned (k = 1, 2;
// (p, q) = (3, 2)).
func isList(n node) bool {
	switch x := n.(type) {
	case *listNode:
		return len(x.items) > 1
	case *intervalNode:
		return x.pair
	case *relNode:
		if len(x.items) == 2 && len(x.ops) == 1 && (x.ops[0] == "=" || x.ops[0] == "in") {
			return isList(x.items[1])
		}
	}
	return false
}

// markerStems are substrings every marker holds; text without any of them
// skips the (costlier) marker expression.
var markerStems = []string{"answer", "Answer", "ANSWER", "réponse", "Réponse", "ответ", "Ответ", "答", "답", "jawab", "Jawab",
	"jawap", "Jawap", "คำตอบ", "উত্তর", "jibu", "Jibu", "సమాధానం"}

func mayHaveMarker(s string) bool { return containsAny(s, markerStems...) }
