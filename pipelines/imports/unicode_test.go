package imports

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/strictjson"
	"github.com/datg/datg/schema"
)

// badUnicodeCase is a line an import must refuse, naming its field.
type badUnicodeCase struct {
	name, line, field string
	is                error // strictjson.ErrInvalidUnicode or ErrBadIdentifier
}

// checkRefused imports good lines then the bad one into a run that already
// holds the tables the import writes, and checks that the error names the
// file, the bad line and the field, and that no table changed.
func checkRefused(t *testing.T, kind, dir, good string, c badUnicodeCase, tables ...*schema.Table) {
	t.Helper()
	before := tableBytes(t, dir, tables...)
	in := write(t, good+c.line+"\n")
	_, err := Run(context.Background(), Config{Kind: kind, In: in, Data: dir})
	var ie *inputerr.Error
	if !errors.Is(err, ErrBadRecord) || !errors.Is(err, c.is) || !errors.As(err, &ie) {
		t.Errorf("%s: got %v, want ErrBadRecord and %v", c.name, err, c.is)
		return
	}
	type place struct {
		Path  string
		Line  int
		Field string
	}
	line := strings.Count(good, "\n") + 1
	if diff := cmp.Diff(place{in, line, c.field}, place{ie.Path, ie.Line, ie.Field}); diff != "" {
		t.Errorf("%s: %v (-want +got):\n%s", c.name, err, diff)
	}
	if diff := cmp.Diff(before, tableBytes(t, dir, tables...)); diff != "" {
		t.Errorf("%s: a refused import changed the tables", c.name)
	}
}

// tableBytes is each table's committed file, by name.
func tableBytes(t *testing.T, dir string, tables ...*schema.Table) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, tbl := range tables {
		b, err := os.ReadFile(store.FilePath(dir, tbl))
		if err != nil {
			t.Fatal(err)
		}
		out[tbl.Name] = b
	}
	return out
}

// Identifier-like fields may hold no control character (Unicode Cc: NUL,
// ESC, DEL, C1), line or paragraph separator, or bidirectional control; no
// string, text included, may be other than Unicode text (RFC 8259 §8.1,
// §8.2): raw bytes that are not UTF-8 and unpaired surrogate escapes are
// what encoding/json silently turns into U+FFFD. The cases are the kinds
// of JSONTestSuite's i_string_* files, put in each field.
func TestImportTracesRefusesWhatIsNotText(t *testing.T) {
	dir := runDir(t)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, good), Data: dir}); err != nil {
		t.Fatal(err)
	}
	base := strings.Replace(strings.SplitN(good, "\n", 2)[0], `"seed": 42`, `"seed": 43`, 1)
	swap := func(old, new string) string { return strings.Replace(base, old, new, 1) }
	for _, c := range []badUnicodeCase{
		{"model: a byte that is not UTF-8", swap(`"Qwen/Qwen3-4B"`, "\"Qwen/Qwen3-4B\xff\""), "model", strictjson.ErrInvalidUnicode},
		{"model: a lone high surrogate", swap(`"Qwen/Qwen3-4B"`, `"Qwen/Qwen3-4B\ud800"`), "model", strictjson.ErrInvalidUnicode},
		{"model: NUL", swap(`"Qwen/Qwen3-4B"`, `"Qwen\u0000/Qwen3-4B"`), "model", ErrBadIdentifier},
		{"model: right-to-left override", swap(`"Qwen/Qwen3-4B"`, `"Qwen/\u202eB4-3newQ"`), "model", ErrBadIdentifier},
		{"model: DEL", swap(`"Qwen/Qwen3-4B"`, `"Qwen/Qwen3-4B\u007f"`), "model", ErrBadIdentifier},
		{"trace_id: NUL", swap(`"seed": 43`, `"seed": 43, "trace_id": "t\u0000x"`), "trace_id", ErrBadIdentifier},
		{"finish_reason: an escape sequence", swap(`"stop"`, `"stop\u001b[31m"`), "finish_reason", ErrBadIdentifier},
		{"finish_reason: a line separator", swap(`"stop"`, `"stop\u2028length"`), "finish_reason", ErrBadIdentifier},
		{"finish_reason: a newline", swap(`"stop"`, `"stop\nlength"`), "finish_reason", ErrBadIdentifier},
		{"method: NUL", swap(`"base"`, `"base\u0000"`), "method", ErrBadIdentifier},
		{"problem_id: a C1 control", swap(`"low-3"`, `"low-3\u0085"`), "problem_id", ErrBadIdentifier},
		{"input_lang: a tab", swap(`"input_lang": "en"`, `"input_lang": "en\t"`), "input_lang", ErrBadIdentifier},
		{"text: a lone low surrogate", swap(`Kwanza`, `Kwanza\udc00`), "text", strictjson.ErrInvalidUnicode},
		{"text: a high surrogate before a non-surrogate", swap(`Kwanza`, `\ud834\u0041`), "text", strictjson.ErrInvalidUnicode},
		{"text: inverted surrogates", swap(`Kwanza`, `\udd1e\ud834`), "text", strictjson.ErrInvalidUnicode},
		{"text: a UTF-8-encoded surrogate", swap(`Kwanza`, "Kwanza\xed\xa0\x80"), "text", strictjson.ErrInvalidUnicode},
		{"text: Latin-1", swap(`Kwanza`, "caf\xe9"), "text", strictjson.ErrInvalidUnicode},
		{"a key that is not UTF-8", swap(`"text":`, "\"te\xffxt\":"), `["te\xffxt"]`, strictjson.ErrInvalidUnicode},
	} {
		checkRefused(t, "traces", dir, good, c, schema.Traces.Table)
	}
}

