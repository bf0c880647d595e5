package verify

import (
	"encoding/json"
	"testing"
)

// plainRequestLines are lines the fast reader takes (the usual ones, as
// encoders and people write them) and lines it must leave to
// encoding/json: other members, other types, \u escapes, invalid UTF-8,
// control characters, keys in other cases, repeats, trailing text.
var plainRequestLines = []struct {
	line  string
	plain bool
}{
	{`{"gold": "140892", "pred": "so the answer is $\\boxed{140,892}$"}` + "\n", true},
	{`{"gold":"444","pred":"Therefore, the answer is $\\boxed{444 \\text{ dollars}}$"}`, true},
	{" \t{ \"pred\" : \"x\\ny\\t\\\"q\\\"\\/\\b\\f\\r\\\\\" ,\"gold\":\"答案是 12\" }\r\n", true},
	{`{"gold": "", "pred": ""}`, true},
	{`{"gold": "1", "pred": "2", "note": "x"}`, false},
	{`{"gold": "1"}`, false},
	{`{"gold": null, "pred": "2"}`, false},
	{`{"gold": 1, "pred": "2"}`, false},
	{`{"gold": "\u00e9", "pred": "2"}`, false},
	{"{\"gold\": \"\xff\", \"pred\": \"2\"}", false},
	{"{\"gold\": \"a\tb\", \"pred\": \"2\"}", false},
	{`{"Gold": "1", "pred": "2"}`, false},
	{`{"gold": "1", "gold": "3", "pred": "2"}`, false},
	{`{"gold": "1", "pred": "2"} x`, false},
	{`{"gold": "1", "pred": "2"`, false},
	{`{"gold": "1\q", "pred": "2"}`, false},
	{`[]`, false},
	{``, false},
}

// The fast reader takes the usual lines and gives what encoding/json
// gives for them; it leaves every other line to encoding/json.
func TestPlainRequestDecodesAsJSON(t *testing.T) {
	for _, c := range plainRequestLines {
		gold, pred, ok := decodePlainRequest([]byte(c.line))
		if ok != c.plain {
			t.Errorf("%q: taken by the fast reader: %v, want %v", c.line, ok, c.plain)
			continue
		}
		if ok {
			requireAsJSON(t, c.line, gold, pred)
		}
	}
}

func requireAsJSON(t *testing.T, line, gold, pred string) {
	t.Helper()
	var req checkRequest
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		t.Fatalf("%q: read as {gold %q, pred %q}, json says %v", line, gold, pred, err)
	}
	if req.Gold == nil || req.Pred == nil || *req.Gold != gold || *req.Pred != pred {
		t.Fatalf("%q: read as {gold %q, pred %q}, json reads %+v", line, gold, pred, req)
	}
}

func FuzzPlainRequestDecodesAsJSON(f *testing.F) {
	for _, c := range plainRequestLines {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if gold, pred, ok := decodePlainRequest([]byte(line)); ok {
			requireAsJSON(t, line, gold, pred)
		}
	})
}
