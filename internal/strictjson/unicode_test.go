package strictjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The strings JSONTestSuite (github.com/nst/JSONTestSuite, test_parsing/)
// leaves to the implementation (i_string_*) that are UTF-8 JSON texts: each
// holds no Unicode text, and encoding/json decodes each to U+FFFD without
// an error. CheckUnicode refuses every one.
var notUnicode = map[string]string{
	"i_string_1st_surrogate_but_2nd_missing":         `["\uDADA"]`,
	"i_string_1st_valid_surrogate_2nd_invalid":       `["\uD888\u1234"]`,
	"i_string_incomplete_surrogate_and_escape_valid": `["\uD800\n"]`,
	"i_string_incomplete_surrogate_pair":             `["\uDd1ea"]`,
	"i_string_incomplete_surrogates_escape_valid":    `["\uD800\uD800\n"]`,
	"i_string_invalid_lonely_surrogate":              `["\ud800"]`,
	"i_string_invalid_surrogate":                     `["\ud800abc"]`,
	"i_string_inverted_surrogates_U+1D11E":           `["\uDd1e\uD834"]`,
	"i_string_lone_second_surrogate":                 `["\uDFAA"]`,
	"i_string_UTF-8_invalid_sequence":                "[\"\xe6\x97\xa5\xd1\x88\xfa\"]",
	"i_string_UTF8_surrogate_U+D800":                 "[\"\xed\xa0\x80\"]",
	"i_string_invalid_utf-8":                         "[\"\xff\"]",
	"i_string_iso_latin_1":                           "[\"\xe9\"]",
	"i_string_lone_utf8_continuation_byte":           "[\"\x81\"]",
	"i_string_not_in_unicode_range":                  "[\"\xf4\xbf\xbf\xbf\"]",
	"i_string_overlong_sequence_2_bytes":             "[\"\xc0\xaf\"]",
	"i_string_overlong_sequence_6_bytes":             "[\"\xfc\x83\xbf\xbf\xbf\xbf\"]",
	"i_string_overlong_sequence_6_bytes_null":        "[\"\xfc\x80\x80\x80\x80\x80\"]",
	"i_string_truncated-utf-8":                       "[\"\xe0\xff\"]",
	"a high surrogate at the very end of the string": `["x\uD834"]`,
}

// Strings JSONTestSuite says a parser must accept (y_string_*) that are
// Unicode text, escaped control characters and noncharacters included.
var unicodeText = map[string]string{
	"y_string_accepted_surrogate_pair":                  `["\uD801\udc37"]`,
	"y_string_accepted_surrogate_pairs":                 `["\ud83d\ude39\ud83d\udc8d"]`,
	"y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF": `["\uD834\uDd1e"]`,
	"y_string_last_surrogates_1_and_2":                  `["\uDBFF\uDFFF"]`,
	"y_string_unicode_U+10FFFE_nonchar":                 `["\uDBFF\uDFFE"]`,
	"y_string_escaped_noncharacter":                     `["\uFFFF"]`,
	"y_string_nonCharacterInUTF-8_U+FFFF":               "[\"\xef\xbf\xbf\"]",
	"y_string_nonCharacterInUTF-8_U+10FFFF":             "[\"\xf4\x8f\xbf\xbf\"]",
	"y_string_allowed_escapes":                          `["\"\\\/\b\f\n\r\t"]`,
	"y_string_escaped_control_character":                `["\u0012"]`,
	"y_string_null_escape":                              `["\u0000"]`,
	"y_string_u+2028_line_sep":                          "[\"\xe2\x80\xa8\"]",
	"y_string_unescaped_char_delete":                    "[\"\x7f\"]",
	"an escaped backslash before ud800 (no escape)":     `["\\ud800"]`,
	"a literal replacement character":                   "[\"\xef\xbf\xbd\"]",
}

