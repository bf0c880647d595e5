package references_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/pipelines/imports"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/answer"
)

// uncheckedTraceFields are the columns of a reference trace that the tests
// do not predict.
var uncheckedTraceFields = cmpopts.IgnoreFields(schema.Trace{}, "Prefix", "CompletionTokens", "PromptTokens", "FinishReason", "Truncated",
	"MaxTokens", "Temperature", "TopP", "TopK", "RepetitionPenalty", "ServedModel", "Endpoint", "PromptSet", "CreatedAt")

// checkRejected checks that a rejected derivation has no reference number
// or trace, and says why it was rejected.
func checkRejected(t *testing.T, r schema.Reference) {
	t.Helper()
	type rejected struct {
		RefIndex  int32
		TraceID   string
		HasReason bool
	}
	if diff := cmp.Diff(rejected{-1, "", true}, rejected{r.RefIndex, r.TraceID, r.Reason != ""}); diff != "" {
		t.Fatalf("rejected %s attempt %d (-want +got):\n%s", r.ProblemID, r.Attempt, diff)
	}
}

func config(data string, target llm.Target) references.Config {
	cfg := references.DefaultConfig()
	cfg.Data, cfg.Target = data, target
	return cfg
}

// englishProblems is the run's English problems selected by levels and
// limit, by id.
func englishProblems(t *testing.T, data string, levels []string, limit int) map[string]schema.Problem {
	t.Helper()
	out := map[string]schema.Problem{}
	for _, p := range readRows(t, data, schema.Problems) {
		if p.Lang == "en" && slices.Contains(levels, p.Level) && (limit == 0 || int(p.K) < limit) {
			out[p.ProblemID] = p
		}
	}
	return out
}

