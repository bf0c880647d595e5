package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// UnicodeError says which string of a document is not Unicode text.
type UnicodeError struct {
	Line   int    // 1-based line of the document holding the fault
	Column int    // 1-based byte of that line where the fault starts
	Path   string // the string's place: keys and array indexes from the top, e.g. dag.nodes[1].node_id (a bad key ends the path)
	Reason string // what is wrong, e.g. `unpaired UTF-16 surrogate \ud800`
}

func (e *UnicodeError) Error() string {
	return fmt.Sprintf("%v: %s (byte %d of line %d)", ErrInvalidUnicode, e.Reason, e.Column, e.Line)
}

func (e *UnicodeError) Unwrap() error { return ErrInvalidUnicode }

// CheckUnicode reports the first string of the JSON document data, key or
// value, that is not Unicode text, as a *UnicodeError: raw bytes that are
// not UTF-8 (RFC 8259 §8.1: JSON text is UTF-8; a UTF-8-encoded surrogate
// is not UTF-8 either), or a \u escape of a UTF-16 surrogate that is not
// half of a high-low pair (RFC 8259 §8.2: such a string holds no Unicode
// characters and what a receiver makes of it is unpredictable).
// encoding/json turns both into U+FFFD silently (its Unmarshal
// documentation says so), so a check must read the bytes before decoding.
//
// Escaped control characters (\u0000, \n) are valid Unicode and pass: which
// fields may hold them is the caller's to say. A document that is not JSON
// gives the decoder's syntax error, not wrapped in a *UnicodeError.
func CheckUnicode(data []byte) error {
	if utf8.Valid(data) && !hasSurrogateEscape(data) {
		return nil // the common case, decided in one pass over the bytes
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lines := lineCounter{data: data, line: 1}
	var stack []*pathFrame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &Error{Line: lines.at(dec.InputOffset()), Err: err}
		}
		var top *pathFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok {
			raw := data[start:dec.InputOffset()]
			quote := bytes.IndexByte(raw, '"')
			if off, reason := unicodeFault(raw[quote:]); reason != "" {
				at := int(start) + quote + off
				line := lines.at(int64(at))
				lineStart := bytes.LastIndexByte(data[:at], '\n') + 1
				isKey := top != nil && top.object && top.wantKey
				// A bad key is shown as written (its bytes, its escapes),
				// not as decoded to replacement characters.
				lit := raw[quote:]
				return &UnicodeError{Line: line, Column: at - lineStart + 1, Path: pathOf(stack, isKey, string(lit[1:len(lit)-1])), Reason: reason}
			}
			if top != nil && top.object && top.wantKey {
				top.key, top.wantKey = s, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, &pathFrame{object: tok == json.Delim('{'), wantKey: tok == json.Delim('{')})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended inside the innermost container.
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.object {
				top.wantKey = true
			} else {
				top.index++
			}
		}
	}
}

// pathFrame is an array or object CheckUnicode is inside.
type pathFrame struct {
	object  bool
	wantKey bool   // an object expects a key (or its end) next
	key     string // the object's key last read
	index   int    // the array's element being read
}

// pathOf renders the place of the value being read, or of the key key
// when isKey.
func pathOf(stack []*pathFrame, isKey bool, key string) string {
	path := ""
	for i, f := range stack {
		switch {
		case !f.object:
			path += fmt.Sprintf("[%d]", f.index)
		case i == len(stack)-1 && isKey:
			path = AppendKey(path, key)
		default:
			path = AppendKey(path, f.key)
		}
	}
	return path
}

// AppendKey names the member key of the object at path as a
// UnicodeError's Path does: path.key for a printable key without dots,
// brackets or quotes, else path["key"] quoted as Go quotes it.
func AppendKey(path, key string) string {
	switch {
	case !plainKey(key):
		return path + "[" + strconv.Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}

// plainKey tells a key that reads unambiguously after a dot: printable,
// with none of the characters a path is written with.
func plainKey(k string) bool {
	if k == "" || strings.ContainsAny(k, `.[]"`) {
		return false
	}
	for _, r := range k {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

// hasSurrogateEscape tells whether data may hold a \u escape of a surrogate
// (\uD800-\uDFFF): a \u followed by d or D and 8-f. It may say yes for an
// escaped backslash followed by such letters; CheckUnicode then reads the
// document properly.
func hasSurrogateEscape(data []byte) bool {
	for {
		i := bytes.Index(data, []byte(`\u`))
		if i < 0 || i+4 > len(data) {
			return false
		}
		if c, d := data[i+2], data[i+3]; (c == 'd' || c == 'D') && strings.IndexByte("89abcdefABCDEF", d) >= 0 {
			return true
		}
		data = data[i+2:]
	}
}

// unicodeFault reads one JSON string literal (quotes included, known to be
// valid JSON) and returns the offset and description of its first fault, or
// "" when it is Unicode text.
func unicodeFault(lit []byte) (int, string) {
	for i := 1; i < len(lit)-1; {
		c := lit[i]
		switch {
		case c == '\\' && lit[i+1] == 'u':
			r := hex4(lit[i+2 : i+6])
			if !utf16.IsSurrogate(r) {
				i += 6
				continue
			}
			if r < 0xDC00 && i+12 <= len(lit) && lit[i+6] == '\\' && lit[i+7] == 'u' {
				if lo := hex4(lit[i+8 : i+12]); lo >= 0xDC00 && lo <= 0xDFFF {
					i += 12 // a high surrogate and a low one: one character
					continue
				}
			}
			return i, fmt.Sprintf(`unpaired UTF-16 surrogate %s`, lit[i:i+6])
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(lit[i:])
			if r == utf8.RuneError && size <= 1 {
				return i, fmt.Sprintf("invalid UTF-8 (byte %#02x)", c)
			}
			i += size
		}
	}
	return 0, ""
}

// hex4 reads four hex digits (valid, as the JSON is).
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}
