package align_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/pipelines/score"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/datg"
)

// withTraces is a demo run with base traces of one model in English and
// Swahili (all four directions) for the first 2 problems of low and medium,
// and the simulator (without faults) that wrote them.
func withTraces(t *testing.T) (string, *pipelinetest.Sim) {
	t.Helper()
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	study := generate.DefaultStudy()
	study.Models, study.Langs, study.Levels, study.Limit = []string{"Qwen/Qwen3-4B"}, []string{"en", "sw"}, []string{"low", "medium"}, 2
	cfg := generate.Config{Data: data, Study: study, Endpoints: []string{sim.URL}, Pool: pipelinetest.QuickPool()}
	if res, err := generate.Run(context.Background(), cfg); err != nil {
		t.Fatalf("generate: %v", err)
	} else if res.Jobs != 16 {
		t.Fatalf("generate: %d jobs, want 16", res.Jobs)
	}
	return data, sim
}

// alignRun is withTraces plus 3 references of the first 2 problems of each
// level and their DAGs (18, all valid).
func alignRun(t *testing.T) string {
	t.Helper()
	data, sim := withTraces(t)
	pipelinetest.References(t, data, sim, 2, 3)
	if sum := pipelinetest.DAGs(t, data, sim); sum.Valid != 18 {
		t.Fatalf("dags: %+v", sum)
	}
	return data
}

func llmConfig(data string, sim *pipelinetest.Sim) align.Config {
	cfg := align.DefaultConfig()
	cfg.Data, cfg.Target = data, pipelinetest.Target(pipelinetest.AlignModel, sim.URL)
	return cfg
}

type pair struct{ trace, dag string }

// run is what a run directory holds, read independently of align.
type run struct {
	traces map[string]schema.Trace
	dags   map[string]*dags.Stored
}

func readRun(t *testing.T, data string) run {
	t.Helper()
	rows, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	r := run{traces: map[string]schema.Trace{}}
	for _, tr := range rows {
		r.traces[tr.TraceID] = tr
	}
	if r.dags, err = dags.Load(data); err != nil {
		t.Fatal(err)
	}
	return r
}

// pairs are the (trace, DAG) pairs that should be aligned: traces of the
// method and directions with every valid DAG of their problem (for a
// reference, except its own).
func (r run) pairs(method string, directions []string, limit int) map[pair]bool {
	out := map[pair]bool{}
	for _, tr := range r.traces {
		if tr.Method != method || (len(directions) > 0 && !slices.Contains(directions, tr.Direction)) {
			continue
		}
		if _, k, _ := transforms.ParseProblemID(tr.ProblemID); limit > 0 && k >= limit {
			continue
		}
		for id, d := range r.dags {
			if d.Row.Valid && d.Row.ProblemID == tr.ProblemID && (method != "reference" || int64(d.Row.RefIndex) != tr.Seed) {
				out[pair{tr.TraceID, id}] = true
			}
		}
	}
	return out
}

// requests is how many distinct requests aligning the pairs takes: pairs
// of one trace and two DAGs that are the same (as the prompt shows them)
// make the same request.
func (r run) requests(pairs map[pair]bool) int {
	seen := map[string]bool{}
	for p := range pairs {
		seen[p.trace+"\x00"+datg.EncodeJSON(r.dags[p.dag].DAG)] = true
	}
	return len(seen)
}

// tables is an aligner's rows of the alignment tables.
type tables struct {
	aligns  map[pair]schema.Alignment
	events  map[pair][]schema.AlignmentEvent
	actions map[pair][]schema.HarmfulAction
	errs    map[pair][]schema.AlignmentError
}

func readTables(t *testing.T, data, aligner string) tables {
	t.Helper()
	tb := tables{aligns: map[pair]schema.Alignment{}}
	for p, as := range rowsByPair(t, data, schema.Alignments, false, func(a schema.Alignment) (pair, bool) {
		return pair{a.TraceID, a.DagID}, a.Aligner == aligner
	}) {
		tb.aligns[p] = as[len(as)-1]
	}
	tb.events = rowsByPair(t, data, schema.AlignmentEvents, false, func(e schema.AlignmentEvent) (pair, bool) {
		return pair{e.TraceID, e.DagID}, e.Aligner == aligner
	})
	tb.actions = rowsByPair(t, data, schema.HarmfulActions, false, func(a schema.HarmfulAction) (pair, bool) {
		return pair{a.TraceID, a.DagID}, a.Aligner == aligner
	})
	tb.errs = rowsByPair(t, data, schema.AlignmentErrors, true, func(e schema.AlignmentError) (pair, bool) {
		return pair{e.TraceID, e.DagID}, e.Aligner == aligner
	})
	return tb
}

// rowsByPair reads a table and groups the rows keep takes by their pair.
// An optional table may be missing (it then has no rows).
func rowsByPair[T any](t *testing.T, data string, def schema.Def[T], optional bool, keep func(T) (pair, bool)) map[pair][]T {
	t.Helper()
	rows, err := store.ReadAll(data, def)
	if err != nil && !(optional && errors.Is(err, store.ErrNoTable)) {
		t.Fatal(err)
	}
	out := map[pair][]T{}
	for _, r := range rows {
		if p, ok := keep(r); ok {
			out[p] = append(out[p], r)
		}
	}
	return out
}

