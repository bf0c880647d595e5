package mathverify

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/datg/datg/internal/jsonstr"
	"github.com/datg/datg/internal/swar"
	"github.com/datg/datg/internal/utf8lead"
)

// A long trace reaches `datg answers check` as a JSON string. Reading it
// into bytes (finding the closing quote, unescaping, validating UTF-8)
// and then decoding those bytes into runes and the notable index read
// each trace twice: the two passes were half the instructions of
// checking a 120 KB trace. Text decodes the JSON string straight into
// the runes and the index, in one pass.

// Text is a prediction decoded from a JSON string for GradeText. Its
// buffers are reused from one DecodeJSONString to the next; the zero
// Text is ready to use. Not safe for concurrent use.
type Text struct {
	rs    []rune
	marks notableIndex
	size  int // the decoded text's length in bytes
}

// DecodeJSONString decodes the JSON string starting at b[i] (its opening
// quote) into t and returns the index past its closing quote. It reports
// false, leaving t undefined, where plain JSON strings end: at no
// closing quote, a control character, a \u escape (the caller leaves
// such a string to encoding/json) or invalid UTF-8 (which encoding/json
// would replace). What it decodes is the string encoding/json gives, as
// runes (TestDecodeJSONStringAsByByte, FuzzDecodeJSONStringAsByByte).
func (t *Text) DecodeJSONString(b []byte, i int) (next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	room := len(b) - i // a rune takes a byte of the literal at least
	if cap(t.rs) < room {
		t.rs = make([]rune, withRoom(room))
	}
	t.marks.reset(room)
	out, x := t.rs[:room], &t.marks
	k, escapes := 0, 0
	for j := i + 1; j < len(b); {
		if j+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[j : j+8])
			if swar.JSONSpecial(w) == 0 { // eight ASCII runes, none a quote, backslash or control
				o := out[k : k+8 : k+8]
				c := b[j : j+8 : j+8]
				o[0], o[1], o[2], o[3] = rune(c[0]), rune(c[1]), rune(c[2]), rune(c[3])
				o[4], o[5], o[6], o[7] = rune(c[4]), rune(c[5]), rune(c[6]), rune(c[7])
				// No newline or backslash here: in JSON they are escaped.
				dollar, a := swar.Equal(w, '$'), swar.Equal(w|0x20*swar.Ones, 'a') // "a" or "A"
				br := swar.Equal(w, '[') | swar.Equal(w, ']') | swar.Equal(w, '}')
				if a != 0 {
					markByte(x.planes[planeLetterA], k, swar.Flags(a))
				}
				if dollar|br != 0 {
					if dollar != 0 {
						markByte(x.planes[planeDollar], k, swar.Flags(dollar))
					}
					if br != 0 {
						markByte(x.planes[planeBrackets], k, swar.Flags(br))
					}
				}
				j += 8
				k += 8
				continue
			}
		}
		// This word's bytes one at a time (an escape or a rune may run
		// past it), or the literal's last bytes.
		for end := min(j+8, len(b)); j < end; k++ {
			c := b[j]
			cls := jsonByteClass[c]
			if cls <= nPlanes { // an ASCII rune as itself, notable in plane cls-1 if cls > 0
				out[k] = rune(c)
				if cls != 0 {
					x.planes[cls-1][k/64] |= 1 << (k % 64)
				}
				j++
				continue
			}
			switch cls {
			case jsonQuote:
				t.rs, t.size = out[:k], j-(i+1)-escapes
				x.n = k
				return j + 1, true
			case jsonBackslash:
				if j+1 >= len(b) || jsonstr.Unescaped[b[j+1]] == 0 {
					return 0, false
				}
				c = jsonstr.Unescaped[b[j+1]]
				out[k] = rune(c)
				if p := planeOf[c]; p != 0 {
					x.planes[p-1][k/64] |= 1 << (k % 64)
				}
				escapes++
				j += 2
				continue
			case jsonControl:
				return 0, false
			}
			lead := utf8lead.Lead[c]
			size := int(lead & 7)
			if size == 0 || j+size > len(b) {
				return 0, false // a byte that cannot lead, or a cut rune
			}
			c1, second := b[j+1], utf8lead.Second[lead>>4]
			if c1 < second.Lo || c1 > second.Hi {
				return 0, false
			}
			switch size {
			case 2:
				out[k] = rune(c&0x1f)<<6 | rune(c1&0x3f)
			case 3:
				c2 := b[j+2]
				if c2&0xc0 != 0x80 {
					return 0, false
				}
				out[k] = rune(c&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f)
			default:
				c2, c3 := b[j+2], b[j+3]
				if c2&0xc0 != 0x80 || c3&0xc0 != 0x80 {
					return 0, false
				}
				out[k] = rune(c&0x07)<<18 | rune(c1&0x3f)<<12 | rune(c2&0x3f)<<6 | rune(c3&0x3f)
			}
			j += size
		}
	}
	return 0, false // no closing quote
}

// The classes of a byte in a JSON string (jsonByteClass): up to nPlanes,
// an ASCII rune standing for itself (0, or 1 + the notable plane that
// marks it); then the bytes that need more.
const (
	jsonQuote = nPlanes + 1 + iota
	jsonBackslash
	jsonControl
	jsonNonASCII
)

var jsonByteClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '"':
			t[c] = jsonQuote
		case c == '\\':
			t[c] = jsonBackslash
		case c < 0x20:
			t[c] = jsonControl
		case c >= utf8.RuneSelf:
			t[c] = jsonNonASCII
		default:
			t[c] = planeOf[c]
		}
	}
	return t
}()

// GradeText is Grade of the text last decoded into t (t is only read).
func (g Gold) GradeText(t *Text) Verdict {
	if t.size <= maxPlainNumber && onlyNumberRunes(t.rs) {
		// Perhaps a plain number: Grade's path, from the string (valid
		// UTF-8, as DecodeJSONString takes no other, converts back to
		// the same string).
		return g.Grade(string(t.rs))
	}
	// extract(text) on the runes it would decode: a text of other runes,
	// or longer, is no plain number; from indexFrom bytes on, its
	// searches use the index decodeMarked would build, which t holds.
	if t.size < indexFrom {
		return g.verdict(extractFrom(t.rs, nil, false))
	}
	return g.verdict(extractFrom(t.rs, &t.marks, true))
}

// onlyNumberRunes reports whether every rune of rs is one a plain number
// (extractPlainNumber) may hold: a digit, "-" or ".".
func onlyNumberRunes(rs []rune) bool {
	for _, r := range rs {
		if (r < '0' || r > '9') && r != '-' && r != '.' {
			return false
		}
	}
	return true
}

// String is the text last decoded into t.
func (t *Text) String() string { return string(t.rs) }
