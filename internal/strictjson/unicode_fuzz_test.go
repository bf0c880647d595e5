package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckUnicode compares CheckUnicode with a second reading of the
// document that ignores its structure: in valid JSON, non-ASCII bytes and
// backslashes occur only inside strings, so the document is Unicode text
// when its bytes are UTF-8 and each \u escape of a surrogate is a high one
// directly followed by a low one. Every refusal names a line and a byte of
// the document.
func FuzzCheckUnicode(f *testing.F) {
	for _, doc := range notUnicode {
		f.Add([]byte(doc))
	}
	for _, doc := range unicodeText {
		f.Add([]byte(doc))
	}
	f.Add([]byte("{\"a\": [\"x\", {\"\\ud800\": 1}],\n\"b\": \"\xff\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckUnicode(data)
		if !json.Valid(data) {
			return // a syntax error or a Unicode fault: either refuses it
		}
		if want := isUnicodeText(data); (err == nil) != want {
			t.Fatalf("CheckUnicode(%q) = %v; the byte reading says Unicode text = %v", data, err, want)
		}
		var ue *UnicodeError
		if err != nil && (!errors.As(err, &ue) || ue.Line < 1 || ue.Line > bytes.Count(data, []byte{'\n'})+1 || ue.Column < 1 || ue.Column > len(data)) {
			t.Fatalf("CheckUnicode(%q) = %v: not a *UnicodeError on a line and byte of the document", data, err)
		}
	})
}

// isUnicodeText is the fuzz test's second reading (see FuzzCheckUnicode).
func isUnicodeText(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	s := string(data)
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++ // the escaped character
			continue
		}
		r, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
		switch {
		case r < 0xD800 || r > 0xDFFF:
		case r <= 0xDBFF && strings.HasPrefix(s[i+6:], `\u`):
			lo, _ := strconv.ParseUint(s[i+8:i+12], 16, 32)
			if lo < 0xDC00 || lo > 0xDFFF {
				return false
			}
			i += 6
		default:
			return false
		}
		i += 5
	}
	return true
}