// paragraphBreaks counts the blank-line breaks in s: whitespace runs with
// two or more newlines.
var whitespaceRun = regexp.MustCompile(`\s+`)

func paragraphBreaks(s string) int {
	n := 0
	for _, ws := range whitespaceRun.FindAllString(s, -1) {
		if strings.Count(ws, "\n") >= 2 {
			n++
		}
	}
	return n
}

// check checks an aligner's tables against the expected pairs and returns
// them with the summary the rows imply.
func check(t *testing.T, data, aligner string, r run, want map[pair]bool) (tables, align.Summary) {
	t.Helper()
	tb := readTables(t, data, aligner)
	var sum align.Summary
	for p := range want {
		if _, ok := tb.aligns[p]; !ok {
			t.Fatalf("%s was not aligned to %s", p.trace, p.dag)
		}
	}
	for p, a := range tb.aligns {
		if !want[p] {
			t.Fatalf("%s was aligned to %s, which is not one of its DAGs", p.trace, p.dag)
		}
		tr, d := r.traces[p.trace], r.dags[p.dag]
		events, actions, errs := tb.events[p], tb.actions[p], tb.errs[p]
		sum.Alignments++
		sum.Unlocated += int(a.Unlocated)
		sum.Problems += len(errs)
		type counts struct {
			TextHash                  string
			Events, Actions, Problems int
		}
		if diff := cmp.Diff(counts{tr.TextHash, len(events), len(actions), len(errs)},
			counts{a.TextHash, int(a.Events), int(a.Actions), int(a.Problems)}); diff != "" {
			t.Fatalf("alignment %v (-trace and rows +alignment row):\n%s", p, diff)
		}
		if (aligner == datg.SymbolicAligner) != (a.RequestKey == "") {
			t.Fatalf("alignment %v by %s has request key %q", p, aligner, a.RequestKey)
		}
		if a.Status != "ok" {
			sum.Unusable++
			type unusable struct {
				Status          string
				Events, Actions int
				ErrorKinds      []string
			}
			got := unusable{Status: a.Status, Events: len(events), Actions: len(actions)}
			for _, e := range errs {
				got.ErrorKinds = append(got.ErrorKinds, e.Kind)
			}
			if diff := cmp.Diff(unusable{Status: "invalid-json", ErrorKinds: []string{"invalid-json"}}, got); diff != "" {
				t.Fatalf("unusable alignment %v (-want +got):\n%s", p, diff)
			}
			continue
		}
		nodes := map[string]bool{}
		for _, n := range d.DAG.Nodes {
			nodes[n.NodeID] = true
		}
		runes := []rune(tr.Text)
		unlocated := 0
		for _, e := range events {
			if !nodes[e.NodeID] {
				t.Fatalf("alignment %v kept an event of node %s, which its DAG does not have", p, e.NodeID)
			}
			if !slices.Contains(study.Strings(study.EventStatuses...), e.Status) {
				t.Fatalf("alignment %v kept an event of %s with status %q, want one of %v", p, e.NodeID, e.Status, study.EventStatuses)
			}
			set, unset := positionFields(e)
			if e.Match == datg.MatchNone {
				unlocated++
				if len(set) != 0 {
					t.Fatalf("alignment %v: unlocated event %s/%d has %v, want no position", p, e.NodeID, e.Seq, set)
				}
				continue
			}
			if len(unset) != 0 {
				t.Fatalf("alignment %v: located event %s/%d has no %v", p, e.NodeID, e.Seq, unset)
			}
			start, end := int(*e.StartChar), int(*e.EndChar)
			if start < 0 || end <= start || end > len(runes) {
				t.Fatalf("alignment %v: event %s/%d at %d..%d, outside the trace (%d characters)", p, e.NodeID, e.Seq, start, end, len(runes))
			}
			if e.Match == datg.MatchExact && string(runes[start:end]) != strings.TrimSpace(e.EvidenceSpan) {
				t.Fatalf("exact event at %d..%d reads %q, its span is %q", start, end, string(runes[start:end]), e.EvidenceSpan)
			}
			if b := paragraphBreaks(string(runes[:start])); int(*e.BlockID) != b {
				t.Fatalf("event %q at %d is in block %d, not %d", e.EvidenceSpan, start, b, *e.BlockID)
			}
			if math.Abs(*e.CommitProgress-float64(start)/float64(len(runes))) > 1e-9 {
				t.Fatalf("event at %d of %d has progress %v", start, len(runes), *e.CommitProgress)
			}
		}
		if int(a.Unlocated) != unlocated {
			t.Fatalf("alignment %v says %d unlocated events, %d have no position", p, a.Unlocated, unlocated)
		}
	}
	return tb, sum
}