func TestCheckUnicodeRefusesWhatDecodesToU_FFFD(t *testing.T) {
	for name, doc := range notUnicode {
		err := CheckUnicode([]byte(doc))
		var ue *UnicodeError
		if !errors.Is(err, ErrInvalidUnicode) || !errors.As(err, &ue) || ue.Path != "[0]" || ue.Line != 1 {
			t.Errorf("%s %q: got %v, want ErrInvalidUnicode at [0] on line 1", name, doc, err)
			continue
		}
		// What the check guards against: encoding/json accepts the
		// document and puts a replacement character in the string.
		var v []string
		if err := json.Unmarshal([]byte(doc), &v); err != nil || !strings.ContainsRune(v[0], utf8.RuneError) {
			t.Errorf("%s: encoding/json gave %q, %v; the case should decode to U+FFFD", name, v, err)
		}
	}
	for name, doc := range unicodeText {
		if err := CheckUnicode([]byte(doc)); err != nil {
			t.Errorf("%s %q: %v", name, doc, err)
		}
	}
}

// The error names the string's place (keys and array indexes), the line
// and the byte of that line where the fault is.
func TestCheckUnicodeNamesThePlace(t *testing.T) {
	cases := []struct {
		doc  string
		want UnicodeError
	}{
		{`{"model": "Qwen\ud800"}`, UnicodeError{Line: 1, Column: 16, Path: "model", Reason: `unpaired UTF-16 surrogate \ud800`}},
		{"{\"a\": 1,\n \"dag\": {\"nodes\": [{\"node_id\": \"n1\"}, {\"node_id\": \"n\xff\"}]}}",
			UnicodeError{Line: 2, Column: 53, Path: "dag.nodes[1].node_id", Reason: "invalid UTF-8 (byte 0xff)"}},
		{`{"audit_results": {"n1": [{"status": "COMMIT", "evidence": "x"}, {"evidence": "\uDC00"}]}}`,
			UnicodeError{Line: 1, Column: 80, Path: "audit_results.n1[1].evidence", Reason: `unpaired UTF-16 surrogate \uDC00`}},
		{"{\"harmful\": {\"a loop\": true, \"b\xc0\xaf\": true}}", UnicodeError{Line: 1, Column: 32, Path: `harmful["b\xc0\xaf"]`, Reason: "invalid UTF-8 (byte 0xc0)"}},
		{`{"edges": {"a.b>c": true, "x": ["ok", "\ud800"]}}`, UnicodeError{Line: 1, Column: 40, Path: "edges.x[1]", Reason: `unpaired UTF-16 surrogate \ud800`}},
		{`"\ud800"`, UnicodeError{Line: 1, Column: 2, Path: "", Reason: `unpaired UTF-16 surrogate \ud800`}},
	}
	for _, c := range cases {
		err := CheckUnicode([]byte(c.doc))
		var ue *UnicodeError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a *UnicodeError", c.doc, err)
			continue
		}
		if diff := cmp.Diff(c.want, *ue); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.doc, diff)
		}
	}
	// A document that is not JSON gives the syntax error.
	var se *json.SyntaxError
	if err := CheckUnicode([]byte(`{"a": "\ud834\udd1e",}`)); !errors.As(err, &se) && (err == nil || !strings.Contains(err.Error(), "invalid character")) {
		t.Errorf("a syntax error: %v", err)
	}
}

// A trace line of about 100 KB (a 16k-token trace), in Swahili-like
// Latin text with LaTeX, and the same line with a surrogate pair escaped
// in it, which takes the path that reads every token.
func BenchmarkCheckUnicode(b *testing.B) {
	text := strings.Repeat(`Kwanza, tunahesabu \\frac{16 - 3 - 4}{2} = 4.5; jibu ni \\boxed{18}. Ñandú ಕನ್ನಡ `, 1200)
	for _, c := range []struct{ name, doc string }{
		{"plain", `{"model": "Qwen/Qwen3-4B", "text": "` + text + `"}`},
		{"escaped pair", `{"model": "Qwen/Qwen3-4B", "text": "` + text + `\ud834\udd1e"}`},
		{"deep", strings.Repeat(`[`, MaxDepth) + `"\ud834\udd1e"` + strings.Repeat(`]`, MaxDepth)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.doc)))
			for b.Loop() {
				if err := CheckUnicode([]byte(c.doc)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