// readRows is every row of a table of the run.
func readRows[T any](t *testing.T, data string, def schema.Def[T]) []T {
	t.Helper()
	rows, err := store.ReadAll(data, def)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func readDerivations(t *testing.T, data string) map[string][]schema.Reference {
	t.Helper()
	out := map[string][]schema.Reference{}
	for _, r := range readRows(t, data, schema.References) {
		out[r.ProblemID] = append(out[r.ProblemID], r)
	}
	for _, l := range out {
		slices.SortFunc(l, func(a, b schema.Reference) int { return int(a.Attempt - b.Attempt) })
	}
	return out
}

func referenceTraces(t *testing.T, data string) map[string]schema.Trace {
	t.Helper()
	out := map[string]schema.Trace{}
	for _, r := range readRows(t, data, schema.Traces) {
		if r.Method == "reference" {
			out[r.TraceID] = r
		}
	}
	return out
}

// A strong model gets exactly PerProblem accepted references per problem,
// numbered in attempt order, each also a trace with seed = ref_index; every
// attempt, rejected ones included, is a derivation; a rerun asks nothing.
func TestReferencesPerProblem(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, sim.URL))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Limit, cfg.Levels = 4, 12, 3, []string{"low", "medium", "high"}
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	problems := englishProblems(t, data, cfg.Levels, cfg.Limit)
	if len(problems) != 9 {
		t.Fatalf("%d problems selected, want 9", len(problems))
	}
	want := references.Summary{Problems: 9, Complete: 9, Short: nil, Accepted: 9 * cfg.PerProblem}
	if diff := cmp.Diff(want, sum, cmpopts.IgnoreFields(references.Summary{}, "Attempts"), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	served, dup := pipelinetest.Served(sim.Server)
	if served != int64(sum.Attempts) || dup != 0 {
		t.Fatalf("%d attempts, but the server answered %d requests (%d repeated)", sum.Attempts, served, dup)
	}

	derivs := readDerivations(t, data)
	traces := referenceTraces(t, data)
	rows, rejected := 0, 0
	for id, p := range problems {
		list := derivs[id]
		rows += len(list)
		gold := answer.NewGold(p.Answer)
		next := int32(0)
		for i, r := range list {
			type call struct {
				Attempt             int32
				Model, FinishReason string
			}
			if diff := cmp.Diff(call{int32(i), pipelinetest.ReferenceModel, "stop"}, call{r.Attempt, r.Model, r.FinishReason}); diff != "" {
				t.Fatalf("%s attempt %d (-want +got):\n%s", id, i, diff)
			}
			if r.RequestKey == "" || r.CompletionTokens <= 0 {
				t.Fatalf("%s attempt %d: request key %q, %d completion tokens; want a key and the tokens counted", id, i, r.RequestKey, r.CompletionTokens)
			}
			text := transforms.ThinkOpen + r.Reasoning + "\n" + transforms.ThinkClose + "\n\n" + r.Response
			if r.Reasoning == "" {
				text = r.Response
			}
			if v := gold.Grade(text, false); v.Correct != r.Accepted {
				t.Fatalf("%s attempt %d: accepted %v, but the grader says %+v", id, i, r.Accepted, v)
			}
			if !r.Accepted {
				rejected++
				checkRejected(t, r)
				continue
			}
			if r.RefIndex != next {
				t.Fatalf("%s attempt %d: ref_index %d, want %d (accepted references are numbered in attempt order)", id, i, r.RefIndex, next)
			}
			next++
			tr, ok := traces[r.TraceID]
			if !ok {
				t.Fatalf("%s ref %d: no trace %s", id, r.RefIndex, r.TraceID)
			}
			want := transforms.TraceID(transforms.TraceKey{Model: pipelinetest.ReferenceModel, InputLang: "en", ReasoningLang: "en",
				Level: p.Level, ProblemID: id, Seed: int64(r.RefIndex), Method: "reference"})
			wantTrace := schema.Trace{TraceID: want, Model: pipelinetest.ReferenceModel, InputLang: "en", ReasoningLang: "en",
				Direction: string(study.EnEn), Level: p.Level, ProblemID: id, Seed: int64(r.RefIndex), Method: "reference",
				Text: text, TextHash: transforms.TextHash(text), RequestKey: r.RequestKey, Source: "references"}
			if diff := cmp.Diff(wantTrace, tr, uncheckedTraceFields); diff != "" {
				t.Fatalf("trace of %s ref %d (-want +got):\n%s", id, r.RefIndex, diff)
			}
		}
		// Each round asks for what a problem still lacks, so no problem
		// gets more accepted references than asked for.
		if next != int32(cfg.PerProblem) {
			t.Fatalf("%s has %d accepted references, want exactly %d", id, next, cfg.PerProblem)
		}
	}
	type counts struct {
		Problems, Derivations, Accepted, Traces int
	}
	if diff := cmp.Diff(counts{len(problems), sum.Attempts, sum.Accepted, sum.Accepted}, counts{len(derivs), rows, rows - rejected, len(traces)}); diff != "" {
		t.Fatalf("the tables (+) against the problems and the summary (-):\n%s", diff)
	}
	md, err := store.FileMeta(store.FilePath(data, schema.References.Table))
	if err != nil {
		t.Fatalf("metadata: %v", err)
	}
	if got, want := md[store.MetaStage], "references"; got != want {
		t.Fatalf("metadata %s = %q, want %q", store.MetaStage, got, want)
	}

	// A rerun answers every attempt from the journal.
	again, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := pipelinetest.Served(sim.Server); after != served {
		t.Fatalf("the rerun sent %d requests", after-served)
	}
	if diff := cmp.Diff(sum, again, cmpopts.IgnoreFields(references.Summary{}, "Problems", "Short")); diff != "" {
		t.Fatalf("rerun summary (-first +rerun):\n%s", diff)
	}
	if n, _ := store.NumRows(data, schema.References.Table); n != int64(rows) {
		t.Fatalf("rerun left %d derivations, want %d", n, rows)
	}
	if n := len(referenceTraces(t, data)); n != len(traces) {
		t.Fatalf("rerun left %d reference traces, want %d", n, len(traces))
	}

	// Asking for more references sends only the new attempts and keeps
	// the references there were, with their numbers.
	cfg.PerProblem = 6
	more, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	after, dup := pipelinetest.Served(sim.Server)
	if after-served != int64(more.Attempts-sum.Attempts) || dup != 0 {
		t.Fatalf("%d new requests (%d repeated) for %d new attempts; want one each", after-served, dup, more.Attempts-sum.Attempts)
	}
	if more.Accepted != 9*6 {
		t.Fatalf("summary: Accepted %d, want %d", more.Accepted, 9*6)
	}
	grown := readDerivations(t, data)
	for id, list := range derivs {
		if diff := cmp.Diff(list, grown[id][:min(len(list), len(grown[id]))]); diff != "" {
			t.Fatalf("%s: the derivations there were changed (-were +are):\n%s", id, diff)
		}
	}
}