// positionFields names the position columns an event sets and those it
// leaves null.
func positionFields(e schema.AlignmentEvent) (set, unset []string) {
	for _, f := range []struct {
		name string
		null bool
	}{{"start_char", e.StartChar == nil}, {"end_char", e.EndChar == nil}, {"block_id", e.BlockID == nil}, {"commit_progress", e.CommitProgress == nil}} {
		if f.null {
			unset = append(unset, f.name)
		} else {
			set = append(set, f.name)
		}
	}
	return set, unset
}

// sameSummary checks that Run's summary is the one its rows imply.
func sameSummary(t *testing.T, sum, rowSum align.Summary) {
	t.Helper()
	if diff := cmp.Diff(rowSum, sum); diff != "" {
		t.Fatalf("summary (-the rows say +Run returned):\n%s", diff)
	}
}

// checkSummary checks that Run's summary is the one its rows imply, and
// that it counts what want does (fields of the summary other than those
// named in ignore).
func checkSummary(t *testing.T, sum, rowSum, want align.Summary, ignore ...string) {
	t.Helper()
	sameSummary(t, sum, rowSum)
	if diff := cmp.Diff(want, sum, cmpopts.IgnoreFields(align.Summary{}, ignore...)); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
}

// llmAlignment is a run aligned by the LLM aligner: what it should hold,
// and what it holds.
type llmAlignment struct {
	data        string
	sim         *pipelinetest.Sim
	cfg         align.Config
	r           run
	want        map[pair]bool // the base traces of the configured directions with their DAGs
	tb          tables
	sum, rowSum align.Summary // Run's summary, and the one its rows imply
}

// alignLLM aligns a fresh run with the LLM aligner, against a simulator
// that makes faults, and checks the tables it wrote.
func alignLLM(t *testing.T, faults simulate.ContentFaults) llmAlignment {
	t.Helper()
	a := llmAlignment{data: alignRun(t)}
	a.sim = pipelinetest.Simulator(t, a.data, faults)
	a.cfg = llmConfig(a.data, a.sim)
	var err error
	if a.sum, err = align.Run(context.Background(), a.cfg); err != nil {
		t.Fatal(err)
	}
	a.r = readRun(t, a.data)
	a.want = a.r.pairs("base", a.cfg.Directions, 0)
	a.tb, a.rowSum = check(t, a.data, pipelinetest.AlignModel, a.r, a.want)
	return a
}

// The LLM aligner keeps every event of a known node with a valid status,
// records unknown nodes and bad statuses as alignment errors, keeps events
// whose span is nowhere in the trace without a position, and a rerun asks
// nothing.
func TestAlignLLMContentFaults(t *testing.T) {
	a := alignLLM(t, simulate.ContentFaults{Fenced: 0.3, UnknownNode: 0.3, AbsentSpan: 0.2, BadStatus: 0.2})
	sim, cfg, r, want, tb, sum, rowSum := a.sim, a.cfg, a.r, a.want, a.tb, a.sum, a.rowSum
	if got, want := cfg.Directions, study.Strings(study.EnEn, study.EnX); !slices.Equal(got, want) {
		t.Fatalf("directions %v, want %v", got, want)
	}
	if len(want) != 2*2*2*3 {
		t.Fatalf("%d pairs to align, want 24 (2 levels x 2 problems x 2 directions x 3 DAGs)", len(want))
	}
	checkSummary(t, sum, rowSum, align.Summary{Alignments: len(want), Unusable: 0}, "Unlocated", "Problems")
	if sum.Unlocated == 0 || sum.Problems == 0 {
		t.Fatalf("summary: %d unlocated events and %d problems; the faults should make both", sum.Unlocated, sum.Problems)
	}

	// Read each raw reply apart and count what should have been rejected.
	unknown, bad, absent := 0, 0, 0
	for p, a := range tb.aligns {
		obj, err := datg.FindJSONObject(a.Raw)
		if err != nil {
			t.Fatalf("alignment %v: %v", p, err)
		}
		var reply struct {
			Audit map[string][]struct {
				Status string `json:"status"`
				Span   string `json:"evidence_span"`
			} `json:"audit_results"`
		}
		if err := json.Unmarshal([]byte(obj), &reply); err != nil {
			t.Fatal(err)
		}
		wantKinds := map[string]int{}
		spans := map[string]bool{}
		for id, evs := range reply.Audit {
			if !slices.ContainsFunc(r.dags[p.dag].DAG.Nodes, func(n datg.Node) bool { return n.NodeID == id }) {
				wantKinds["unknown-node"]++
				continue
			}
			for _, e := range evs {
				if e.Status == "PARTIAL" {
					wantKinds["bad-status"]++
				} else {
					spans[e.Span] = true
				}
			}
		}
		gotKinds := map[string]int{}
		for i, e := range tb.errs[p] {
			gotKinds[e.Kind]++
			if e.Seq != int32(i) {
				t.Fatalf("alignment %v: error %d has seq %d", p, i, e.Seq)
			}
			if e.Detail == "" {
				t.Fatalf("alignment %v: error %d (%s) has no detail", p, i, e.Kind)
			}
		}
		if fmt.Sprint(gotKinds) != fmt.Sprint(wantKinds) {
			t.Fatalf("alignment %v: errors %v, the reply has %v", p, gotKinds, wantKinds)
		}
		unknown += wantKinds["unknown-node"]
		bad += wantKinds["bad-status"]
		for _, e := range tb.events[p] {
			if e.EvidenceSpan == "a sentence that appears nowhere in the trace" {
				absent++
				if e.Match != datg.MatchNone {
					t.Fatalf("a span that is not in the trace was located: %+v", e)
				}
			}
		}
	}
	if unknown == 0 || bad == 0 || absent == 0 {
		t.Fatalf("faults not seen: %d unknown nodes, %d bad statuses, %d absent spans", unknown, bad, absent)
	}
	// One request per alignment; identical ones are paid once unless they
	// were in flight at the same time.
	served, dup := pipelinetest.Served(sim.Server)
	if served-int64(dup) != int64(r.requests(want)) || served > int64(len(want)) {
		t.Fatalf("%d requests (%d repeated) for %d alignments (%d distinct)", served, dup, len(want), r.requests(want))
	}

	again, err := align.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if diff := cmp.Diff(sum, again); diff != "" {
		t.Fatalf("rerun summary (-first +rerun):\n%s", diff)
	}
	if after, _ := pipelinetest.Served(sim.Server); after != served {
		t.Fatalf("the rerun sent %d requests", after-served)
	}
}

