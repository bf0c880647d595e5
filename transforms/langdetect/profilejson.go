package langdetect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A profile's JSON is read by hand: encoding/json decoded the 55 profiles'
// 184,000 n-grams into a map each, then every n-gram was looked up by its
// string (half a CPU second once per process, more than langcheck's checks
// of 1,000 real-length traces). parseProfile reads the one shape a profile
// has, {"freq": {gram: count, ...}, "n_words": [n1, n2, n3], "name":
// lang} (the members in any order), and returns the grams packed, in the
// order of the file.

// gramFreq is one of a profile's n-grams of 1 to 3 characters (packed by
// packGram) and its count.
type gramFreq struct {
	gram  uint64
	runes int // 1 to 3
	freq  int64
}

// parsedProfile is a profile as parseProfile reads it.
type parsedProfile struct {
	name   string
	nWords []int64
	grams  []gramFreq // the n-grams of 1 to 3 characters, in the file's order
}

// packGram packs 1 to 3 characters, each plus one in 21 bits (so no
// character packs as the absence of one), the first in the highest bits.
func packGram(rs []rune) uint64 {
	var g uint64
	for _, r := range rs {
		g = g<<21 | uint64(r+1)
	}
	return g
}

// unpackGram is the characters packGram packed.
func unpackGram(g uint64) []rune {
	var rs []rune
	for i := 2; i >= 0; i-- {
		if c := g >> (21 * i) & (1<<21 - 1); c != 0 {
			rs = append(rs, rune(c-1))
		}
	}
	return rs
}

// errProfileSyntax is wrapped by parseProfile's errors, which say where.
var errProfileSyntax = errors.New("not a langdetect profile")

// parseProfile reads a profile's JSON. It accepts what encoding/json
// decodes into {Name string; Freq map[string]int64; NWords []int64} with
// each member once, by its exact name (TestParseProfileIsEncodingJSON,
// FuzzParseProfile; a gram given twice is buildModel's to reject): strings with an escape or bytes that are not UTF-8
// are decoded by encoding/json itself; counts are JSON integers.
func parseProfile(data []byte) (*parsedProfile, error) {
	p := &parsedProfile{}
	r := profileReader{data: data}
	seen := map[string]bool{}
	if err := r.expect('{'); err != nil {
		return nil, err
	}
	for first := true; ; first = false {
		if r.peek() == '}' && first {
			break
		}
		member, err := r.str()
		if err != nil {
			return nil, err
		}
		if seen[member] {
			return nil, r.fail("member %q twice", member)
		}
		seen[member] = true
		if err := r.expect(':'); err != nil {
			return nil, err
		}
		switch member {
		case "name":
			if p.name, err = r.str(); err != nil {
				return nil, err
			}
		case "n_words":
			if p.nWords, err = r.ints(); err != nil {
				return nil, err
			}
		case "freq":
			if p.grams, err = r.freq(); err != nil {
				return nil, err
			}
		default:
			return nil, r.fail("unknown member %q", member)
		}
		if r.peek() == ',' {
			r.pos++
			continue
		}
		break
	}
	if err := r.expect('}'); err != nil {
		return nil, err
	}
	if r.skipSpace(); r.pos != len(r.data) {
		return nil, r.fail("text after the profile")
	}
	return p, nil
}

// profileReader reads JSON from data at pos.
type profileReader struct {
	data []byte
	pos  int
}

func (r *profileReader) fail(format string, args ...any) error {
	return fmt.Errorf("%w: byte %d: %s", errProfileSyntax, r.pos, fmt.Sprintf(format, args...))
}

func (r *profileReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek is the next byte after white space (0 at the end).
func (r *profileReader) peek() byte {
	r.skipSpace()
	if r.pos == len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

func (r *profileReader) expect(c byte) error {
	if r.peek() != c {
		return r.fail("want %q", c)
	}
	r.pos++
	return nil
}

// rawStr reads a string and returns its bytes between the quotes, and
// whether they are the string's characters as they are (no escape, valid
// UTF-8).
func (r *profileReader) rawStr() (raw []byte, plain bool, err error) {
	if r.peek() != '"' {
		return nil, false, r.fail("want a string")
	}
	start := r.pos
	plain = true
	for i := start + 1; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			r.pos = i + 1
			raw = r.data[start+1 : i]
			return raw, plain && utf8.Valid(raw), nil
		case c == '\\':
			plain = false
			i++ // the escaped character (encoding/json checks the escape)
		case c < 0x20:
			return nil, false, r.fail("control character in a string")
		}
	}
	return nil, false, r.fail("unterminated string")
}