// A trace's text is text: newlines, tabs, escaped controls, surrogate
// pairs, noncharacters and a literal U+FFFD are kept as given.
func TestImportTracesKeepsText(t *testing.T) {
	dir := runDir(t)
	base := strings.SplitN(good, "\n", 2)[0]
	line := strings.Replace(base, `Kwanza`, `Kwanza\tx\n\u0012 \ud834\udd1e \uFFFF `+"\xef\xbf\xbd \xe2\x80\xa8", 1)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, line+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, err := store.ReadAll(dir, schema.Traces)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	want := "<think>\nKwanza\tx\n\x12 \U0001D11E \uFFFF \uFFFD \u2028\n</think> \\boxed{1}"
	if rows[0].Text != want {
		t.Fatalf("text %q, want %q", rows[0].Text, want)
	}
}

func TestImportDAGsRefuseWhatIsNotText(t *testing.T) {
	dir := runDir(t)
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, dagLines), Data: dir}); err != nil {
		t.Fatal(err)
	}
	base := strings.Replace(strings.SplitN(dagLines, "\n", 2)[0], `"ref_index": 0`, `"ref_index": 5`, 1)
	swap := func(old, new string) string { return strings.Replace(base, old, new, 1) }
	// A DAG given as a string holding its JSON, escapes escaped once more.
	inString := `{"problem_id": "low-3", "ref_index": 6, "dag": "{\"final_node_id\": \"n1\", \"nodes\": [{\"node_id\": \"n1\", \"anchor\": \"x = \\ud800\", \"parents\": []}]}"}`
	inStringID := `{"problem_id": "low-3", "ref_index": 6, "dag": "Here:\n{\"final_node_id\": \"n1\", \"nodes\": [{\"node_id\": \"n1\\u0000\", \"anchor\": \"x\", \"parents\": []}]}"}`
	for _, c := range []badUnicodeCase{
		{"problem_id: NUL", swap(`"low-3"`, `"low-3\u0000"`), "problem_id", ErrBadIdentifier},
		{"node_id: NUL", swap(`"node_id": "n1"`, `"node_id": "n\u00001"`), "dag.nodes[0].node_id", ErrBadIdentifier},
		{"parent: ESC", swap(`"parents": ["n1"]`, `"parents": ["n1\u001b"]`), "dag.nodes[1].parents[0]", ErrBadIdentifier},
		{"final_node_id: bidi isolate", swap(`"final_node_id": "n2"`, `"final_node_id": "n2\u2066"`), "dag.final_node_id", ErrBadIdentifier},
		{"anchor: lone surrogate", swap(`16 - 3 - 4 = 9`, `16 - 3 \udbff`), "dag.nodes[0].anchor", strictjson.ErrInvalidUnicode},
		{"description: not UTF-8", swap(`"left"`, "\"l\xc0\xafeft\""), "dag.nodes[0].description", strictjson.ErrInvalidUnicode},
		{"inside a string: lone surrogate", inString, "dag.nodes[0].anchor", strictjson.ErrInvalidUnicode},
		{"inside a string: NUL in a node id", inStringID, "dag.nodes[0].node_id", ErrBadIdentifier},
	} {
		checkRefused(t, "dags", dir, "", c, schema.DAGs.Table, schema.Nodes.Table, schema.Edges.Table)
	}
	// Text fields may hold tabs and newlines.
	ok := swap(`"left"`, `"left\tand\nright"`)
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, ok+"\n"), Data: dir}); err != nil {
		t.Fatalf("a description with a tab and a newline: %v", err)
	}
}