// A reply without an alignment is asked for once more; when that fails
// too, the alignment is stored as invalid-json with no events, and scoring
// leaves it out.
func TestAlignInvalidJSON(t *testing.T) {
	a := alignLLM(t, simulate.ContentFaults{Malformed: 1})
	data, sim, cfg, r, want, tb, sum, rowSum := a.data, a.sim, a.cfg, a.r, a.want, a.tb, a.sum, a.rowSum
	checkSummary(t, sum, rowSum, align.Summary{Unusable: len(want), Problems: len(want)}, "Alignments", "Unlocated")
	if len(tb.events) != 0 || len(tb.actions) != 0 {
		t.Fatalf("%d alignments with events and %d with harmful actions, want none", len(tb.events), len(tb.actions))
	}
	// Two requests per alignment, and the second is another sample, not the
	// same request again.
	served, dup := pipelinetest.Served(sim.Server)
	if served-int64(dup) != 2*int64(r.requests(want)) || served > 2*int64(len(want)) {
		t.Fatalf("%d requests (%d repeated) for %d alignments (%d distinct)", served, dup, len(want), r.requests(want))
	}
	if _, err := align.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if after, _ := pipelinetest.Served(sim.Server); after != served {
		t.Fatalf("the rerun sent %d requests", after-served)
	}
	ssum, err := score.Run(context.Background(), score.Config{Data: data})
	if err != nil {
		t.Fatalf("score: %v", err)
	}
	if diff := cmp.Diff(score.Summary{Scored: 0, Unusable: len(want)}, ssum, cmpopts.IgnoreFields(score.Summary{}, "Traces", "StaleText", "StaleDAG")); diff != "" {
		t.Fatalf("score summary (-want +got):\n%s", diff)
	}
}

// The second request for a reply without an alignment can succeed.
func TestAlignRetryIsANewSample(t *testing.T) {
	a := alignLLM(t, simulate.ContentFaults{Malformed: 0.5})
	sim, r, want, tb, sum, rowSum := a.sim, a.r, a.want, a.tb, a.sum, a.rowSum
	unusable := map[pair]bool{}
	for p, a := range tb.aligns {
		if a.Status != "ok" {
			unusable[p] = true
		}
	}
	// Distinct requests beyond the first of each pair are retries; some of
	// them get an alignment this time.
	served, dup := pipelinetest.Served(sim.Server)
	retries := int(served) - dup - r.requests(want)
	sameSummary(t, sum, rowSum)
	if retries == 0 || r.requests(unusable) >= retries {
		t.Fatalf("%d retries (%d requests, %d repeated, for %d alignments, %d distinct) for %d distinct unusable alignments: want some, and more than those left unusable",
			retries, served, dup, len(want), r.requests(want), r.requests(unusable))
	}
}