// A model that never finds the answer uses every attempt and leaves each
// problem short, which the summary and the derivations record.
func TestReferencesStopAtMaxAttempts(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	// Without the run's answer key the simulated model answers 0 (or a
	// number near it), and the gold answers of low-0 (15) and medium-0 (23)
	// are never near 0.
	weak := pipelinetest.StartSim(t, "", pipelinetest.SimConfig(t))
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, weak.URL))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Limit, cfg.Levels = 2, 5, 1, []string{"low", "medium"}
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(sum.Short)
	want := references.Summary{Problems: 2, Complete: 0, Accepted: 0, Attempts: 10, Short: []string{"low-0 (0 of 2)", "medium-0 (0 of 2)"}}
	if diff := cmp.Diff(want, sum); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	if served, _ := pipelinetest.Served(weak.Server); served != 10 {
		t.Fatalf("the server answered %d requests, want MaxAttempts x 2 = 10", served)
	}
	derivs := readDerivations(t, data)
	for _, id := range []string{"low-0", "medium-0"} {
		list := derivs[id]
		if len(list) != cfg.MaxAttempts {
			t.Fatalf("%s has %d derivations, want %d", id, len(list), cfg.MaxAttempts)
		}
		for i, r := range list {
			if r.Accepted {
				t.Fatalf("%s attempt %d was accepted", id, r.Attempt)
			}
			if r.Attempt != int32(i) {
				t.Fatalf("%s: derivation %d is attempt %d", id, i, r.Attempt)
			}
			checkRejected(t, r)
		}
	}
	if n := len(referenceTraces(t, data)); n != 0 {
		t.Fatalf("%d reference traces from rejected derivations", n)
	}
}

// With as many attempts as references wanted there is a single round:
// every problem uses all its attempts, and a problem is short exactly when
// a derivation was rejected.
func TestReferencesSingleRound(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, sim.URL))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels = 3, 3, []string{"low", "medium", "high"}
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(references.Summary{Problems: 15, Attempts: 45}, sum, cmpopts.IgnoreFields(references.Summary{}, "Complete", "Accepted", "Short")); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	var short []string
	accepted := 0
	for id, list := range readDerivations(t, data) {
		n := 0
		for _, r := range list {
			if r.Accepted {
				n++
			}
		}
		accepted += n
		if len(list) != 3 {
			t.Fatalf("%s has %d derivations, want 3", id, len(list))
		}
		if n < 3 {
			short = append(short, id)
		}
	}
	var reported []string
	for _, s := range sum.Short {
		id, _, _ := strings.Cut(s, " ")
		reported = append(reported, id)
	}
	slices.Sort(short)
	slices.Sort(reported)
	type tally struct {
		Short              []string
		Complete, Accepted int
	}
	if diff := cmp.Diff(tally{short, 15 - len(short), accepted}, tally{reported, sum.Complete, sum.Accepted}, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("summary (-the derivations say +reported):\n%s", diff)
	}
}

// Injected server faults (HTTP errors, dropped connections, malformed
// bodies) are retried and change nothing that is written.
func TestReferencesSurviveServerFaults(t *testing.T) {
	levels := []string{"low", "medium", "high"}
	run := func(faults simulate.Faults) ([]schema.Reference, simulate.Stats) {
		data := pipelinetest.DemoRun(t)
		c := pipelinetest.SimConfig(t)
		c.Faults = faults
		sim := pipelinetest.StartSim(t, data, c)
		cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, sim.URL))
		cfg.PerProblem, cfg.MaxAttempts, cfg.Levels = 3, 8, levels
		// One endpoint failing 30% of requests is sometimes out of rotation
		// for a while; a slow machine must not turn that into a failed run.
		cfg.Target.Pool.Patience = time.Minute
		if _, err := references.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		rows, err := store.ReadAll(data, schema.References)
		if err != nil {
			t.Fatal(err)
		}
		return rows, sim.Server.Stats()
	}
	healthy, _ := run(simulate.Faults{})
	faulty, stats := run(simulate.Faults{ErrorRate: 0.1, DropRate: 0.1, MalformedRate: 0.1})
	if stats.Errors == 0 || stats.Dropped == 0 || stats.Malformed == 0 {
		t.Fatalf("faults injected: %d errors, %d dropped, %d malformed; want some of each", stats.Errors, stats.Dropped, stats.Malformed)
	}
	key := func(r schema.Reference) string { return fmt.Sprintf("%s/%03d", r.ProblemID, r.Attempt) }
	slices.SortFunc(healthy, func(a, b schema.Reference) int { return strings.Compare(key(a), key(b)) })
	slices.SortFunc(faulty, func(a, b schema.Reference) int { return strings.Compare(key(a), key(b)) })
	if len(healthy) != len(faulty) {
		t.Fatalf("%d derivations with faults, %d without", len(faulty), len(healthy))
	}
	if diff := cmp.Diff(healthy, faulty); diff != "" {
		t.Fatalf("derivations (-without faults +with faults):\n%s", diff)
	}
}

