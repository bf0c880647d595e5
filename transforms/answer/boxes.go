package answer

import "strings"

// box is a balanced \boxed{} or \fbox{} in a text: its content and where
// the whole command starts and ends.
type box struct {
	start, end int
	content    string
}

// LastBoxed returns the content of the last \boxed{...} or \fbox{...} whose
// braces balance; nested braces are kept.
func LastBoxed(text string) (string, bool) {
	boxes := boxesIn(text)
	if len(boxes) == 0 {
		return "", false
	}
	return boxes[len(boxes)-1].content, true
}

// boxesIn returns every balanced \boxed{} and \fbox{} in order of
// appearance (a box inside another is part of the outer one). The work is
// linear in the text: a box that closes is scanned once and skipped, and
// the first box left open (whose scan ran to the end of the text) has
// every later brace matched in one pass (braceMatcher), where scanning
// each open box to the end would make the text of repeated unclosed
// \boxed{ quadratic (issue 19).
func boxesIn(text string) []box {
	var out []box
	var braces *braceMatcher
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\\')
		if j < 0 {
			scanned(len(text) - i)
			break
		}
		scanned(j + 1)
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
		scanned(k - at)
		if k < len(text) && text[k] == '{' {
			closing := -1
			if braces != nil {
				closing = braces.closing(k)
			} else if content, ok := balanced(text[k:]); ok {
				closing = k + len(content) + 1
			} else {
				braces = matchBraces(text, k)
			}
			if closing >= 0 {
				end := closing + 1
				out = append(out, box{start: at, end: end, content: text[k+1 : closing]})
				i = end
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
				scanned(i + 1)
				return s[1:i], true
			}
		}
	}
	scanned(len(s))
	return "", false
}

// braceMatcher knows, for every '{' of a text from some offset on, where
// balanced finds its matching '}'.
type braceMatcher struct {
	from  int
	close []int // close[p-from]: the matching '}' of the '{' at p, or -1
}

// matchBraces matches the braces of text from offset from (a '{') in one
// pass with a stack, reading escapes as balanced does. balanced started at
// a later '{' reads the same characters as this pass from there on when
// the two characters before that '{' are not backslashes, as before a
// box's brace (\boxed{, \fbox {): each pass takes the character after
// a backslash as escaped, and both are then at a character boundary.
func matchBraces(text string, from int) *braceMatcher {
	m := &braceMatcher{from: from, close: make([]int, len(text)-from)}
	for i := range m.close {
		m.close[i] = -1
	}
	var open []int
	for i := from; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '{':
			open = append(open, i)
		case '}':
			if len(open) > 0 {
				m.close[open[len(open)-1]-from] = i
				open = open[:len(open)-1]
			}
		}
	}
	scanned(len(text) - from)
	return m
}

// closing is the matching '}' of the '{' at p (p >= from), or -1.
func (m *braceMatcher) closing(p int) int { return m.close[p-m.from] }

// maxJoined bounds how many adjacent answers are joined into one list.
const maxJoined = 64

// finalBoxes is the answer the boxes of a text give: the last box. When
// the gold is a list, a model may box each element (\boxed{2}, \boxed{3}
// or $x = \boxed{2}$ and $x = \boxed{3}$): the last box and the boxes just
// before it, joined only by separators (see joinsValues), are one list
// answer. A box the text moved on from ("\boxed{5}. Wait, that is wrong.
// ... \boxed{2}, \boxed{3}") is not part of it, as Math-Verify takes the
// last box.
func finalBoxes(text string, boxes []box, list bool) string {
	last := len(boxes) - 1
	if !list {
		return boxes[last].content
	}
	first := last
	for first > 0 && last-first+1 < maxJoined && joinsValues(text[boxes[first-1].end:boxes[first].start]) {
		first--
	}
	if first == last {
		return boxes[last].content
	}
	parts := make([]string, 0, last-first+1)
	for _, b := range boxes[first : last+1] {
		parts = append(parts, b.content)
	}
	return strings.Join(parts, ", ")
}