// The symbolic aligner needs no server, records no request, and its rows
// sit beside those of an LLM aligner.
func TestAlignSymbolic(t *testing.T) {
	data := alignRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := llmConfig(data, sim)
	llmSum, err := align.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := pipelinetest.Served(sim.Server)
	cfg.Symbolic = true
	sum, err := align.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := pipelinetest.Served(sim.Server); after != before {
		t.Fatalf("the symbolic aligner sent %d requests", after-before)
	}
	r := readRun(t, data)
	want := r.pairs("base", cfg.Directions, 0)
	tb, rowSum := check(t, data, datg.SymbolicAligner, r, want)
	checkSummary(t, sum, rowSum, align.Summary{Alignments: len(want), Unusable: 0}, "Unlocated", "Problems")
	committed := 0
	for _, evs := range tb.events {
		for _, e := range evs {
			if e.Status == string(study.Commit) {
				committed++
			}
		}
	}
	if committed == 0 {
		t.Fatal("the symbolic aligner committed no node of traces written from the DAGs' own solutions")
	}
	// The run reads each trace once for its DAGs and each DAG once for
	// its traces: its rows are those of each pair aligned on its own.
	for p, a := range tb.aligns {
		tr, d := r.traces[p.trace], r.dags[p.dag]
		alone := align.Rows(&tr, d, datg.SymbolicAligner, datg.SymbolicAlignmentJSON(tr.Text, d.DAG))
		ignore := cmpopts.IgnoreFields(schema.Alignment{}, "CreatedAt")
		if diff := cmp.Diff(alone.Alignment, a, ignore); diff != "" {
			t.Fatalf("alignment %v (-alone +run):\n%s", p, diff)
		}
		if diff := cmp.Diff(alone.Events, tb.events[p], cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("events of %v (-alone +run):\n%s", p, diff)
		}
		if diff := cmp.Diff(alone.Actions, tb.actions[p], cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("actions of %v (-alone +run):\n%s", p, diff)
		}
		if diff := cmp.Diff(alone.Errors, tb.errs[p], cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("errors of %v (-alone +run):\n%s", p, diff)
		}
	}
	if _, llmRows := check(t, data, pipelinetest.AlignModel, r, want); llmRows != llmSum {
		t.Fatalf("the LLM aligner's rows changed (-were +are):\n%s", cmp.Diff(llmSum, llmRows))
	}
	if n, _ := store.NumRows(data, schema.Alignments.Table); n != 2*int64(len(want)) {
		t.Fatalf("%d alignments, want %d of each aligner", n, len(want))
	}
}

// In reference mode each reference is aligned to the other DAGs of its
// problem, never its own; --limit selects problems in reference mode too.
func TestAlignReferences(t *testing.T) {
	for _, tc := range []struct {
		limit, pairs int
	}{
		{0, 36}, // 6 problems x 3 references x 2 other DAGs
		{1, 18}, // the first problem of each level
	} {
		t.Run(fmt.Sprintf("limit=%d", tc.limit), func(t *testing.T) {
			data := alignRun(t)
			cfg := align.DefaultConfig()
			cfg.Data, cfg.Symbolic, cfg.References, cfg.Limit = data, true, true, tc.limit
			sum, err := align.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := readRun(t, data)
			want := r.pairs("reference", nil, tc.limit)
			if len(want) != tc.pairs {
				t.Fatalf("%d reference pairs, want %d", len(want), tc.pairs)
			}
			_, rowSum := check(t, data, datg.SymbolicAligner, r, want)
			sameSummary(t, sum, rowSum)
			for p := range readTables(t, data, datg.SymbolicAligner).aligns {
				tr, d := r.traces[p.trace], r.dags[p.dag]
				if tr.ProblemID != d.Row.ProblemID {
					t.Fatalf("reference %s of %s aligned to %s, a DAG of %s", tr.TraceID, tr.ProblemID, p.dag, d.Row.ProblemID)
				}
				if tr.Seed == int64(d.Row.RefIndex) {
					t.Fatalf("reference %s (ref %d) aligned to its own DAG %s", tr.TraceID, tr.Seed, p.dag)
				}
			}
		})
	}
}

// Invalid DAGs are not aligned to.
func TestAlignSkipsInvalidDAGs(t *testing.T) {
	data := alignRun(t)
	w, err := dags.NewWriter(data, store.Meta{Stage: "test"})
	if err != nil {
		t.Fatal(err)
	}
	row, nodes, edges, _ := dags.Rows("low-0", 3, `{"final_node_id": "n1", "nodes": [{"node_id": "n1", "anchor": "x = 1", "parents": ["n1"]}]}`, "test")
	if err := w.Add(row, nodes, edges); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	cfg := align.DefaultConfig()
	cfg.Data, cfg.Symbolic = data, true
	if _, err := align.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	r := readRun(t, data)
	if r.dags["low-0/r3"] == nil || r.dags["low-0/r3"].Row.Valid {
		t.Fatal("the invalid DAG was not stored")
	}
	check(t, data, datg.SymbolicAligner, r, r.pairs("base", cfg.Directions, 0))
}