// Requests a server rejects fail the run without writing a table, naming
// the problem; the rerun asks only for what had failed.
func TestReferencesRejectedRequestsResume(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	problems := englishProblems(t, data, []string{"low"}, 3)
	h := &pipelinetest.Rejecting{Next: sim.Server, Marker: problems["low-1"].Question[:30], Message: "prompt too long"}
	ts := httptest.NewServer(h)
	defer ts.Close()
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, ts.URL+"/v1"))
	cfg.PerProblem, cfg.MaxAttempts, cfg.Limit, cfg.Levels = 2, 6, 3, []string{"low"}
	_, err := references.Run(context.Background(), cfg)
	if !errors.Is(err, llm.ErrFailedRequests) || !strings.Contains(err.Error(), "low-1") || !strings.Contains(err.Error(), "prompt too long") {
		t.Fatalf("got %v, want ErrFailedRequests naming low-1 and the server's reason", err)
	}
	if h.Count() != 2 {
		t.Fatalf("%d requests rejected, want low-1's 2", h.Count())
	}
	if store.Exists(data, schema.References.Table) || store.Exists(data, schema.Traces.Table) {
		t.Fatal("a failed run wrote its tables")
	}
	before, _ := pipelinetest.Served(sim.Server)
	h.Off.Store(true)
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	after, dup := pipelinetest.Served(sim.Server)
	list := readDerivations(t, data)["low-1"]
	if dup != 0 || after-before != int64(len(list)) {
		t.Fatalf("the rerun sent %d requests (%d repeated) for low-1's %d derivations; want one each", after-before, dup, len(list))
	}
	if sum.Complete != 3 {
		t.Fatalf("summary: Complete %d, want 3", sum.Complete)
	}
}

// A server that never answers stops the run with ErrNoEndpoint.
func TestReferencesNoEndpoint(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Faults.Dead = true
	dead := pipelinetest.StartSim(t, data, c)
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, dead.URL))
	cfg.Limit, cfg.Levels = 1, []string{"low"}
	_, err := references.Run(context.Background(), cfg)
	if !errors.Is(err, llm.ErrNoEndpoint) {
		t.Fatalf("got %v, want ErrNoEndpoint", err)
	}
	if store.Exists(data, schema.References.Table) {
		t.Fatal("a failed run wrote derivations")
	}
}

func TestReferencesNeedProblems(t *testing.T) {
	sim := pipelinetest.Simulator(t, "", simulate.ContentFaults{})
	cfg := config(t.TempDir(), pipelinetest.Target(pipelinetest.ReferenceModel, sim.URL))
	_, err := references.Run(context.Background(), cfg)
	if !errors.Is(err, store.ErrNoTable) || !strings.Contains(err.Error(), "datg ingest") {
		t.Fatalf("no problems table: got %v", err)
	}
	cfg.Data = pipelinetest.DemoRun(t)
	cfg.Levels = []string{"top"}
	if _, err := references.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "no English problems") {
		t.Fatalf("no problem of the level: got %v", err)
	}
	if served, _ := pipelinetest.Served(sim.Server); served != 0 {
		t.Fatalf("%d requests sent without problems", served)
	}
}

