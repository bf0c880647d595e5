package loop

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MathProgress is the math-progress guard: it reports whether the last
// ProgressChars characters (runes) of text hold a mathematical span whose
// normalized form the prefix before them does not. Spans are formulas,
// equations and assignments (formulaSpans) and numbers in their local word
// context (numberSpans).
//
// Spans are extracted from the whole text, never from the tail alone, and a
// span belongs to the tail only if it starts there: a span that the tail
// boundary cuts belongs to the prefix, so the boundary cannot turn "12 + 30"
// into a "new" "2 + 30" or "yaliyobaki" into a new "baki". The end of the
// text is the same kind of cut (the trace is read at an arbitrary token of a
// running generation), so a span that runs into the end of the text is not
// used at all; see formulaSpans and numberSpans.
//
// With an empty prefix (a text of at most ProgressChars runes) any span is
// progress; without a span in the tail there is none.
func MathProgress(text string) bool {
	tailStart := tailOffset(text, ProgressChars)
	prefix := make(map[string]struct{})
	var tail []string
	add := func(start int, before, span, after string) {
		key := normalize(before, span, after)
		if start < tailStart {
			prefix[key] = struct{}{}
		} else {
			tail = append(tail, key)
		}
	}
	formulaSpans(text, add)
	numberSpans(text, add)
	for _, key := range tail {
		if _, seen := prefix[key]; !seen {
			return true
		}
	}
	return false
}

// tailOffset is the byte offset of rune index max(0, runes(text)-n). An
// invalid byte counts as one rune, as utf8 decoding treats it.
func tailOffset(text string, n int) int {
	skip := utf8.RuneCountInString(text) - n
	if skip <= 0 {
		return 0
	}
	for i := range text {
		if skip == 0 {
			return i
		}
		skip--
	}
	return len(text) // unreachable: skip < rune count
}

// normalize makes spans that differ only in case, spacing or the spelling
// of an operator compare equal: lowercase, no whitespace, and the Unicode
// operators mapped to their ASCII forms. A span given in parts (a number
// and its context words) is normalized as their concatenation.
func normalize(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		normalizeTo(&b, p)
	}
	return b.String()
}

// emitter receives one span of text starting at byte offset start: core,
// with the context words before and after it (empty for a formula). The
// parts are passed separately so no concatenation is allocated.
type emitter func(start int, before, core, after string)

func normalizeTo(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf { // ASCII fast path
			switch {
			case c == ' ' || '\t' <= c && c <= '\r':
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case unicode.IsSpace(r):
		case r == '×' || r == '·':
			b.WriteByte('*')
		case r == '÷':
			b.WriteByte('/')
		case r == '−':
			b.WriteByte('-')
		case r == '≤':
			b.WriteString("<=")
		case r == '≥':
			b.WriteString(">=")
		case r == '≠':
			b.WriteString("!=")
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
}
