package llm

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// What checkBody refuses and what it lets through, from RFC 8259's
// escapes: a surrogate pair is one character, either half alone is none.
func TestCheckBody(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"text": "plain"}`, true},
		{`{"text": "emoji \ud83d\ude00 and \u00e9 and \\ud800 (an escaped backslash)"}`, true},
		{`{"text": "é 😀"}`, true},
		{`{"text": "high alone \ud83d"}`, false},
		{`{"text": "high then other \ud83d\u0041"}`, false},
		{`{"text": "low alone \ude00"}`, false},
		{`{"text": "at the end \ud83d`, false},
		{"{\"text\": \"\xff\"}", false},
		{`{"text": "a", "text": "b"}`, false},
		{`{"text": "a", "TEXT": "b"}`, false}, // encoding/json reads both into one field
		{`{"choices": [{"text": "a"}], "choices": []}`, false},
		{`{"a": {"k": 1}, "b": {"k": 2}}`, true}, // one key in each of two objects
		{`{"text": "a"} {"text": "b"}`, false},
	} {
		err := checkBody([]byte(c.body))
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrMalformed)) {
			t.Errorf("%s: got %v, want ok %v", c.body, err, c.ok)
		}
	}
}

// printable leaves nothing a terminal acts on and bounds its output.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode":        "plain text, ünïcode",
		"a\nb\tc\r":                  `a\nb\tc\r`,
		"\x1b]0;t\x07\x7f":           `\x1b]0;t\x07\x7f`,
		"\u0085\u009b\u202e\u2028":   `\u0085\u009b\u202e\u2028`,
		"bad \xff byte, good \uFFFD": `bad \xff byte, good ` + "\uFFFD",
	} {
		if got := printable(in, 100); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := printable(strings.Repeat("ab", 1000), 10); got != "ababababab… (2000 bytes)" {
		t.Errorf("cut: %q", got)
	}
}

func FuzzPrintable(f *testing.F) {
	f.Add("\x1b[2J\x07\u009b\u202e\xff plain", 16)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = max(limit%4096, 0)
		out := printable(s, limit)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("%U out of %q", r, s)
			}
		}
		// An escape is at most 6 bytes; the note of the length at most 30.
		if len(out) > limit+6+30 && len(out) > len(s)*6 {
			t.Fatalf("%d bytes out of %d with limit %d", len(out), len(s), limit)
		}
	})
}

// Whatever a server sends, readReply refuses it or reads it, without a
// panic, and what it accepts is UTF-8 JSON with no key twice.
func FuzzReadReply(f *testing.F) {
	f.Add([]byte(`{"model":"m","choices":[{"index":0,"text":"hi","finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`))
	f.Add([]byte(`{"choices":[{"message":{"content":null,"reasoning":"\ud83d\ude00"},"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`))
	f.Add([]byte(`{"choices":[],"choices":[{"text":"\ud800"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, api := range []string{APICompletions, APIChat} {
			var out Response
			if readReply(body, api, &out) != nil {
				continue
			}
			if !utf8.Valid(body) || !json.Valid(body) {
				t.Fatalf("accepted %q", body)
			}
		}
	})
}
