package llm

import (
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// checkBody refuses a reply body that encoding/json would read without a
// word but not as it is: bytes that are not UTF-8 (each read as U+FFFD),
// an escaped UTF-16 surrogate without its pair (also read as U+FFFD), and
// a key given twice in one object (the last one read, the other dropped).
// vLLM and OpenAI encode their replies as UTF-8 JSON from text that is
// valid Unicode, one key each, so any of these is a fault on the way. What
// is not JSON at all is left to the decoder to say.
func checkBody(body []byte) error {
	if !utf8.Valid(body) {
		return fmt.Errorf("reply body is not valid UTF-8 (byte %d): %w", invalidUTF8At(body), ErrMalformed)
	}
	return scanJSON(body)
}

// maxScanDepth is encoding/json's own nesting limit: past it the decoder
// refuses the body, so the scan need not go deeper.
const maxScanDepth = 10000

// scanJSON reads a JSON text once, byte by byte, for the two faults
// encoding/json hides: a key given twice in one object (compared as it
// matches keys to struct fields, ignoring case: readReply decodes every
// object it reads into a struct; objects keyed by token text, such as
// logprobs, would need exact keys, and datg never asks for them), and a
// \uXXXX escape of a surrogate without its pair. It allocates only for
// object keys, so a reply's thousands of token ids cost one pass.
func scanJSON(b []byte) error {
	type frame struct {
		object, wantKey bool
		keys            map[string]bool
	}
	var stack []frame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			if len(stack) >= maxScanDepth {
				return nil // the decoder refuses it
			}
			stack = append(stack, frame{object: b[i] == '{', wantKey: b[i] == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantKey = true
			}
		case '"':
			end, escaped, err := scanString(b, i)
			if err != nil {
				return err
			}
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				f := &stack[n-1]
				f.wantKey = false
				key := string(b[i+1 : end])
				if escaped && json.Unmarshal(b[i:min(end+1, len(b))], &key) != nil {
					return nil // not JSON: the decoder says so
				}
				folded := string(foldKey(key))
				if f.keys[folded] {
					return fmt.Errorf("reply body names the key %s twice in one object (byte %d): %w", quoted(key), i, ErrMalformed)
				}
				if f.keys == nil {
					f.keys = map[string]bool{}
				}
				f.keys[folded] = true
			}
			i = end
		}
	}
	return nil
}

// scanString reads the JSON string that starts with the quote at b[at]: the
// index of its closing quote (len(b) when there is none), whether it holds
// escapes, and an error for an escaped surrogate without its pair (a high
// one not followed by a low one, or a low one alone).
func scanString(b []byte, at int) (end int, escaped bool, err error) {
	for i := at + 1; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i, escaped, nil
		case '\\':
			escaped = true
			if i+1 >= len(b) || b[i+1] != 'u' {
				i++ // a two-character escape: skip what it escapes
				continue
			}
			r, ok := hex4(b, i+2)
			switch {
			case !ok:
				return len(b), escaped, nil // not JSON: the decoder says so
			case r >= 0xDC00 && r <= 0xDFFF:
				return 0, escaped, fmt.Errorf("reply body escapes a UTF-16 surrogate without its pair (%s at byte %d): %w", b[i:i+6], i, ErrMalformed)
			case r >= 0xD800 && r <= 0xDBFF:
				low, ok := hex4(b, i+8)
				if i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' || !ok || low < 0xDC00 || low > 0xDFFF {
					return 0, escaped, fmt.Errorf("reply body escapes a UTF-16 surrogate without its pair (%s at byte %d): %w", b[i:i+6], i, ErrMalformed)
				}
				i += 11 // the pair
			default:
				i += 5
			}
		}
	}
	return len(b), escaped, nil
}

// foldKey is a key as encoding/json compares it to field names (its
// appendFoldedName): ASCII letters upper-cased, other letters folded.
func foldKey(key string) []byte {
	out := make([]byte, 0, len(key))
	for _, r := range key {
		switch {
		case 'a' <= r && r <= 'z':
			out = append(out, byte(r-'a'+'A'))
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		default:
			out = utf8.AppendRune(out, unicode.ToUpper(unicode.ToLower(r)))
		}
	}
	return out
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
