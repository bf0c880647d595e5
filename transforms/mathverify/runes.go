package mathverify

import (
	"encoding/binary"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"
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

// borrowMarkedRunes is borrowRunes that also marks the text's notable
// runes (notable.go) as it decodes: the index costs a few operations a
// word of eight ASCII bytes, not a second read of the text. Give both
// back (returnRunes, the index's release) once nothing refers to them.
func borrowMarkedRunes(s string) ([]rune, *notableIndex) {
	buf := runePool.Get().(*[]rune)
	if cap(*buf) < len(s) {
		*buf = make([]rune, 0, len(s))
	}
	x := borrowNotableIndex(len(s)) // a rune takes a byte at least
	rs := decodeMarked((*buf)[:len(s)], s, x)
	x.n = len(rs)
	return rs, x
}

// SWAR constants: a byte's low seven bits, and its high bit, in each of
// the eight bytes of a word.
const (
	swarLow7 = 0x7f7f7f7f7f7f7f7f
	swarHigh = 0x8080808080808080
	swarOnes = 0x0101010101010101
)

// bytesEqual has the high bit of each byte of w (eight ASCII bytes) set
// where that byte is c. A byte of w^c below 0x80 plus 0x7f carries into
// its high bit (and no further) unless it is zero.
func bytesEqual(w uint64, c byte) uint64 {
	return ^((w ^ uint64(c)*swarOnes) + swarLow7) & swarHigh
}

// byteFlags packs the high bits of a word's eight bytes into eight bits,
// byte j's as bit j: bit 8j of m>>7, times 2^(7(7-j)+7), lands on bit
// 56+j, and no two of the products' bits meet.
func byteFlags(m uint64) uint64 { return ((m >> 7) * 0x0102040810204080) >> 56 }

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
// as a word.
func decodeMarked(out []rune, s string, x *notableIndex) []rune {
	k := 0
	byRune := 0 // the bytes before it are decoded a rune at a time
	// The string's bytes, read only: one load a word where indexing the
	// string compiled to eight.
	bs := unsafe.Slice(unsafe.StringData(s), len(s))
	for i := 0; i < len(s); {
		if i >= byRune && i+8 <= len(s) {
			b := bs[i : i+8 : i+8]
			w := binary.LittleEndian.Uint64(b)
			if w&swarHigh == 0 {
				o := out[k : k+8 : k+8]
				o[0], o[1], o[2], o[3] = rune(b[0]), rune(b[1]), rune(b[2]), rune(b[3])
				o[4], o[5], o[6], o[7] = rune(b[4]), rune(b[5]), rune(b[6]), rune(b[7])
				nl, dollar, back := bytesEqual(w, '\n'), bytesEqual(w, '$'), bytesEqual(w, '\\')
				br := bytesEqual(w, '[') | bytesEqual(w, ']') | bytesEqual(w, '}')
				a := bytesEqual(w|0x20*swarOnes, 'a') // "a" or "A"
				if a != 0 {
					markByte(x.planes[planeLetterA], k, byteFlags(a))
				}
				if nl|dollar|back|br != 0 {
					if nl != 0 {
						markByte(x.planes[planeNewline], k, byteFlags(nl))
					}
					if dollar != 0 {
						markByte(x.planes[planeDollar], k, byteFlags(dollar))
					}
					if back != 0 {
						markByte(x.planes[planeBackslash], k, byteFlags(back))
					}
					if br != 0 {
						markByte(x.planes[planeBrackets], k, byteFlags(br))
					}
				}
				i += 8
				k += 8
				continue
			}
			// A non-ASCII byte: this word's runes one at a time (testing
			// the next word from the next byte would read it eight times).
			byRune = i + 8
		}
		c := s[i]
		if c < utf8.RuneSelf {
			out[k] = rune(c)
			if p := planeOf[c]; p != 0 {
				x.planes[p-1][k/64] |= 1 << (k % 64)
			}
			i++
			k++
			continue
		}
		if c >= 0xe1 && c <= 0xec && i+2 < len(s) && bs[i+1]&0xc0 == 0x80 && bs[i+2]&0xc0 == 0x80 {
			// decodeShort's commonest case (CJK, Indic, Thai), inline:
			// a lead byte with no overlong or surrogate forms.
			out[k] = rune(c&0x0f)<<12 | rune(bs[i+1]&0x3f)<<6 | rune(bs[i+2]&0x3f)
			i += 3
			k++
			continue
		}
		if r, size := decodeShort(s, i); size > 0 {
			out[k] = r
			i += size
			k++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		out[k] = r
		i += size
		k++
	}
	return out[:k]
}

// decodeShort decodes a well-formed two- or three-byte rune at s[i] (the
// Cyrillic, Greek, Arabic, Indic and CJK of the traces), as
// utf8.DecodeRuneInString would, without its call; size 0 for anything
// else (a four-byte rune, an ill-formed or cut sequence), which that
// decodes.
func decodeShort(s string, i int) (rune, int) {
	c0 := s[i]
	switch {
	case c0 >= 0xc2 && c0 <= 0xdf && i+1 < len(s):
		if c1 := s[i+1]; c1&0xc0 == 0x80 {
			return rune(c0&0x1f)<<6 | rune(c1&0x3f), 2
		}
	case c0 >= 0xe0 && c0 <= 0xef && i+2 < len(s):
		c1, c2 := s[i+1], s[i+2]
		lo, hi := byte(0x80), byte(0xbf)
		switch c0 {
		case 0xe0:
			lo = 0xa0 // no overlong encodings
		case 0xed:
			hi = 0x9f // no surrogates
		}
		if c1 >= lo && c1 <= hi && c2&0xc0 == 0x80 {
			return rune(c0&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f), 3
		}
	}
	return 0, 0
}