func TestReferencesValidate(t *testing.T) {
	good := config("data", llm.Target{Endpoints: []string{"http://127.0.0.1:1/v1"}, Model: "m", API: llm.APIChat, Pool: llm.DefaultOptions()})
	if err := good.Validate(); err != nil {
		t.Fatalf("default config with a target: %v", err)
	}
	for name, tc := range map[string]struct {
		edit        func(*references.Config)
		field, want string // the Config field at fault, and what the message says
	}{
		"no endpoint":       {func(c *references.Config) { c.Target.Endpoints = nil }, "Endpoints", "no endpoint"},
		"no model":          {func(c *references.Config) { c.Target.Model = "" }, "Model", "no model"},
		"bad api":           {func(c *references.Config) { c.Target.API = "grpc" }, "API", "grpc"},
		"no references":     {func(c *references.Config) { c.PerProblem = 0 }, "PerProblem", "1 <= 0 <= MaxAttempts (12)"},
		"too few attempts":  {func(c *references.Config) { c.PerProblem, c.MaxAttempts = 5, 4 }, "PerProblem", "MaxAttempts (4)"},
		"negative tokens":   {func(c *references.Config) { c.MaxTokens = -1 }, "MaxTokens", "out of range"},
		"cold":              {func(c *references.Config) { c.Temperature = -0.1 }, "Temperature", "out of range"},
		"top_p zero":        {func(c *references.Config) { c.TopP = 0 }, "TopP", "out of range"},
		"top_p above one":   {func(c *references.Config) { c.TopP = 1.5 }, "TopP", "out of range"},
		"unknown level":     {func(c *references.Config) { c.Levels = []string{"low", "hard"} }, "Levels", `"hard"`},
		"negative limit":    {func(c *references.Config) { c.Limit = -1 }, "Limit", "must not be negative"},
		"huge budget":       {func(c *references.Config) { c.MaxTokens = 3_000_000_000 }, "MaxTokens", "out of range"},
		"huge temperature":  {func(c *references.Config) { c.Temperature = 1e300 }, "Temperature", "out of range"},
		"many attempts":     {func(c *references.Config) { c.MaxAttempts = 1001 }, "MaxAttempts", "1001 is more than 1000"},
		"negative seed":     {func(c *references.Config) { c.Seed = -1 }, "Seed", "out of range"},
		"bad pool settings": {func(c *references.Config) { c.Target.Pool.SlotsPerEndpoint = 0 }, "Pool.SlotsPerEndpoint", "slots per endpoint"},
	} {
		cfg := good
		cfg.Levels = slices.Clone(good.Levels)
		tc.edit(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: got %v, want ErrInvalidConfig", name, err)
		}
		if fields := inputerr.FieldNames(err); !slices.Equal(fields, []string{tc.field}) {
			t.Errorf("%s: fields at fault %v, want [%s]", name, fields, tc.field)
		}
		if err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q does not say %q", name, err, tc.want)
		}
		// Run refuses the config before reading anything.
		if _, err := references.Run(context.Background(), cfg); !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: Run gave %v", name, err)
		}
	}
}

// An imported trace holding a reference trace's identity under another id
// is refused before any request, as import refuses it.
func TestReferencesRefuseIDCollisions(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, sim.URL))
	cfg.Levels, cfg.Limit = []string{"low"}, 1
	held := schema.Trace{TraceID: "my-reference", Model: pipelinetest.ReferenceModel, InputLang: "en", ReasoningLang: "en",
		Direction: string(study.EnEn), Level: "low", ProblemID: "low-0", Seed: 2, Method: "reference", Text: "imported", Source: "import:x.jsonl"}
	if err := store.WriteAll(data, schema.Traces, store.Meta{}, []schema.Trace{held}); err != nil {
		t.Fatal(err)
	}
	_, err := references.Run(context.Background(), cfg)
	if !errors.Is(err, traceids.ErrCollision) {
		t.Fatalf("references over a colliding import: %v, want ErrCollision", err)
	}
	if sent, _ := pipelinetest.Served(sim.Server); sent != 0 {
		t.Fatalf("%d requests sent", sent)
	}
}

