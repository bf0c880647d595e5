package verify

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/datg/datg/internal/jsonstr"
	"github.com/datg/datg/internal/swar"
	"github.com/datg/datg/internal/utf8lead"
	"github.com/datg/datg/transforms/mathverify"
)

// requestDecoder reads the usual answers-check line without reflection
// (decoding the JSON was a tenth of checking a short answer, and a
// byte-at-a-time scan of a long trace's string a fifth of checking it).
// It keeps the buffers strings with escapes are unescaped into from line
// to line: one for the prediction, which it returns as bytes (a long
// trace's text, not copied again into a string), and one for the rest.
type requestDecoder struct {
	pred, other []byte
	// text, if set, is where the prediction is decoded instead, straight
	// into the grader's runes (mathverify.Text.DecodeJSONString; the pred
	// decodePlainRequest returns is then nil).
	text *mathverify.Text
}

// decodePlainRequest reads the usual answers-check line, an object of
// exactly the members "gold" and "pred" (in either order), both strings
// of valid UTF-8 with no \u escape, and JSON whitespace around: what
// json.Unmarshal into a checkRequest gives for it. Any other line, valid
// or not, reports false, and json.Unmarshal reads it (and words its
// error). FuzzPlainRequestDecodesAsJSON compares the two. pred is in
// line or in the decoder's buffer (or, if d.text is set, decoded into
// it): valid until the next call.
func (d *requestDecoder) decodePlainRequest(line []byte) (gold string, pred []byte, ok bool) {
	i := skipJSONSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", nil, false
	}
	var haveGold, havePred bool
	for member := 0; member < 2; member++ {
		i = skipJSONSpace(line, i+1)
		key, next, ok := plainJSONString(line, i, &d.other)
		if !ok {
			return "", nil, false
		}
		i = skipJSONSpace(line, next)
		if i >= len(line) || line[i] != ':' {
			return "", nil, false
		}
		i = skipJSONSpace(line, i+1)
		buf := &d.other
		if string(key) == "pred" {
			buf = &d.pred
		}
		isGold := string(key) == "gold"
		var value []byte
		if buf == &d.pred && d.text != nil {
			next, ok = d.text.DecodeJSONString(line, i)
		} else {
			value, next, ok = plainJSONString(line, i, buf)
		}
		if !ok {
			return "", nil, false
		}
		switch {
		case isGold && !haveGold:
			gold, haveGold = string(value), true
		case buf == &d.pred && !havePred:
			pred, havePred = value, true
		default:
			return "", nil, false
		}
		i = skipJSONSpace(line, next)
		want := byte(',')
		if member == 1 {
			want = '}'
		}
		if i >= len(line) || line[i] != want {
			return "", nil, false
		}
	}
	if skipJSONSpace(line, i+1) != len(line) {
		return "", nil, false
	}
	return gold, pred, true
}

// skipJSONSpace is the index of the first byte at or after i that is not
// JSON whitespace.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainJSONString decodes the JSON string starting at b[i] (its opening
// quote) and returns it with the index past its closing quote, or false
// if there is none, or it holds a control character, a \u escape or
// invalid UTF-8 (which json replaces). The string is in b if it has no
// escape, else unescaped into *buf (reused). In one pass: runs of bytes
// that need nothing are skipped eight at a time (swar.JSONSpecial) and
// copied whole; at a non-ASCII byte its rune is checked in place, by
// table.
func plainJSONString(b []byte, i int, buf *[]byte) (s []byte, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	out := (*buf)[:0]
	escaped := false
	run := i + 1 // the bytes from run to j need no unescaping
	for j := run; ; {
		// Skip to the next byte that needs attention, a word at a time
		// (nextSpecialByte, inlined: it runs once for each such byte).
		for j+8 <= len(b) {
			if m := swar.JSONSpecial(binary.LittleEndian.Uint64(b[j : j+8])); m != 0 {
				j += bits.TrailingZeros64(m) / 8
				break
			}
			j += 8
		}
		if j+8 > len(b) {
			j = nextSpecialByte(b, j)
		}
		if j >= len(b) {
			return nil, 0, false
		}
		switch c := b[j]; {
		case c == '"':
			if !escaped {
				return b[run:j:j], j + 1, true
			}
			out = append(out, b[run:j]...)
			*buf = out
			return out, j + 1, true
		case c == '\\':
			if j+1 >= len(b) || jsonstr.Unescaped[b[j+1]] == 0 {
				return nil, 0, false
			}
			out = append(out, b[run:j]...)
			out = append(out, jsonstr.Unescaped[b[j+1]])
			escaped = true
			j += 2
			run = j
		case c < 0x20:
			return nil, 0, false
		default: // a non-ASCII byte, and the ones after it
			for j < len(b) && b[j] >= utf8.RuneSelf {
				lead := utf8lead.Lead[b[j]]
				size := int(lead & 7)
				if size == 0 || j+size > len(b) {
					return nil, 0, false // a byte that cannot lead, or a cut rune
				}
				if c1, accept := b[j+1], utf8lead.Second[lead>>4]; c1 < accept.Lo || c1 > accept.Hi {
					return nil, 0, false
				}
				if size > 2 && b[j+2]&0xc0 != 0x80 || size > 3 && b[j+3]&0xc0 != 0x80 {
					return nil, 0, false
				}
				j += size
			}
		}
	}
}

// nextSpecialByte is the index of the first byte at or after j that
// swar.JSONSpecial flags, or len(b).
func nextSpecialByte(b []byte, j int) int {
	for ; j+8 <= len(b); j += 8 {
		if m := swar.JSONSpecial(binary.LittleEndian.Uint64(b[j : j+8])); m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return j
		}
	}
	return j
}