// str reads a string, decoding escapes as encoding/json does.
func (r *profileReader) str() (string, error) {
	start := r.peekPos()
	raw, plain, err := r.rawStr()
	if err != nil {
		return "", err
	}
	if plain {
		return string(raw), nil
	}
	var s string
	if err := json.Unmarshal(r.data[start:r.pos], &s); err != nil {
		return "", r.fail("%v", err)
	}
	return s, nil
}

func (r *profileReader) peekPos() int {
	r.skipSpace()
	return r.pos
}

// integer reads a JSON number that is an integer and fits an int64.
func (r *profileReader) integer() (int64, error) {
	r.skipSpace()
	start := r.pos
	if r.pos < len(r.data) && r.data[r.pos] == '-' {
		r.pos++
	}
	digits := r.pos
	for r.pos < len(r.data) && '0' <= r.data[r.pos] && r.data[r.pos] <= '9' {
		r.pos++
	}
	switch {
	case r.pos == digits:
		return 0, r.fail("want an integer")
	case r.data[digits] == '0' && r.pos-digits > 1:
		return 0, r.fail("leading zero")
	case r.pos < len(r.data) && (r.data[r.pos] == '.' || r.data[r.pos] == 'e' || r.data[r.pos] == 'E'):
		return 0, r.fail("want an integer")
	}
	n, err := strconv.ParseInt(string(r.data[start:r.pos]), 10, 64)
	if err != nil {
		return 0, r.fail("%v", err)
	}
	return n, nil
}

// ints reads an array of integers.
func (r *profileReader) ints() ([]int64, error) {
	if err := r.expect('['); err != nil {
		return nil, err
	}
	out := []int64{}
	if r.peek() == ']' {
		r.pos++
		return out, nil
	}
	for {
		n, err := r.integer()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if r.peek() == ',' {
			r.pos++
			continue
		}
		return out, r.expect(']')
	}
}

// freq reads the object of n-gram counts, keeping the n-grams of 1 to 3
// characters.
func (r *profileReader) freq() ([]gramFreq, error) {
	if err := r.expect('{'); err != nil {
		return nil, err
	}
	// Every gram is followed by a ':' (a string may hold more): room for
	// all of them at once.
	out := make([]gramFreq, 0, bytes.Count(r.data[r.pos:], []byte{':'}))
	if r.peek() == '}' {
		r.pos++
		return out, nil
	}
	var rs [3]rune
	for {
		start := r.peekPos()
		raw, plain, err := r.rawStr()
		if err != nil {
			return nil, err
		}
		var word string // decoded by encoding/json, when not plain
		if !plain {
			if err := json.Unmarshal(r.data[start:r.pos], &word); err != nil {
				return nil, r.fail("%v", err)
			}
		}
		if err := r.expect(':'); err != nil {
			return nil, err
		}
		freq, err := r.integer()
		if err != nil {
			return nil, err
		}
		n := 0
		if plain {
			n = firstRunes(&rs, string(raw)) // (a conversion range reads in place)
		} else {
			n = firstRunes(&rs, word)
		}
		if n >= 1 && n <= 3 {
			out = append(out, gramFreq{packGram(rs[:n]), n, freq})
		}
		if r.peek() == ',' {
			r.pos++
			continue
		}
		if err := r.expect('}'); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// firstRunes puts the first characters of s in rs and returns how many s
// holds, or len(rs)+1 when it holds more.
func firstRunes(rs *[3]rune, s string) int {
	n := 0
	for _, c := range s {
		if n == len(rs) {
			return n + 1
		}
		rs[n] = c
		n++
	}
	return n
}