// The review: references checked for colliding traces, then spent its LLM
// phase without holding the traces table, so a trace imported meanwhile
// under an id it derives was silently replaced. The table is held from the
// check to the commit: such an import fails at once, as with generate.
func TestReferencesHoldTheTracesTable(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	first := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(first) })
		<-release
		sim.Server.ServeHTTP(w, r)
	}))
	defer ts.Close()
	cfg := config(data, pipelinetest.Target(pipelinetest.ReferenceModel, ts.URL+"/v1"))
	cfg.Levels, cfg.Limit, cfg.PerProblem = []string{"low"}, 1, 1
	done := make(chan error, 1)
	go func() {
		_, err := references.Run(context.Background(), cfg)
		done <- err
	}()
	<-first // references is waiting on its first request
	in := filepath.Join(t.TempDir(), "traces.jsonl")
	os.WriteFile(in, []byte(`{"model": "m", "input_lang": "en", "reasoning_lang": "en", "level": "low", "problem_id": "low-0", "seed": 1, "method": "base", "text": "x", "completion_tokens": 1}`+"\n"), 0o644)
	_, err := imports.Run(context.Background(), imports.Config{Kind: "traces", In: in, Data: data})
	close(release)
	if !errors.Is(err, store.ErrTableBusy) {
		t.Fatalf("import while references runs: %v, want ErrTableBusy", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// One of OpenAI's reasoning models hides its reasoning (GPT-5.4, which
// the paper uses for DAGs and alignment, not references). With the
// derivation its reasoning (the default), the run stops after its first
// round and writes nothing; with --derivation answer, its answers are the
// references, from the replies already journaled (nothing asked twice).
// Against a server that refuses what OpenAI refuses (max_tokens,
// temperature and top_p for those models) every request is answered, and
// the traces record what was sent (no temperature or top_p) and the
// snapshot served.
func TestReferencesFromAnOpenAIReasoningModel(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Dialect = simulate.DialectOpenAI
	sim := pipelinetest.StartSim(t, data, c)
	target := pipelinetest.Target("gpt-5.4", sim.URL)
	target.Pool.Server, target.Pool.ReasoningEffort = llm.ServerOpenAI, "medium"
	cfg := config(data, target)
	cfg.PerProblem, cfg.MaxAttempts, cfg.Levels = 2, 4, []string{"low"}
	if _, err := references.Run(context.Background(), cfg); !errors.Is(err, references.ErrNoReasoning) || !strings.Contains(err.Error(), "--derivation answer") {
		t.Fatalf("got %v, want the run stopped for want of reasoning, naming --derivation answer", err)
	}
	if _, err := store.ReadAll(data, schema.References); !errors.Is(err, store.ErrNoTable) {
		t.Fatalf("derivations after the stopped run: %v", err)
	}
	asked := sim.Server.Stats().Requests
	if asked != 10 {
		t.Fatalf("%d requests, want the first round's 10 (5 problems, 2 each)", asked)
	}
	cfg.Derivation = study.FromAnswer
	sum, err := references.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := sim.Server.Stats(); st.Errors != 0 || st.Requests != st.Served {
		t.Fatalf("server stats: %d requests, %d served, %d errors; some requests were refused", st.Requests, st.Served, st.Errors)
	}
	if sum.Accepted == 0 || sum.Attempts-10 != int(sim.Server.Stats().Requests-asked) {
		t.Fatalf("%+v after %d new requests: the first round's replies were asked again", sum, sim.Server.Stats().Requests-asked)
	}
	for _, rows := range readDerivations(t, data) {
		for _, r := range rows {
			if r.Derivation != string(study.FromAnswer) || r.Grader != string(study.MathVerify) {
				t.Fatalf("%s attempt %d: derivation %q, grader %q", r.ProblemID, r.Attempt, r.Derivation, r.Grader)
			}
		}
	}
	for id, tr := range referenceTraces(t, data) {
		type sampling struct {
			Temperature, TopP, RepetitionPenalty *float64
			TopK, MaxTokens                      *int64
		}
		budget := int64(llm.ReasoningBudget) // its budget counts its reasoning
		if diff := cmp.Diff(sampling{MaxTokens: &budget}, sampling{tr.Temperature, tr.TopP, tr.RepetitionPenalty, tr.TopK, tr.MaxTokens}); diff != "" {
			t.Fatalf("%s records sampling other than what was sent (-sent +recorded):\n%s", id, diff)
		}
		if tr.ServedModel != "gpt-5.4-2026-01-01" || tr.Model != "gpt-5.4" {
			t.Fatalf("%s: model %q served as %q", id, tr.Model, tr.ServedModel)
		}
	}
}
