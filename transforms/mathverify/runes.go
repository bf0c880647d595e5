package mathverify

import (
	"encoding/binary"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/datg/datg/internal/swar"
	"github.com/datg/datg/internal/utf8lead"
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

// withRoom is the capacity to give a buffer reused from text to text
// that must hold n now: a quarter more, so that the next texts, of
// lengths drawn alike, seldom need a new one (growing to each longer
// text reallocated the runes and the matcher's sets for one trace in
// two; TestBuffersOutgrowLongerTexts).
func withRoom(n int) int { return n + n/4 }

var runePool = sync.Pool{New: func() any { return new([]rune) }}

// borrowRunes decodes s into a pooled buffer; give it back with
// returnRunes once nothing refers to it.
func borrowRunes(s string) []rune {
	buf := runePool.Get().(*[]rune)
	if cap(*buf) < len(s) {
		*buf = make([]rune, 0, withRoom(len(s)))
	}
	return appendRunes((*buf)[:0], s)
}

func returnRunes(rs []rune) {
	rs = rs[:0]
	runePool.Put(&rs)
}

// borrowMarkedRunes is borrowRunes that also marks the text's notable
// runes (notable.go) as it decodes: the index costs a few operations a
// word of eight ASCII bytes, not a second read of the text. Give both
// back (returnRunes, the index's release) once nothing refers to them.
func borrowMarkedRunes(s string) ([]rune, *notableIndex) {
	buf := runePool.Get().(*[]rune)
	if cap(*buf) < len(s) {
		*buf = make([]rune, 0, withRoom(len(s)))
	}
	x := borrowNotableIndex(len(s)) // a rune takes a byte at least
	rs := decodeMarked((*buf)[:len(s)], s, x)
	x.n = len(rs)
	return rs, x
}

// markByte sets the eight bits of flags from position k of plane.
func markByte(plane []uint64, k int, flags uint64) {
	plane[k/64] |= flags << (k % 64)
	if k%64 > 56 {
		plane[k/64+1] |= flags >> (64 - k%64)
	}
}

// decodeMarked decodes s into out (as []rune(s) does; out has room for a
// rune a byte) and marks its notable runes in x; it returns the runes.
// Eight ASCII bytes at a time are copied, and tested for notable ones,
// as a word. A word with a non-ASCII byte is decoded a rune at a time
// (its last rune may run past it), well-formed runes of two and three
// bytes (Cyrillic, Greek, Arabic, Indic, Thai, CJK, Hangul) inline by
// table, anything else by utf8.DecodeRuneInString.
func decodeMarked(out []rune, s string, x *notableIndex) []rune {
	k := 0
	// The string's bytes, read only: one load a word where indexing the
	// string compiled to eight.
	bs := unsafe.Slice(unsafe.StringData(s), len(s))
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			b := bs[i : i+8 : i+8]
			w := binary.LittleEndian.Uint64(b)
			if w&swar.High == 0 {
				o := out[k : k+8 : k+8]
				o[0], o[1], o[2], o[3] = rune(b[0]), rune(b[1]), rune(b[2]), rune(b[3])
				o[4], o[5], o[6], o[7] = rune(b[4]), rune(b[5]), rune(b[6]), rune(b[7])
				nl, dollar, back := swar.Equal(w, '\n'), swar.Equal(w, '$'), swar.Equal(w, '\\')
				br := swar.Equal(w, '[') | swar.Equal(w, ']') | swar.Equal(w, '}')
				a := swar.Equal(w|0x20*swar.Ones, 'a') // "a" or "A"
				if a != 0 {
					markByte(x.planes[planeLetterA], k, swar.Flags(a))
				}
				if nl|dollar|back|br != 0 {
					if nl != 0 {
						markByte(x.planes[planeNewline], k, swar.Flags(nl))
					}
					if dollar != 0 {
						markByte(x.planes[planeDollar], k, swar.Flags(dollar))
					}
					if back != 0 {
						markByte(x.planes[planeBackslash], k, swar.Flags(back))
					}
					if br != 0 {
						markByte(x.planes[planeBrackets], k, swar.Flags(br))
					}
				}
				i += 8
				k += 8
				continue
			}
		}
		// This word's runes one at a time (testing the next word from the
		// next byte would read it eight times), or the text's last bytes.
		for end := min(i+8, len(s)); i < end; k++ {
			c := bs[i]
			if c < utf8.RuneSelf {
				out[k] = rune(c)
				if p := planeOf[c]; p != 0 {
					x.planes[p-1][k/64] |= 1 << (k % 64)
				}
				i++
				continue
			}
			switch lead := utf8lead.Lead[c]; lead & 7 {
			case 3:
				if i+2 < len(s) {
					c1, c2, second := bs[i+1], bs[i+2], utf8lead.Second[lead>>4]
					if c1 >= second.Lo && c1 <= second.Hi && c2&0xc0 == 0x80 {
						out[k] = rune(c&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f)
						i += 3
						continue
					}
				}
			case 2:
				if i+1 < len(s) {
					if c1 := bs[i+1]; c1&0xc0 == 0x80 {
						out[k] = rune(c&0x1f)<<6 | rune(c1&0x3f)
						i += 2
						continue
					}
				}
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			out[k] = r
			i += size
		}
	}
	return out[:k]
}