// An alignment run killed midway resumes: every pair is aligned once, and
// only requests that were in flight when it stopped are paid again. The
// scores then cover every usable alignment.
func TestAlignResumeAfterCancel(t *testing.T) {
	data := alignRun(t)
	c := pipelinetest.SimConfig(t)
	c.Latency = 20 * time.Millisecond
	sim := pipelinetest.StartSim(t, data, c)
	cfg := llmConfig(data, sim)
	cfg.Target.Pool.SlotsPerEndpoint = 4
	r := readRun(t, data)
	want := r.pairs("base", cfg.Directions, 0)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if served, _ := pipelinetest.Served(sim.Server); served >= int64(len(want)/2) {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	if _, err := align.Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if store.Exists(data, schema.Alignments.Table) || store.Exists(data, schema.AlignmentEvents.Table) {
		t.Fatal("an interrupted run wrote alignment tables")
	}
	first, _ := pipelinetest.Served(sim.Server)
	if first >= int64(len(want)) {
		t.Fatalf("the run was not interrupted: %d of %d requests served", first, len(want))
	}

	sum, err := align.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb, rowSum := check(t, data, pipelinetest.AlignModel, r, want)
	checkSummary(t, sum, rowSum, align.Summary{Alignments: len(want), Unusable: 0}, "Unlocated", "Problems")
	// Across both runs every distinct request was answered, and at most
	// the requests in flight at the cancellation were sent again.
	served, dup := pipelinetest.Served(sim.Server)
	slots := cfg.Target.Pool.SlotsPerEndpoint
	if served-int64(dup) != int64(r.requests(want)) || served > int64(len(want)+slots) {
		t.Fatalf("%d requests (%d repeated) for %d alignments (%d distinct); at most %d were in flight",
			served, dup, len(want), r.requests(want), slots)
	}

	ssum, err := score.Run(context.Background(), score.Config{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	scores, err := store.ReadAll(data, schema.Scores)
	if err != nil {
		t.Fatal(err)
	}
	byPair := map[pair]schema.Score{}
	best := map[string]int{}
	for _, s := range scores {
		byPair[pair{s.TraceID, s.DagID}] = s
		if s.Best {
			best[s.TraceID]++
		}
	}
	traces := map[string]bool{}
	for p := range want {
		traces[p.trace] = true
	}
	type scored struct {
		Scored, ScoreRows, Traces, TracesWithBest int
	}
	if diff := cmp.Diff(scored{len(want), len(want), len(traces), len(traces)}, scored{ssum.Scored, len(scores), ssum.Traces, len(best)}); diff != "" {
		t.Fatalf("scores (-want +got):\n%s", diff)
	}
	for p := range want {
		s, ok := byPair[p]
		if !ok {
			t.Fatalf("%v was not scored", p)
		}
		d := r.dags[p.dag]
		type who struct {
			Aligner     string
			RefIndex    int32
			BestOfTrace int
		}
		if diff := cmp.Diff(who{pipelinetest.AlignModel, d.Row.RefIndex, 1}, who{s.Aligner, s.RefIndex, best[p.trace]}); diff != "" {
			t.Fatalf("score of %v (-want +got):\n%s", p, diff)
		}
		commits := map[string]bool{}
		for _, e := range tb.events[p] {
			if e.Status == string(study.Commit) {
				commits[e.NodeID] = true
			}
		}
		nodes := len(d.DAG.Nodes)
		type counts struct {
			NodeCount, Committed, EdgeCount int
			CAR                             float64
			PMF                             bool // a DAG with edges has one
		}
		want := counts{nodes, len(commits), len(d.DAG.Edges()), float64(len(commits)) / float64(nodes), len(d.DAG.Edges()) != 0}
		got := counts{int(s.NodeCount), int(s.Committed), int(s.EdgeCount), s.CAR, s.PMF != nil}
		if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Fatalf("score of %v (-the DAG and events say +the score row):\n%s", p, diff)
		}
		if s.HAR < 0 || s.HAR > 1 {
			t.Fatalf("score of %v: HAR %v outside [0, 1]", p, s.HAR)
		}
		if s.PMF != nil && (*s.PMF < 0 || *s.PMF > 1) {
			t.Fatalf("score of %v: PMF %v outside [0, 1]", p, *s.PMF)
		}
	}
}

func TestAlignNeedsDAGsAndTraces(t *testing.T) {
	data, sim := withTraces(t)
	cfg := llmConfig(data, sim)
	if _, err := align.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "run datg dags") {
		t.Fatalf("no DAGs: got %v", err)
	}

	data = alignRun(t)
	cfg = llmConfig(data, sim)
	before, _ := pipelinetest.Served(sim.Server)
	cfg.Levels = []string{"high"} // DAGs of high problems, but no high traces
	if _, err := align.Run(context.Background(), cfg); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "no trace matches") {
		t.Fatalf("nothing selected: got %v", err)
	}
	if after, _ := pipelinetest.Served(sim.Server); after != before {
		t.Fatalf("%d requests sent with nothing to align", after-before)
	}
}

func TestAlignValidate(t *testing.T) {
	cfg := align.DefaultConfig()
	if err := cfg.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "no endpoint") {
		t.Fatalf("LLM aligner without a target: %v", err)
	}
	cfg.Target = llm.Target{Endpoints: []string{"http://127.0.0.1:1/v1"}, Model: "m", API: llm.APIChat, Pool: llm.DefaultOptions()}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*align.Config){
		"direction": func(c *align.Config) { c.Directions = []string{"en-y"} },
		"limit":     func(c *align.Config) { c.Limit = -1 },
		"tokens":    func(c *align.Config) { c.MaxTokens = -1 },
		"budget":    func(c *align.Config) { c.MaxTokens = 3_000_000_000 },
	} {
		c := cfg
		edit(&c)
		if err := c.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := align.Run(context.Background(), c); !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: Run gave %v", name, err)
		}
	}
	if err := (align.Config{Symbolic: true, MaxTokens: 1}).Validate(); err != nil {
		t.Fatalf("the symbolic aligner needs no target: %v", err)
	}
}

