package view

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

func i32(v int) *int32 { return new(int32(v)) }

// hostile is model text that would be markup, script or a broken page if
// it reached the page as it is.
const hostile = `<script>alert('x')</script><img src=x onerror=alert(1)>"'&`

// loopText is a trace that loops: one sentence 40 times.
var loopText = "<think>\nLet a = 1 " + hostile + "\n\nthen $\\frac{a}{b} = 2$ and b = a + 1\n" +
	strings.Repeat("I keep checking the same step again. ", 40) + "\n</think>\n\\boxed{2}"

// writeRun is a run of three problems' traces: t-en-x (en-x, aligned by
// two aligners to two DAGs, its text hostile and looping), t-x-en (x-en,
// not aligned), t-en-en, plus n more en-x traces for paging; every table
// the viewer reads, with hostile model text in each.
func writeRun(t testing.TB, more int) string {
	t.Helper()
	return writeRunIn(t, t.TempDir(), more)
}

// writeRunIn is writeRun in dir.
func writeRunIn(t testing.TB, dir string, more int) string {
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	start := len([]rune("<think>\nLet "))
	pmf := 1.0
	var (
		traces   []schema.Trace
		verdicts []schema.Verdict
		dets     []schema.Detection
		// answers and compliance are the run's chosen grader's verdicts
		// and detector's detections, as datg verify and datg langcheck
		// write them beside every grader's and detector's: a run never has
		// verdicts without answers (the tables that read answers are
		// skipped without them, as datg tables skips them).
		answers    []schema.Answer
		compliance []schema.Compliance
	)
	add := func(id, model, dir, in, reason, text string, correct bool) {
		traces = append(traces, schema.Trace{TraceID: id, Model: model, Direction: dir, InputLang: in, ReasoningLang: reason,
			Level: "low", ProblemID: "low-0", Seed: 42, Method: "base", Text: text, TextHash: "h", CompletionTokens: 100})
		verdicts = append(verdicts,
			schema.Verdict{TraceID: id, Grader: "math-verify", Extracted: "<2>" + hostile, HasAnswer: true, Correct: correct, Reason: "exact", TextHash: "h"},
			schema.Verdict{TraceID: id, Grader: "multilingual", Extracted: "2", HasAnswer: true, Correct: true, Reason: "numeric", TextHash: "h"})
		dets = append(dets,
			schema.Detection{TraceID: id, Detector: "langdetect", Detected: reason, Compliant: true, Status: "ok", TextHash: "h"},
			schema.Detection{TraceID: id, Detector: "lingua", Detected: reason + "," + hostile, Compliant: false, Status: "mixed", TextHash: "h"})
		answers = append(answers, schema.Answer{TraceID: id, Extracted: "<2>" + hostile, HasAnswer: true, Correct: correct, Gold: "2",
			Reason: "exact", FoundIn: "boxed", Grader: "math-verify 0.8.0", TextHash: "h"})
		compliance = append(compliance, schema.Compliance{TraceID: id, Requested: reason, Detected: reason, Compliant: true, Status: "ok",
			Chars: 100, Shares: reason + ":0.99", Detector: "langdetect", TextHash: "h"})
	}
	add("t-en-x", "m"+hostile, "en-x", "en", "sw", loopText, true)
	add("t-x-en", "m"+hostile, "x-en", "sw", "en", "plain x-en text", false)
	add("t-en-en", "Qwen/Qwen3-4B", "en-en", "en", "en", "plain en-en text", true)
	for i := range more {
		add(fmt.Sprintf("p%03d", i), "Qwen/Qwen3-4B", "en-x", "en", "fr", fmt.Sprintf("page trace %d", i), i%2 == 0)
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	must(store.WriteAll(dir, schema.Verdicts, store.Meta{}, verdicts))
	must(store.WriteAll(dir, schema.Detections, store.Meta{}, dets))
	must(store.WriteAll(dir, schema.Answers, store.Meta{}, answers))
	must(store.WriteAll(dir, schema.Compliances, store.Meta{}, compliance))
	must(store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{
		{ProblemID: "low-0", Level: "low", Lang: "en", Question: "What is $\\frac{4}{2}$? " + hostile, Answer: "2"},
		{ProblemID: "low-0", Level: "low", Lang: "sw", Question: "Ni nini $\\frac{4}{2}$?", Answer: "2"}}))
	must(store.WriteAll(dir, schema.DAGs, store.Meta{}, []schema.DAG{
		{DagID: "low-0/r0", ProblemID: "low-0", RefIndex: 0, Valid: true, FinalNodeID: "n2"},
		{DagID: "low-0/r1", ProblemID: "low-0", RefIndex: 1, Valid: true, FinalNodeID: "n2"}}))
	must(store.WriteAll(dir, schema.Nodes, store.Meta{}, []schema.Node{
		{DagID: "low-0/r0", NodeID: "n1", Position: 0, Anchor: "a < b & c " + hostile, Description: "first " + hostile},
		{DagID: "low-0/r0", NodeID: "n2", Position: 1, Anchor: "b = a + 1", Final: true},
		{DagID: "low-0/r1", NodeID: "n1", Position: 0, Anchor: "a = 1"},
		{DagID: "low-0/r1", NodeID: "n2", Position: 1, Anchor: "b = 2", Final: true}}))
	must(store.WriteAll(dir, schema.Edges, store.Meta{}, []schema.Edge{
		{DagID: "low-0/r0", ParentID: "n1", ChildID: "n2"}, {DagID: "low-0/r1", ParentID: "n1", ChildID: "n2"}}))
	var scores []schema.Score
	for _, al := range []string{"llm", "symbolic"} {
		scores = append(scores,
			schema.Score{TraceID: "t-en-x", DagID: "low-0/r0", Aligner: al, RefIndex: 0, CAR: 1, PMF: &pmf, HAR: 0.5, Best: true},
			schema.Score{TraceID: "t-en-x", DagID: "low-0/r1", Aligner: al, RefIndex: 1, CAR: 0.5, PMF: &pmf, HAR: 0})
	}
	for i := range more {
		scores = append(scores, schema.Score{TraceID: fmt.Sprintf("p%03d", i), DagID: "low-0/r0", Aligner: "llm", CAR: float64(i%5) / 4, PMF: &pmf, Best: true})
	}
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, []schema.AlignmentEvent{
		{TraceID: "t-en-x", DagID: "low-0/r0", Aligner: "llm", NodeID: "n1", Status: "COMMIT", EvidenceSpan: "a = 1", StartChar: i32(start), EndChar: i32(start + 5), BlockID: i32(0)},
		{TraceID: "t-en-x", DagID: "low-0/r0", Aligner: "llm", NodeID: "n2", Status: "COMMIT", EvidenceSpan: "b = a + 1", StartChar: i32(runeIndex(loopText, "b = a + 1")), EndChar: i32(runeIndex(loopText, "b = a + 1") + 9), BlockID: i32(1)},
		{TraceID: "t-en-x", DagID: "low-0/r0", Aligner: "symbolic", NodeID: "n1", Status: "ATTEMPT", EvidenceSpan: "a = 1", StartChar: i32(start), EndChar: i32(start + 5), BlockID: i32(0)}}))
	must(store.WriteAll(dir, schema.HarmfulActions, store.Meta{}, []schema.HarmfulAction{
		{TraceID: "t-en-x", DagID: "low-0/r0", Aligner: "llm", Category: "contradictory", Label: hostile, EvidenceSpan: hostile,
			StartChar: i32(start + 6), EndChar: i32(start + 6 + len([]rune(hostile)))}}))
	// Two annotators audited t-en-x against its DAG (the human tables).
	var notes []schema.Annotation
	for _, who := range []string{"A", "B"} {
		for _, n := range []string{"n1", "n2"} {
			notes = append(notes,
				schema.Annotation{TraceID: "t-en-x", DagID: "low-0/r0", Annotator: who, Layer: "node", Item: n, Label: "valid"},
				schema.Annotation{TraceID: "t-en-x", DagID: "low-0/r0", Annotator: who, Layer: "status", Item: n, Label: "COMMIT"})
		}
	}
	must(store.WriteAll(dir, schema.Annotations, store.Meta{}, notes))
	return dir
}

// serve is the viewer over dir, as a test server, with its cache in a
// directory of the test's.
func serve(t testing.TB, dir string) *httptest.Server {
	t.Helper()
	s, err := newServer(context.Background(), dir, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return ts
}

// getOK asks ts for path, fails unless the answer is 200 OK, and leaves
// the body unread (what a benchmark of the server's work wants).
func getOK(t testing.TB, ts *httptest.Server, path string) {
	t.Helper()
	resp, err := ts.Client().Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", path, resp.Status)
	}
}

// get is a page's status and body.
func get(t testing.TB, ts *httptest.Server, path string) (int, string, http.Header) {
	t.Helper()
	resp, err := ts.Client().Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String(), resp.Header
}

// runeIndex is the rune offset of sub in s (the tables' offsets count
// characters).
func runeIndex(s, sub string) int { return len([]rune(s[:strings.Index(s, sub)])) }
