package explain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
	"github.com/google/go-cmp/cmp"
)

func i32(v int) *int32 { return new(int32(v)) }

// chain is n1 -> n2 -> n3.
var chain = datg.DAG{FinalNodeID: "n3", Nodes: []datg.Node{
	{NodeID: "n1", Anchor: "a = 1"}, {NodeID: "n2", Anchor: "b = a + 1", Parents: []string{"n1"}}, {NodeID: "n3", Anchor: "c = b", Parents: []string{"n2"}}}}

func event(node, status string, start, block int) schema.AlignmentEvent {
	return schema.AlignmentEvent{NodeID: node, Status: status, StartChar: i32(start), EndChar: i32(start + 3), BlockID: i32(block)}
}

// writeRun is one aligned trace whose text and DAG hold markup, or one per
// id given, each aligned to the same DAG.
func writeRun(t testing.TB, ids ...string) string {
	t.Helper()
	if len(ids) == 0 {
		ids = []string{"t1"}
	}
	dir := t.TempDir()
	text := "<think>\nLet a = 1 <script>alert('x')</script>\n\nthen b = a + 1 & c = b\n</think>\n\\boxed{2}"
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	start := len([]rune("<think>\nLet "))
	pmf := 1.0
	var (
		traces  []schema.Trace
		answers []schema.Answer
		scores  []schema.Score
		events  []schema.AlignmentEvent
		harmful []schema.HarmfulAction
	)
	for _, id := range ids {
		traces = append(traces, schema.Trace{TraceID: id, Model: "m", Direction: "en-x", InputLang: "en",
			ReasoningLang: "sw", Level: "low", ProblemID: "low-0", Seed: 42, Method: "base", Text: text})
		answers = append(answers, schema.Answer{TraceID: id, Grader: "math-verify", Extracted: "2", Gold: "<2>", HasAnswer: true, Correct: true})
		scores = append(scores, schema.Score{TraceID: id, DagID: "low-0/r0", Aligner: "llm", CAR: 1, PMF: &pmf, Best: true})
		events = append(events,
			schema.AlignmentEvent{TraceID: id, DagID: "low-0/r0", Aligner: "llm", NodeID: "n1", Status: "COMMIT", EvidenceSpan: "a = 1", StartChar: i32(start), EndChar: i32(start + 5), BlockID: i32(0)},
			schema.AlignmentEvent{TraceID: id, DagID: "low-0/r0", Aligner: "llm", NodeID: "n2", Status: "COMMIT", EvidenceSpan: "b = a + 1", StartChar: i32(start + 40), EndChar: i32(start + 49), BlockID: i32(1)})
		harmful = append(harmful, schema.HarmfulAction{TraceID: id, DagID: "low-0/r0", Aligner: "llm",
			Category: "contradictory", EvidenceSpan: "<script>alert('x')</script>"})
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	must(store.WriteAll(dir, schema.Answers, store.Meta{}, answers))
	must(store.WriteAll(dir, schema.DAGs, store.Meta{}, []schema.DAG{{DagID: "low-0/r0", ProblemID: "low-0", Valid: true, FinalNodeID: "n2"}}))
	must(store.WriteAll(dir, schema.Nodes, store.Meta{}, []schema.Node{{DagID: "low-0/r0", NodeID: "n1", Position: 0, Anchor: "a < b & c"},
		{DagID: "low-0/r0", NodeID: "n2", Position: 1, Anchor: "b = a + 1"}}))
	must(store.WriteAll(dir, schema.Edges, store.Meta{}, []schema.Edge{{DagID: "low-0/r0", ParentID: "n1", ChildID: "n2"}}))
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, events))
	must(store.WriteAll(dir, schema.HarmfulActions, store.Meta{}, harmful))
	return dir
}

// Model text is data: nothing from the trace, the DAG or the aligner
// reaches the page as markup.
func TestPageEscapesModelText(t *testing.T) {
	dir := writeRun(t)
	out := filepath.Join(t.TempDir(), "t1.html")
	if _, err := Run(context.Background(), Config{Data: dir, TraceID: "t1", Out: out}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	// The head holds the page's own scripts (InlineHead); model text is
	// in the body.
	_, page, ok := strings.Cut(string(b), "<body>")
	if !ok {
		t.Fatalf("no body:\n%s", b)
	}
	for _, raw := range []string{"<script>", "a < b", "<2>"} {
		if strings.Contains(page, raw) {
			t.Errorf("model text %q reached the page unescaped:\n%s", raw, page)
		}
	}

	for _, want := range []string{"&lt;script&gt;", `<span class="math math-inline">a &lt; b &amp; c</span>`, `title="n1 COMMIT">a = 1</span>`,
		`<path class="dag-edge ordered" data-from="n1" data-to="n2"`, `-arrow-ordered)"`, `<g class="dag-node status-commit" data-node="n1"`,
		`<td class="v correct">correct</td>`, "Shown: aligner <b>llm</b> · DAG <b>low-0/r0</b> (its best)",
		`<span class="math math-inline">\boxed{2}</span>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestIndexAndErrors(t *testing.T) {
	dir := writeRun(t)
	out := t.TempDir()
	sum, err := Run(context.Background(), Config{Data: dir, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(out, "index.html")
	want := Summary{Written: []string{filepath.Join(out, "t1-628b49d96dcde97a430dd4f597705899.html"), index}, Index: index, Indexes: 1}
	if d := cmp.Diff(want, sum); d != "" {
		t.Errorf("Run's summary (-want +got):\n%s", d)
	}
	page, _ := os.ReadFile(index)
	// The name is a hash of the id, the same in every run: links stay valid.
	if !strings.Contains(string(page), `<a href="./t1-628b49d96dcde97a430dd4f597705899.html" class="trace-link">t1</a>`) {
		t.Fatalf("index:\n%s", page)
	}
	if _, err := Run(context.Background(), Config{Data: dir, TraceID: "nope", Out: filepath.Join(out, "x.html")}); !errors.Is(err, ErrNoTrace) {
		t.Fatalf("unknown trace: %v", err)
	} else if msg := err.Error(); strings.Count(msg, "no such trace") != 1 || !strings.Contains(msg, `"nope"`) || !strings.Contains(msg, dir) {
		t.Errorf("unknown trace's message says it once, with the id and the run: %q", msg)
	}
	if _, err := Run(context.Background(), Config{Data: t.TempDir(), Out: out}); !errors.Is(err, ErrNoScores) {
		t.Fatalf("empty run: %v", err)
	}
}
