package scaffold

import (
	"strings"
	"unicode"
)

// line is one input line. The terminator is kept apart so that rules match
// the text alone (a Windows "\r\n" must not hide "= 9" from the masking) while
// the output keeps the model's own line endings: Sanitize changes only what
// it records.
type line struct {
	text string // without the terminator
	eol  string // "\n", "\r\n", or "" for the last line
	num  int    // 1-based line number in the input
}

// splitLines splits s on "\n"; a "\r" right before the "\n" belongs to the
// terminator.
func splitLines(s string) []line {
	var out []line
	for n := 1; ; n++ {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, line{text: s, num: n})
		}
		text, eol := s[:i], "\n"
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r\n"
		}
		out = append(out, line{text: text, eol: eol, num: n})
		s = s[i+1:]
	}
}

// joinLines writes the lines back, each followed by its own terminator
// except the last: the caller (Block) puts the newline before the closing
// tag itself.
func joinLines(ls []line) string {
	var b strings.Builder
	for i, l := range ls {
		b.WriteString(l.text)
		if i < len(ls)-1 {
			b.WriteString(l.eol)
		}
	}
	return b.String()
}

// trimTrailingBlank drops blank lines at the end, which a stop string or a
// removed final-answer line leaves behind.
func trimTrailingBlank(ls []line) []line {
	for len(ls) > 0 && isBlank(ls[len(ls)-1].text) {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func isBlank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }
