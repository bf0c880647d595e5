package llm

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/datg/datg/internal/strictjson"
)

// checkBody refuses a reply body that encoding/json would read without a
// word but not as it is: bytes that are not UTF-8 (each read as U+FFFD),
// an escaped UTF-16 surrogate without its pair (also read as U+FFFD), and
// a key given twice in one object (the last one read, the other dropped).
// vLLM and OpenAI encode their replies as UTF-8 JSON from text that is
// valid Unicode, one key each, so any of these is a fault on the way.
func checkBody(body []byte) error {
	if !utf8.Valid(body) {
		return fmt.Errorf("reply body is not valid UTF-8 (byte %d): %w", invalidUTF8At(body), ErrMalformed)
	}
	if at := loneSurrogateAt(body); at >= 0 {
		return fmt.Errorf("reply body escapes a UTF-16 surrogate without its pair (%s at byte %d): %w", body[at:at+6], at, ErrMalformed)
	}
	// Keys are compared as encoding/json matches them to the fields
	// readReply decodes into, ignoring case. (Objects keyed by token text,
	// such as logprobs, would need exact keys; datg never asks for them.)
	if _, err := strictjson.Check(body, strictjson.Options{}); err != nil {
		if errors.Is(err, strictjson.ErrDuplicateKey) {
			return fmt.Errorf("reply body names a key twice (%v): %w", err, ErrMalformed)
		}
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// invalidUTF8At is the offset of the first byte of b that is not UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// loneSurrogateAt is the offset of the first \uXXXX escape in a JSON text
// that names a UTF-16 surrogate without its pair (a high one not followed
// by a low one, or a low one alone), or -1. A backslash appears in JSON
// only in strings, always starting an escape, so no string state is kept.
func loneSurrogateAt(b []byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if i+1 >= len(b) || b[i+1] != 'u' {
			i++ // a two-character escape: skip what it escapes
			continue
		}
		r, ok := hex4(b, i+2)
		if !ok {
			return -1 // not JSON: the decoder says so
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return i
		case r >= 0xD800 && r <= 0xDBFF:
			low, ok := hex4(b, i+8)
			if i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' || !ok || low < 0xDC00 || low > 0xDFFF {
				return i
			}
			i += 11 // the pair
		default:
			i += 5
		}
	}
	return -1
}

// hex4 reads the four hex digits at b[at:].
func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
