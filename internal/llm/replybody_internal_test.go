package llm

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/internal/strictjson"
)

// What checkBody refuses and what it lets through, from RFC 8259's
// escapes (a surrogate pair is one character, either half alone is none)
// and encoding/json's matching of keys to fields (ignoring case).
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
		{`{"a": [{"k": 1}, {"k": 2}], "k": 3}`, true},
		{`{"a": {"k": 1, "b": [1, {"k": 2}], "k": 3}}`, false},
		{`{"k\u0061": 1, "ka": 2}`, false}, // one key, escaped or not
		{`{"\u00e9": 1, "\u00c9": 2}`, false},
		{`{"a\"b": 1, "a\\\"b": 2, "x": "\\", "y": "}"}`, true},
		{`{"text": "[{\"k\": 1, \"k\": 2}]"}`, true}, // braces in a string are text
		{`{"text": "a"} {"text": "b"}`, false},
	} {
		// What checkBody leaves to the decoder (anything that is not
		// JSON, a second value) the decoder refuses.
		err := checkBody([]byte(c.body))
		if ok := err == nil && json.Valid([]byte(c.body)); ok != c.ok || (err != nil && !errors.Is(err, ErrMalformed)) {
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

// bigReply is a vLLM completion of tokens tokens with their ids, the
// largest reply datg reads (a 16k-token budget spent).
func bigReply(tokens int) []byte {
	ids := make([]int, tokens)
	for i := range ids {
		ids[i] = 100000 + i
	}
	b, _ := json.Marshal(map[string]any{
		"id": "cmpl-1", "object": "text_completion", "model": "Qwen/Qwen3-8B",
		"choices": []any{map[string]any{"index": 0, "text": strings.Repeat("Let me check 3 × 4 = 12 again. ", tokens/8),
			"finish_reason": "length", "stop_reason": nil, "token_ids": ids}},
		"usage": map[string]any{"prompt_tokens": 200, "completion_tokens": tokens, "total_tokens": tokens + 200},
	})
	return b
}

// What the body checks add to reading a reply: checkBody alone, and the
// whole readReply that runs it.
func BenchmarkCheckBody(b *testing.B) {
	body := bigReply(16384)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := checkBody(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadReply(b *testing.B) {
	body := bigReply(16384)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var out Response
		if err := readReply(body, APICompletions, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// scanJSON finds a repeated key exactly when strictjson, which walks the
// decoder's tokens (slowly: an allocation a token), does, on any valid
// JSON without lone surrogates.
func FuzzScanJSONAgreesWithStrictJSON(f *testing.F) {
	f.Add([]byte(`{"a": 1, "A": 2}`))
	f.Add([]byte(`{"a": {"k": 1, "b": [1, {"k": 2}], "k": 3}}`))
	f.Add([]byte(`{"k\u0061": 1, "ka": 2, "s": "\"{\\"}`))
	f.Add([]byte(`[{"\u00e9": 1}, {"\u00c9": 2, "\u00e9": 3}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if !json.Valid(body) {
			return
		}
		err := scanJSON(body)
		if err != nil && strings.Contains(err.Error(), "surrogate") {
			return
		}
		_, want := strictjson.Check(body, strictjson.Options{})
		if (err != nil) != errors.Is(want, strictjson.ErrDuplicateKey) {
			t.Fatalf("%q: scanJSON says %v, strictjson %v", body, err, want)
		}
	})
}
