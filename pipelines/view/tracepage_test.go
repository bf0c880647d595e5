package view

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// writePageRun is a run of n traces made to break a trace page's reads:
// ids in a random order and of hostile text, texts of hostile text
// (markup, combining marks, CJK, a NUL), verdicts in both verdicts and
// answers (the same grader in both, or in one only), detections in both
// detections and compliance, problems in some languages, DAGs with nodes
// and edges for some problems, up to three aligners' scores, events and
// harmful actions. With 2,600 traces or more its traces (1,024 rows a row
// group) and its events (20,000) span several row groups, so some traces'
// rows cross a group's end. full false leaves out answers, compliance,
// problems, DAGs, events and harmful actions (tables a run may lack).
// edge are the traces whose events cross a row group's end, and those
// first and last in a group of traces.
func writePageRun(t testing.TB, n int, seed uint64, full bool) (dir string, edge []string) {
	t.Helper()
	dir = t.TempDir()
	rng := rand.New(rand.NewPCG(seed, 11))
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	var (
		traces   []schema.Trace
		verdicts []schema.Verdict
		answers  []schema.Answer
		dets     []schema.Detection
		comps    []schema.Compliance
		problems []schema.Problem
		dags     []schema.DAG
		nodes    []schema.Node
		edges    []schema.Edge
		scores   []schema.Score
		events   []schema.AlignmentEvent
		harms    []schema.HarmfulAction
	)
	texts := []string{"we count apples $x+1$", hostile + " ünïcödé ß", "日本語の推論 \\boxed{3}", "a\u0301\u0301 nul\x00 here", ""}
	for p := range 40 {
		problem := fmt.Sprintf("%s-%d", pick("low", "high", hostile), p)
		if rng.IntN(4) > 0 {
			for _, l := range []string{"en", "sw", "ja", "zz"} {
				if rng.IntN(3) > 0 {
					problems = append(problems, schema.Problem{ProblemID: problem, Level: "low", Lang: l, Question: "How many $x$? " + l, Answer: "3"})
				}
			}
		}
		if rng.IntN(3) > 0 {
			for r := range 1 + rng.IntN(3) {
				dag := fmt.Sprintf("%s/r%d", problem, r)
				dags = append(dags, schema.DAG{DagID: dag, ProblemID: problem, RefIndex: int32(r), Valid: rng.IntN(5) > 0, FinalNodeID: "n3"})
				for k := range 3 {
					nodes = append(nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", k+1), Position: int32(k), Anchor: "x = " + hostile, Description: "step $x$", Final: k == 2})
					if k > 0 {
						edges = append(edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", k), ChildID: fmt.Sprintf("n%d", k+1)})
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	for len(traces) < n {
		id := fmt.Sprintf("%s%05d", pick("t", "T", "é", "a b", hostile), rng.IntN(20*n))
		if seen[id] {
			continue
		}
		seen[id] = true
		problem := fmt.Sprintf("%s-%d", pick("low", "high", hostile), rng.IntN(40))
		text := texts[rng.IntN(len(texts))]
		traces = append(traces, schema.Trace{TraceID: id, Model: pick("m1", "m2"), Level: "low", ProblemID: problem, Direction: pick("en-en", "en-x", "x-x"),
			InputLang: pick("en", "sw", "ja"), ReasoningLang: pick("en", "sw"), Seed: 42, Method: "base", Text: text, TextHash: "h", FinishReason: pick("stop", "length", "")})
		if k := len(traces) % schema.Traces.Table.RowsPerGroup; k == 0 || k == 1 {
			edge = append(edge, id)
		}
		answered := pick("math-verify", "multilingual") // answers holds one grader's
		for _, g := range []string{"math-verify", "multilingual"} {
			switch c := rng.IntN(4); {
			case c > 0 && g != answered:
				verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: g, HasAnswer: true, Correct: true, Extracted: "4", Reason: "exact", TextHash: "h"})
			case c == 0: // in verdicts only
				verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: g, HasAnswer: true, Correct: rng.IntN(2) == 0, Extracted: "3", Reason: "exact", FoundIn: "boxed", TextHash: "h"})
			case c == 1: // in answers only, named with its version
				answers = append(answers, schema.Answer{TraceID: id, Grader: g + " 0.1", HasAnswer: rng.IntN(3) > 0, Correct: true, Extracted: hostile, Reason: pick("exact", "gold-unparsed"), FoundIn: "latex", TextHash: "h"})
			case c == 2: // in both: verdicts win
				verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: g, HasAnswer: false, Reason: "no-answer", TextHash: "h"})
				answers = append(answers, schema.Answer{TraceID: id, Grader: g + " 0.1", HasAnswer: true, Correct: true, Extracted: "9", Reason: "exact", TextHash: "h"})
			}
		}
		checked := pick("langdetect", "lingua") // compliance holds one detector's
		for _, d := range []string{"langdetect", "lingua"} {
			switch c := rng.IntN(4); {
			case c > 0 && d != checked:
				dets = append(dets, schema.Detection{TraceID: id, Detector: d, Compliant: false, Detected: "en", Status: "ok", TextHash: "h"})
			case c == 0:
				dets = append(dets, schema.Detection{TraceID: id, Detector: d, Compliant: true, Detected: "sw", Status: "ok", Shares: "sw:0.9", TextHash: "h"})
			case c == 1:
				comps = append(comps, schema.Compliance{TraceID: id, Detector: d, Compliant: false, Detected: "en," + hostile, Status: "mixed", Shares: "en:0.5", TextHash: "h"})
			case c == 2:
				dets = append(dets, schema.Detection{TraceID: id, Detector: d, Compliant: false, Detected: "", Status: "empty", TextHash: "h"})
				comps = append(comps, schema.Compliance{TraceID: id, Detector: d, Compliant: true, Detected: "sw", Status: "ok", TextHash: "h"})
			}
		}
		for _, a := range []string{"llm", "symbolic", "z" + hostile} {
			if rng.IntN(3) == 0 {
				continue
			}
			for r := range 1 + rng.IntN(3) {
				dag := fmt.Sprintf("%s/r%d", problem, r)
				pmf := rng.Float64()
				scores = append(scores, schema.Score{TraceID: id, DagID: dag, Aligner: a, RefIndex: int32(r), CAR: rng.Float64(), PMF: &pmf, HAR: rng.Float64(), Best: r == 0, TextHash: "h"})
				before := len(events)
				for k := range rng.IntN(6) {
					s := int32(rng.IntN(10))
					var start, end *int32
					if rng.IntN(4) > 0 {
						start, end = &s, new(s+int32(rng.IntN(5)))
					}
					events = append(events, schema.AlignmentEvent{TraceID: id, DagID: dag, Aligner: a, NodeID: fmt.Sprintf("n%d", 1+rng.IntN(4)), Seq: int32(k),
						Status: pick("COMMIT", "ATTEMPT", "ERROR"), EvidenceSpan: hostile, StartChar: start, EndChar: end, BlockID: i32(rng.IntN(3))})
				}
				if g := schema.AlignmentEvents.Table.RowsPerGroup; before/g != len(events)/g && len(events)%g != 0 {
					edge = append(edge, id)
				}
				if rng.IntN(3) == 0 {
					harms = append(harms, schema.HarmfulAction{TraceID: id, DagID: dag, Aligner: a, Category: pick("harmful_loop", "degenerate"), Label: hostile, EvidenceSpan: "again", StartChar: i32(1), EndChar: i32(4)})
				}
			}
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	must(store.WriteAll(dir, schema.Verdicts, store.Meta{}, verdicts))
	must(store.WriteAll(dir, schema.Detections, store.Meta{}, dets))
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	if full {
		must(store.WriteAll(dir, schema.Answers, store.Meta{}, answers))
		must(store.WriteAll(dir, schema.Compliances, store.Meta{}, comps))
		must(store.WriteAll(dir, schema.Problems, store.Meta{}, problems))
		must(store.WriteAll(dir, schema.DAGs, store.Meta{}, dags))
		must(store.WriteAll(dir, schema.Nodes, store.Meta{}, nodes))
		must(store.WriteAll(dir, schema.Edges, store.Meta{}, edges))
		must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, events))
		must(store.WriteAll(dir, schema.HarmfulActions, store.Meta{}, harms))
	}
	return dir, edge
}

// TestTracePageIsWhatItWas: over generated runs of hostile values (with
// every table, and without the tables a run may lack), a trace page's
// data is what it was before the page was made to cost the same at any
// run size: each trace's rows (text, questions, verdicts, detections,
// scores, DAGs, events, harmful actions), read alone and in batches; its
// place, previous and next under random filters; the same problem's
// traces.
func TestTracePageIsWhatItWas(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	ctx := context.Background()
	for _, run := range []struct {
		n    int
		full bool
	}{{300, false}, {300, true}, {2700, true}} {
		name := fmt.Sprintf("%d traces, every table %v", run.n, run.full)
		dir, edge := writePageRun(t, run.n, uint64(run.n), run.full)
		if run.n > 2600 && run.full && len(edge) < 4 {
			t.Fatalf("%s: %d traces at a row group's end", name, len(edge))
		}
		r, err := openRunDB(ctx, dir, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		rng := rand.New(rand.NewPCG(uint64(run.n), 5))
		ids := make([]string, r.rows.N)
		for j := range ids {
			ids[j] = r.rows.id(j)
		}
		sample := ids
		if len(sample) > 80 {
			sample = slices.Clone(ids)
			rng.Shuffle(len(sample), func(a, b int) { sample[a], sample[b] = sample[b], sample[a] })
			sample = append(sample[:80], edge...)
		}
		withRows := 0
		// The old reads of every sampled trace at once (seven DuckDB
		// queries, not seven a trace), each trace's rows taken from them.
		var sampleProblems []string
		for _, id := range sample {
			j, _ := r.rows.find(id)
			sampleProblems = append(sampleProblems, r.rows.problemOf(j))
		}
		old, err := legacyReadTraceRows(ctx, r, sample, sampleProblems)
		if err != nil {
			t.Fatal(err)
		}
		for k, id := range sample {
			problems := []string{sampleProblems[k]}
			got, err := readTraceRows(ctx, r, []string{id}, problems)
			if err != nil {
				t.Fatal(err)
			}
			want := old.of(id, problems[0])
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the rows of %q:\n%+v\nwant\n%+v", name, id, got, want)
			}
			if len(got.verdicts[id]) > 0 && len(got.detections[id]) > 0 {
				withRows++
			}
		}
		if withRows < len(sample)/3 {
			t.Errorf("%s: only %d of %d traces have verdicts and detections: the test proves little", name, withRows, len(sample))
		}
		for range 5 { // batches, as an export reads them
			batch := sample[:min(len(sample), 1+rng.IntN(64))]
			var problems []string
			for _, id := range batch {
				j, _ := r.rows.find(id)
				problems = append(problems, r.rows.problemOf(j))
			}
			got, err := readTraceRows(ctx, r, batch, problems)
			if err != nil {
				t.Fatal(err)
			}
			want, err := legacyReadTraceRows(ctx, r, batch, problems)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the rows of a batch of %d differ", name, len(batch))
			}
		}
		l := openLegacy(t, dir)
		inFilter := 0
		for i := range 360 {
			q := randomQuery(rng, l)
			if i >= 300 { // no filter, only an order (every trace is in it)
				q = url.Values{"sort": q["sort"], "desc": q["desc"]}
			}
			f, err := parseFilter(q)
			if err != nil {
				t.Fatal(err)
			}
			f = f.withAligner(r.aligners)
			id := ids[rng.IntN(len(ids))]
			if rng.IntN(2) == 0 { // a trace in the filter
				var search bitmap
				if f.Q != "" {
					if search, err = r.searchRows(ctx, f.Q); err != nil {
						t.Fatal(err)
					}
				}
				if in := r.query(f, search).matched; len(in) > 0 {
					id = r.rows.id(in[rng.IntN(len(in))])
				}
			}
			got, err := placeOf(ctx, r, f, id)
			if err != nil {
				t.Fatal(err)
			}
			want, err := legacyPlaceOf(ctx, r, f, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s: the place of %q is %+v, want %+v", name, q.Encode(), id, got, want)
			}
			if got != nil {
				inFilter++
			}
		}
		if inFilter < 40 {
			t.Errorf("%s: only %d traces in their filters: the test proves little", name, inFilter)
		}
		for _, id := range sample[:min(len(sample), 200)] {
			j, _ := r.rows.find(id)
			p := &tracePage{T: traceRow{ID: id, Problem: r.rows.problemOf(j)}}
			p.related(r)
			got := p.Related
			if want := legacyRelated(r, p); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the traces of %q's problem:\n%+v\nwant\n%+v", name, id, got, want)
			}
		}
	}
}

// of is the rows of one trace (and of its problem) among t's: what
// reading that trace alone gives (the reads are per key).
func (t *traceRows) of(id, problem string) *traceRows {
	byKey := func(m map[string]string, k string) map[string]string {
		out := map[string]string{}
		if v, ok := m[k]; ok {
			out[k] = v
		}
		return out
	}
	out := &traceRows{text: byKey(t.text, id), finish: byKey(t.finish, id), questions: pick(t.questions, problem),
		verdicts: pick(t.verdicts, id), detections: pick(t.detections, id), scores: pick(t.scores, id), dags: pick(t.dags, problem),
		events: pick(t.events, id), harms: pick(t.harms, id)}
	return out
}

// pick is m's entry of key k alone (none if m has none).
func pick[V any](m map[string][]V, k string) map[string][]V {
	out := map[string][]V{}
	if v, ok := m[k]; ok {
		out[k] = v
	}
	return out
}