func TestRows(t *testing.T) {
	trace := &schema.Trace{TraceID: "t1", Text: "Let x = 2.\n\nThen y = x + 3 = 5.\n\n\nSo the answer is 5."}
	dag := datg.DAG{FinalNodeID: "n2", Nodes: []datg.Node{
		{NodeID: "n1", Anchor: "x = 2", Parents: []string{}},
		{NodeID: "n2", Anchor: "y = x + 3 = 5", Parents: []string{"n1"}},
	}}
	reply := "Sure.\n```json\n" + `{
		"audit_results": {
			"n1": [{"status": "COMMIT", "evidence": "x = 2", "evidence_span": "x = 2"}, {"status": "MISSING"}],
			"n2": [{"status": "attempt", "evidence": "y", "evidence_span": "y = x + 3"},
			       {"status": "PARTIAL", "evidence": "y", "evidence_span": "y = x + 3 = 5"},
			       {"status": "COMMIT", "evidence": "y", "evidence_span": "y equals eight"}],
			"n9": [{"status": "COMMIT", "evidence": "?", "evidence_span": "?"}]
		},
		"contradictory_steps": [{"evidence": "answer", "evidence_span": "So the answer is 5."}],
		"harmful_loop_steps": [{"evidence": "Then y", "evidence_span": ""}],
		"degenerate_steps": []
	}` + "\n```"
	stored := &dags.Stored{Row: schema.DAG{DagID: "low-0/r0", ContentHash: "h0"}, DAG: dag}
	res := align.Rows(trace, stored, "m", reply)
	a := res.Alignment
	wantAlignment := schema.Alignment{TraceID: "t1", DagID: "low-0/r0", Aligner: "m", Status: "ok", Raw: reply,
		Events: 3, Actions: 2, Problems: 3, Unlocated: 1, TextHash: transforms.TextHash(trace.Text), DagHash: "h0"}
	unchecked := cmpopts.IgnoreFields(schema.Alignment{}, "PromptTokens", "CompletionTokens", "RequestKey", "PromptSet", "CreatedAt")
	if diff := cmp.Diff(wantAlignment, a, unchecked); diff != "" {
		t.Fatalf("alignment (-want +got):\n%s", diff)
	}
	var got []string
	for _, e := range res.Events {
		s := fmt.Sprintf("%s/%d %s %s", e.NodeID, e.Seq, e.Status, e.Match)
		if e.StartChar != nil {
			s += fmt.Sprintf(" %d-%d b%d", *e.StartChar, *e.EndChar, *e.BlockID)
		}
		got = append(got, s)
	}
	want := []string{"n1/0 COMMIT exact 4-9 b0", "n2/0 ATTEMPT exact 17-26 b1", "n2/2 COMMIT none"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n%v\nwant\n%v", got, want)
	}
	var kinds []string
	for i, e := range res.Errors {
		if e.Seq != int32(i) {
			t.Fatalf("error %d has seq %d", i, e.Seq)
		}
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []string{"missing-status", "bad-status", "unknown-node"}) {
		t.Fatalf("errors %v", kinds)
	}
	type action struct {
		Category  string
		StartChar *int32
	}
	var actions []action
	for _, a := range res.Actions {
		actions = append(actions, action{a.Category, a.StartChar})
	}
	at := func(i int32) *int32 { return &i }
	if diff := cmp.Diff([]action{{datg.Contradictory, at(34)}, {datg.HarmfulLoop, at(12)}}, actions); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}

	res = align.Rows(trace, stored, "m", `{"audit_results": {"n1": [{"status": "COMM`)
	type cutOff struct {
		Status     string
		Problems   int32
		Events     int
		ErrorKinds []string
	}
	gotCut := cutOff{Status: res.Alignment.Status, Problems: res.Alignment.Problems, Events: len(res.Events)}
	for _, e := range res.Errors {
		gotCut.ErrorKinds = append(gotCut.ErrorKinds, e.Kind)
	}
	if diff := cmp.Diff(cutOff{"invalid-json", 1, 0, []string{"invalid-json"}}, gotCut); diff != "" {
		t.Fatalf("cut-off reply (-want +got):\n%s", diff)
	}
}

