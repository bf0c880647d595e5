package loop

import (
	"unicode"
	"unicode/utf8"
)

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// numberSpans calls emit with every number of text (Unicode digits, '.' or
// ',' allowed between digits) in its local context: the nearest word before
// and after it on the same line, skipping spaces and punctuation but not
// another number, e.g. "ni 9 mayai". Words are runs of letters and marks,
// so Thai or Telugu words keep their combining vowels and a Chinese number
// context is the run of Han characters around it. The span starts at its
// previous word, or at the number when there is none, so a context cut by
// the tail boundary is attributed to the prefix.
//
// A context whose right side runs into the end of the text ("ni 9. May")
// is incomplete: the next word, or the number itself, may still grow. It is
// dropped so that a trace read mid-token does not look like progress.
func numberSpans(text string, emit emitter) {
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && !isASCIIDigit(c) {
			i++ // ASCII fast path
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsDigit(r) {
			i += w
			continue
		}
		j := numberEnd(text, i, unicode.IsDigit)
		next, complete := wordAfter(text, j)
		if complete {
			start := i
			prevStart, prev := wordBefore(text, i)
			if prev != "" {
				start = prevStart
			}
			emit(start, prev, text[i:j], next)
		}
		i = j
	}
}

// wordBefore returns the nearest word ending before offset i on the same
// line with nothing but punctuation and spaces between, and its start.
func wordBefore(text string, i int) (int, string) {
	for i > 0 {
		r, w := utf8.DecodeLastRuneInString(text[:i])
		switch {
		case isWordRune(r):
			end := i
			for i > 0 {
				r, w := utf8.DecodeLastRuneInString(text[:i])
				if !isWordRune(r) {
					break
				}
				i -= w
			}
			return i, text[i:end]
		case r == '\n' || unicode.IsDigit(r):
			return i, ""
		}
		i -= w
	}
	return 0, ""
}

// wordAfter returns the nearest word starting at or after offset i on the
// same line, and whether the context is complete: false when the text ends
// before a word, a number or a newline closes it, or inside the word.
func wordAfter(text string, i int) (string, bool) {
	for i < len(text) {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			start := i
			for i < len(text) {
				r, w := utf8.DecodeRuneInString(text[i:])
				if !isWordRune(r) {
					return text[start:i], true
				}
				i += w
			}
			return "", false
		case r == '\n' || unicode.IsDigit(r):
			return "", true
		}
		i += w
	}
	return "", false
}
