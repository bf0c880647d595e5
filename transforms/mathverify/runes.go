package mathverify

import (
	"slices"
	"sync"
	"unicode/utf8"
)

// A trace is matched as runes (the patterns' indices are Python's code
// points). Converting it with []rune(text) read it twice (to count, then
// to decode) and allocated four bytes a byte for every text; a fifth of
// grading a long trace. appendRunes reads it once, ASCII bytes without a
// call, into a buffer reused from text to text.

// appendRunes appends the runes of s to dst, as []rune(s) decodes them
// (an invalid byte is one utf8.RuneError).
func appendRunes(dst []rune, s string) []rune {
	n := len(dst)
	dst = slices.Grow(dst, len(s))[:n+len(s)] // a rune takes a byte at least
	out := dst[n:]
	k := 0
	for i := 0; i < len(s) && k < len(out); {
		if c := s[i]; c < utf8.RuneSelf {
			out[k] = rune(c)
			k++
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		out[k] = r
		k++
		i += w
	}
	return dst[:n+k]
}

var runePool = sync.Pool{New: func() any { return new([]rune) }}

// borrowRunes decodes s into a pooled buffer; give it back with
// returnRunes once nothing refers to it.
func borrowRunes(s string) []rune {
	buf := runePool.Get().(*[]rune)
	if cap(*buf) < len(s) {
		*buf = make([]rune, 0, len(s))
	}
	return appendRunes((*buf)[:0], s)
}

func returnRunes(rs []rune) {
	rs = rs[:0]
	runePool.Put(&rs)
}