// Issue 19: on a 145k-character trace, each evidence span of 4,000
// characters that is not in it took 0.8 s to look for (40 took 31 s), and
// an imported or journaled reply with many could take hours, on every
// align. Locating is capped: such spans are searched exactly and
// normalized only, an alignment's spans share a budget proportional to the
// trace, and every span a cap stops is kept unlocated and recorded in
// alignment_errors as locate-capped.
func TestRowsCapLocatingSpans(t *testing.T) {
	var text strings.Builder
	for i := 0; text.Len() < 145_000; i++ {
		fmt.Fprintf(&text, "Step %d: we add $%d + %d = %d$ and check the total again.\n\n", i, i, 2*i, 3*i)
	}
	trace := &schema.Trace{TraceID: "t1", Text: text.String()}
	absent := func(i, n int) string {
		return string([]rune(strings.Repeat(fmt.Sprintf("жук %d не здесь ", i), n))[:n])
	}
	dag := datg.DAG{FinalNodeID: "n1", Nodes: []datg.Node{{NodeID: "n1", Anchor: "x", Parents: []string{}}}}
	stored := &dags.Stored{Row: schema.DAG{DagID: "low-0/r0"}, DAG: dag}
	reply := func(events []string) string {
		var list []map[string]string
		for _, span := range events {
			list = append(list, map[string]string{"status": "COMMIT", "evidence": "e", "evidence_span": span})
		}
		b, err := json.Marshal(map[string]any{"audit_results": map[string]any{"n1": list},
			"contradictory_steps": []map[string]string{{"evidence": "e", "evidence_span": absent(99, 4000)}}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	capped := func(res align.Result) (n int, details []string) {
		for _, e := range res.Errors {
			if e.Kind == string(study.LocateCapped) {
				n++
				details = append(details, e.Detail)
			}
		}
		return n, details
	}

	var long []string
	for i := 0; i < 40; i++ {
		long = append(long, absent(i, 4000))
	}
	res := align.Rows(trace, stored, "m", reply(long))
	n, details := capped(res)
	if n != 41 || res.Capped != 41 || res.Alignment.Unlocated != 40 || int(res.Alignment.Problems) != len(res.Errors) {
		t.Fatalf("40 long spans and a long harmful one: %d locate-capped rows, %d unlocated events, %d problems of %d rows",
			n, res.Alignment.Unlocated, res.Alignment.Problems, len(res.Errors))
	}
	if !strings.HasPrefix(details[0], "node n1 event 0: a span of 4000 characters was not located: "+datg.CutLongSpan) ||
		!strings.HasPrefix(details[40], "contradictory_steps item 1: ") {
		t.Fatalf("details %q ... %q", details[0], details[40])
	}
	// Searched exactly and normalized: a few passes over the trace each.
	if limit := 41 * 4 * len(trace.Text); res.LocateSteps > limit {
		t.Fatalf("41 spans took %d steps, more than %d", res.LocateSteps, limit)
	}
	for _, e := range res.Events {
		if e.Match != datg.MatchNone || e.StartChar != nil {
			t.Fatalf("a capped span has a location: %+v", e)
		}
	}

	// Many spans the fuzzy search may look for: the budget stops them.
	var many []string
	for i := 0; i < 3000; i++ {
		many = append(many, absent(i, 600))
	}
	res = align.Rows(trace, stored, "m", reply(many))
	n, details = capped(res)
	if n < 2900 || res.Capped != n || res.LocateSteps > datg.LocateBudget(utf8.RuneCountInString(trace.Text)) {
		t.Fatalf("3001 spans: %d capped, %d steps of a budget of %d", n, res.LocateSteps, datg.LocateBudget(utf8.RuneCountInString(trace.Text)))
	}
	if !strings.Contains(details[len(details)-1], datg.CutBudget) {
		t.Fatalf("last capped span: %q", details[len(details)-1])
	}
}

// By default align diagnoses the direction probe: base traces at the
// probe's seed. Base traces of other seeds (datg generate --seeds) are
// aligned only when --seeds names them.
func TestAlignSelectsTheProbeSeed(t *testing.T) {
	data := alignRun(t)
	traces, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	var extra schema.Trace
	for _, tr := range traces {
		if tr.Method == "base" && tr.Direction == "en-x" && tr.Level == "low" {
			extra = tr
			break
		}
	}
	extra.TraceID, extra.Seed = extra.TraceID+"-seed215", 215
	m, err := store.NewMerger(data, schema.Traces, store.Meta{Stage: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(extra); err != nil {
		t.Fatal(err)
	}
	if err := m.Commit(); err != nil {
		t.Fatal(err)
	}
	aligned := func(seeds []int64) (probe, other int) {
		cfg := align.DefaultConfig()
		cfg.Data, cfg.Symbolic, cfg.Levels, cfg.Seeds = data, true, []string{"low"}, seeds
		if _, err := align.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		rows, err := store.ReadAll(data, schema.Alignments)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range rows {
			if a.TraceID == extra.TraceID {
				other++
			} else {
				probe++
			}
		}
		return probe, other
	}
	if probe, other := aligned(nil); probe == 0 || other != 0 {
		t.Fatalf("default: %d probe alignments, %d of the seed-215 trace; want some and none", probe, other)
	}
	if _, other := aligned([]int64{215}); other == 0 {
		t.Fatal("--seeds 215 did not align the seed-215 trace")
	}
}
