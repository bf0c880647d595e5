package strictjson

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCheckAcceptsOneValueWithUniqueKeys(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `42`, `"x"`, `null`, " \n{\"a\": 1}\n\n ",
		`{"a": {"a": {"a": 1}}}`,              // one name at several depths
		`[{"a": 1}, {"a": 2}]`,                // one name in sibling objects
		`{"a": [1, 2, {"b": [{"b": 1}]}]}`,    // nested through arrays
		`{"a": 1, "b": 2, "ab": 3, "a b": 4}`, // names that only share letters
	} {
		if _, err := Check([]byte(doc), Options{}); err != nil {
			t.Errorf("Check(%q) = %v", doc, err)
		}
	}
}

func TestCheckRejects(t *testing.T) {
	cases := []struct {
		doc  string
		opt  Options
		want error
		line int
	}{
		{`{"a": 1, "a": 2}`, Options{}, ErrDuplicateKey, 1},
		{"{\n \"top_p\": 0.9,\n \"budgets\": {\"low\": 1},\n \"top_p\": -5\n}", Options{}, ErrDuplicateKey, 4},
		{"{\"budgets\": {\n \"low\": 1,\n \"low\": 2}}", Options{}, ErrDuplicateKey, 3},
		{`{"nodes": [{"id": 1}, {"id": 2, "id": 3}]}`, Options{}, ErrDuplicateKey, 1},
		{`{"top_p": 0.9, "TOP_P": -5}`, Options{}, ErrDuplicateKey, 1}, // encoding/json matches fields ignoring case
		{`{"a": 1, "\u0061": 2}`, Options{}, ErrDuplicateKey, 1},       // one key once unescaped
		{`{"x": {"n1": 1, "N1": 2}}`, Options{}, ErrDuplicateKey, 1},   // folded at every depth by default
		{`{"x": 1, "X": {"n1": 1}}`, Options{ExactNested: true}, ErrDuplicateKey, 1},
		{`{"x": {"n1": 1, "n1": 2}}`, Options{ExactNested: true}, ErrDuplicateKey, 1},
		{`{"a": 1} {"a": 2}`, Options{}, ErrTrailingData, 1},
		{"{\"a\": 1}\n\n{\"temperature\": 1e300}\n", Options{}, ErrTrailingData, 3},
		{`{"a": 1}]`, Options{}, ErrTrailingData, 1},
		{"{\"a\": 1}\nx", Options{}, ErrTrailingData, 2},
		{`1 2`, Options{}, ErrTrailingData, 1},
		{"", Options{}, ErrNoValue, 0},
		{" \n\t\n", Options{}, ErrNoValue, 0},
		{"{\"a\":\n 1", Options{}, io.ErrUnexpectedEOF, 2},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), Options{}, ErrTooDeep, 1},
	}
	for _, c := range cases {
		_, err := Check([]byte(c.doc), c.opt)
		var e *Error
		if !errors.Is(err, c.want) || !errors.As(err, &e) || e.Line != c.line {
			t.Errorf("Check(%.60q) = %v; want %v on line %d", c.doc, err, c.want, c.line)
		}
	}
	// Syntax errors keep encoding/json's message, with the line.
	_, err := Check([]byte("{\n\"a\": 1,\n\"b\": tru}"), Options{})
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || !strings.Contains(err.Error(), "invalid character") {
		t.Errorf("syntax error: %v", err)
	}
}

func TestExactNestedKeepsCaseDistinctIDs(t *testing.T) {
	doc := `{"alignment": {"audit_results": {"n1": [], "N1": []}}}`
	if _, err := Check([]byte(doc), Options{ExactNested: true}); err != nil {
		t.Fatal(err)
	}
}

func TestDepthLimitMatchesEncodingJSON(t *testing.T) {
	deepest := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Check([]byte(deepest), Options{}); err != nil {
		t.Fatalf("%d levels: %v", MaxDepth, err)
	}
	var v any
	if _, err := Decode([]byte(deepest), &v, Options{}); err != nil {
		t.Fatalf("decoding %d levels: %v", MaxDepth, err)
	}
}

func TestIndexLines(t *testing.T) {
	doc := "{\n  \"temperature\": 0.6,\n  \"budgets\": {\n    \"low\": 4096,\n    \"High\": 3\n  },\n  \"nodes\": [{\"anchor\": 1}]\n}"
	ix, err := Check([]byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path []string
		line int
	}{
		{[]string{"temperature"}, 2}, {[]string{"budgets"}, 3}, {[]string{"budgets", "low"}, 4},
		{[]string{"budgets", "high"}, 5}, {[]string{"nodes", "anchor"}, 7}, {[]string{"low"}, 0}, {[]string{"absent"}, 0},
	} {
		if got := ix.Line(c.path...); got != c.line {
			t.Errorf("Line(%v) = %d, want %d", c.path, got, c.line)
		}
	}
	if got := ix.LineOfKey("LOW"); got != 4 {
		t.Errorf("LineOfKey(LOW) = %d", got)
	}
}

func TestDecode(t *testing.T) {
	type study struct {
		Temperature float64        `json:"temperature"`
		Budgets     map[string]int `json:"budgets"`
	}
	var s study
	if _, err := Decode([]byte(`{"temperature": 0.6, "budgets": {"low": 4096}}`), &s, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := s.Budgets["low"]; got != 4096 {
		t.Fatalf("budgets.low = %d, want 4096", got)
	}
	cases := []struct {
		doc, want string
		line      int
	}{
		{"{\n\"temperature\": 0.6,\n\"temprature\": 1}", `unknown field "temprature"`, 3},
		{"{\n\"budgets\": {\n\"low\": \"many\"}}", "cannot unmarshal string", 3},
		{"{\"budgets\": {\"low\": 1e30}}", "cannot unmarshal number 1e30", 1},
		{"{\"temperature\": 1e999}", "cannot unmarshal number 1e999", 1},
		{"{\"temperature\": 1,\n\"temperature\": 2}", "duplicate key", 2},
	}
	for _, c := range cases {
		var s study
		_, err := Decode([]byte(c.doc), &s, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v; want %q on line %d", c.doc, err, c.want, c.line)
		}
	}
}