func TestImportAlignmentsRefuseWhatIsNotText(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	line := func(results string) string {
		return `{"trace_id": "` + id + `", "problem_id": "low-3", "ref_index": 0, "alignment": {"audit_results": {` + results +
			`}, "contradictory_steps": [], "harmful_loop_steps": [], "degenerate_steps": []}}`
	}
	ok := line(`"n1": [{"status": "COMMIT", "evidence": "Kwanza", "evidence_span": "Kwanza"}]`)
	if _, err := Run(context.Background(), Config{Kind: "alignments", In: write(t, ok+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	okOther := strings.Replace(ok, `"ref_index": 0`, `"ref_index": 1`, 1) + "\n"
	inString := `{"trace_id": "` + id + `", "problem_id": "low-3", "ref_index": 0, "alignment": "{\"audit_results\": {\"n1\": [{\"status\": \"COMMIT\", \"evidence\": \"x\", \"evidence_span\": \"Kwanza\\udc00\"}]}}"}`
	tables := []*schema.Table{schema.Alignments.Table, schema.AlignmentEvents.Table, schema.HarmfulActions.Table, schema.AlignmentErrors.Table}
	for _, c := range []badUnicodeCase{
		{"trace_id: NUL", strings.Replace(ok, id, id+`\u0000`, 1), "trace_id", ErrBadIdentifier},
		{"a node id key: NUL", line(`"n1\u0000": [{"status": "COMMIT", "evidence": "x", "evidence_span": "Kwanza"}]`), `alignment.audit_results["n1\x00"]`, ErrBadIdentifier},
		{"a status: ESC", line(`"n1": [{"status": "COMMIT\u001b", "evidence": "x", "evidence_span": "Kwanza"}]`), "alignment.audit_results.n1[0].status", ErrBadIdentifier},
		{"a category: NUL", strings.Replace(line(`"n1": []`), `"degenerate_steps": []`, `"degenerate_steps": [{"evidence": "x", "evidence_span": "Kwanza", "category": "loop\u0000"}]`, 1), "alignment.degenerate_steps[0].category", ErrBadIdentifier},
		{"evidence: lone surrogate", line(`"n1": [{"status": "COMMIT", "evidence": "\udfff", "evidence_span": "Kwanza"}]`), "alignment.audit_results.n1[0].evidence", strictjson.ErrInvalidUnicode},
		{"inside a string: lone surrogate", inString, "alignment.audit_results.n1[0].evidence_span", strictjson.ErrInvalidUnicode},
	} {
		checkRefused(t, "alignments", dir, okOther, c, tables...)
	}
}

func TestImportAnnotationsRefuseWhatIsNotText(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	head := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 0, `
	ok := head + `"nodes": {"n1": true}}`
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, ok+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	okB := strings.Replace(ok, `"A"`, `"B"`, 1) + "\n"
	for _, c := range []badUnicodeCase{
		{"annotator: NUL", strings.Replace(ok, `"A"`, `"C\u0000"`, 1), "annotator", ErrBadIdentifier},
		{"annotator: right-to-left override", strings.Replace(ok, `"A"`, `"\u202eC"`, 1), "annotator", ErrBadIdentifier},
		{"annotator: not UTF-8", strings.Replace(ok, `"A"`, "\"C\xff\"", 1), "annotator", strictjson.ErrInvalidUnicode},
		{"a node key: NUL", head + `"nodes": {"n1\u0000": true}}`, `nodes["n1\x00"]`, ErrBadIdentifier},
		{"an edge key: ESC", head + `"edges": {"n1>n2\u001b": true}}`, `edges["n1>n2\x1b"]`, ErrBadIdentifier},
		{"a status key: DEL", head + `"statuses": {"n1\u007f": "COMMIT"}}`, `statuses["n1\x7f"]`, ErrBadIdentifier},
		{"evidence_span: lone surrogate", head + `"statuses": {"n1": {"status": "COMMIT", "evidence_span": "Kwanza\ud800"}}}`, "statuses.n1.evidence_span", strictjson.ErrInvalidUnicode},
		{"a harmful key: not UTF-8", head + "\"harmful\": {\"Kwanza\xff\": true}}", `harmful["Kwanza\xff"]`, strictjson.ErrInvalidUnicode},
		{"context: lone surrogate", head + `"nodes": {"n1": true}, "context": {"trace": "\ud800"}}`, "context.trace", strictjson.ErrInvalidUnicode},
	} {
		checkRefused(t, "annotations", dir, okB, c, schema.Annotations.Table)
	}
}

// A line with no problem imports in a file whose other line is bad: the
// bad line stops the import, and nothing of the good one is committed
// (checked above by the tables' bytes); here, by its rows.
func TestImportIsAllOrNothing(t *testing.T) {
	dir := runDir(t)
	bad := strings.Replace(strings.SplitN(good, "\n", 2)[0], `"seed": 42`, `"seed": 44, "model": "M\u0000"`, 1)
	bad = strings.Replace(bad, `"model": "Qwen/Qwen3-4B", `, "", 1)
	_, err := Run(context.Background(), Config{Kind: "traces", In: write(t, good+bad+"\n"), Data: dir})
	if !errors.Is(err, ErrBadIdentifier) {
		t.Fatalf("got %v", err)
	}
	if store.Exists(dir, schema.Traces.Table) {
		t.Fatal("the two good lines were committed")
	}
	if !bytes.Contains([]byte(err.Error()), []byte(`"M\x00"`)) {
		t.Errorf("the error does not show the identifier escaped: %v", err)
	}
}

// Whatever a line holds, reading it as a trace never panics, and a trace
// read from it holds only UTF-8 and identifiers without control,
// separator or bidirectional characters.
func FuzzTraceLine(f *testing.F) {
	for _, l := range strings.Split(strings.TrimSpace(good), "\n") {
		f.Add([]byte(l))
	}
	base := strings.SplitN(good, "\n", 2)[0]
	f.Add([]byte(strings.Replace(base, `Kwanza`, `Kwanza\ud800`, 1)))
	f.Add([]byte(strings.Replace(base, `"stop"`, `"st\u0000op"`, 1)))
	f.Add([]byte(strings.Replace(base, `"text":`, "\"te\xffxt\":", 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := decodeRecord[traceRecord]("f.jsonl", 1, b)
		if err != nil {
			return
		}
		tr, err := rec.trace()
		if err != nil {
			return
		}
		for _, s := range []string{tr.TraceID, tr.Model, tr.InputLang, tr.ReasoningLang, tr.Direction, tr.Level, tr.ProblemID, tr.Method, tr.FinishReason} {
			if !utf8.ValidString(s) || identifierFault(s) != "" {
				t.Fatalf("read %q from %q", s, b)
			}
		}
		if !utf8.ValidString(tr.Text) {
			t.Fatalf("text %q from %q", tr.Text, b)
		}
	})
}
