package control_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/pipelines/control"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// sim is a simulated endpoint whose requests are recorded.
type sim struct {
	URL    string
	Server *simulate.Server
	mu     sync.Mutex
	bodies []map[string]any
	// edit, when set, rewrites each response body.
	edit func([]byte) []byte
}

func (s *sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	s.mu.Lock()
	if r.Method == http.MethodPost { // not the probe's GET /v1/models and /version
		s.bodies = append(s.bodies, m)
	}
	edit := s.edit
	s.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(b))
	if edit == nil {
		s.Server.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	s.Server.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(edit(rec.Body.Bytes()))
}

// setEdit changes how responses are rewritten; requests of an earlier run
// may still be in flight.
func (s *sim) setEdit(edit func([]byte) []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.edit = edit
}

func (s *sim) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

func startSim(t *testing.T, data string, cfg simulate.Config) *sim {
	t.Helper()
	cfg.Data = data
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &sim{Server: srv}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	s.URL = ts.URL + "/v1"
	return s
}

// config is the paper's control on the demo problems (5 per level, so 90
// examples) against the sims.
func config(data string, method study.Method, sims ...*sim) control.Config {
	cfg := control.DefaultConfig()
	cfg.Generation.Data, cfg.Method, cfg.Generation.Pool = data, method, pipelinetest.QuickPool()
	for _, s := range sims {
		cfg.Generation.Endpoints = append(cfg.Generation.Endpoints, s.URL)
	}
	return cfg
}

func run(t *testing.T, cfg control.Config) control.Summary {
	t.Helper()
	sum, err := control.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func read(t *testing.T, data string) (map[string]schema.Trace, map[string][]schema.Trial) {
	t.Helper()
	traces, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := store.ReadAll(data, schema.Trials)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]schema.Trace{}
	for _, tr := range traces {
		byID[tr.TraceID] = tr
	}
	attempts := map[string][]schema.Trial{}
	for _, a := range trials {
		attempts[a.TraceID] = append(attempts[a.TraceID], a)
	}
	return byID, attempts
}

// checkExample checks one example's attempts against the protocol: trials
// numbered from 1, every one but the last aborted by the detector at the
// checkpoint, the last accepted (forced only when it triggered as the last
// allowed), penalties 1.08 then 1.13, a new seed each time, and the trace
// made of the prefix and the accepted attempt.
func checkExample(t *testing.T, cfg control.Config, tr schema.Trace, attempts []schema.Trial) {
	t.Helper()
	budget := cfg.Generation.Study.Budgets[tr.Level]
	var reasoning []schema.Trial
	for _, a := range attempts {
		if a.Phase == "reasoning" {
			reasoning = append(reasoning, a)
		}
	}
	if len(reasoning) == 0 || len(reasoning) > cfg.MaxTrials {
		t.Fatalf("%s: %d reasoning attempts", tr.TraceID, len(reasoning))
	}
	seeds := map[int64]bool{}
	for i, a := range reasoning {
		last := i == len(reasoning)-1
		wantRP := cfg.RetryPenalty
		if i == 0 {
			wantRP = cfg.FirstPenalty
		}
		switch {
		case a.Trial != int32(i+1):
			t.Fatalf("%s: attempt %d is numbered %d", tr.TraceID, i+1, a.Trial)
		case a.RepetitionPenalty != wantRP || a.SampleSeed != control.SampleSeed(tr.Seed, i+1) || seeds[a.SampleSeed]:
			t.Fatalf("%s trial %d: penalty %v seed %d", tr.TraceID, a.Trial, a.RepetitionPenalty, a.SampleSeed)
		case a.Checkpoint != int64(budget/4):
			t.Fatalf("%s trial %d: checkpoint %d for budget %d", tr.TraceID, a.Trial, a.Checkpoint, budget)
		case !last && (!a.Aborted || !a.Trigger || !a.Checked || a.Accepted || a.AbortReason == ""):
			t.Fatalf("%s trial %d was replaced without the detector firing: %+v", tr.TraceID, a.Trial, a)
		case !last && a.CompletionTokens != a.Checkpoint:
			t.Fatalf("%s trial %d aborted after %d tokens, not at the checkpoint %d", tr.TraceID, a.Trial, a.CompletionTokens, a.Checkpoint)
		case last && (a.Aborted || !a.Accepted):
			t.Fatalf("%s: the last attempt was not accepted: %+v", tr.TraceID, a)
		case last && a.ForcedAccept != (a.Trigger && int(a.Trial) == cfg.MaxTrials):
			t.Fatalf("%s: forced accept %v with trigger %v on trial %d", tr.TraceID, a.ForcedAccept, a.Trigger, a.Trial)
		case a.Checked && a.CheckpointTokens < a.Checkpoint, !a.Checked && a.CheckpointTokens > a.Checkpoint:
			t.Fatalf("%s trial %d: checked %v after %d tokens", tr.TraceID, a.Trial, a.Checked, a.CheckpointTokens)
		case a.Checked && (a.Rep16 == nil || a.Rep32 == nil || a.TTR256 == nil):
			t.Fatalf("%s trial %d: checked without statistics", tr.TraceID, a.Trial)
		}
		seeds[a.SampleSeed] = true
	}
	accepted := reasoning[len(reasoning)-1]
	if tr.Text != transforms.ThinkOpen+tr.Prefix+accepted.Text {
		t.Fatalf("%s: the trace's text is not its prefix and accepted attempt", tr.TraceID)
	}
	if tr.TextHash != transforms.TextHash(tr.Text) {
		t.Fatalf("%s: text_hash %s is not its text's", tr.TraceID, tr.TextHash)
	}
	// The method, and the sampling of the accepted attempt as recorded.
	if !pipelinetest.CheckFields(t, "trace "+tr.TraceID,
		pipelinetest.Field("method", tr.Method, string(cfg.Method)),
		pipelinetest.Field("source", tr.Source, "control"),
		pipelinetest.Field[any]("max_tokens", deref(tr.MaxTokens), int64(budget)),
		pipelinetest.Field[any]("temperature", deref(tr.Temperature), accepted.Temperature),
		pipelinetest.Field[any]("repetition_penalty", deref(tr.RepetitionPenalty), accepted.RepetitionPenalty),
		pipelinetest.Field[any]("top_k", deref(tr.TopK), int64(cfg.Generation.Study.TopK))) {
		t.FailNow()
	}
	if tr.ServedModel == "" {
		t.Fatalf("trace %s: no served_model", tr.TraceID)
	}
}

// deref is *p, or nil when p is nil (a NULL column).
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// Loop-Retry on the paper's scope: every example follows the protocol, and
// every token the server decoded is in trials exactly once.
func TestLoopRetry(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	s := startSim(t, data, pipelinetest.SimConfig(t))
	cfg := config(data, study.LoopRetry, s)
	sum := run(t, cfg)
	traces, attempts := read(t, data)
	pipelinetest.CheckFields(t, "loop-retry",
		pipelinetest.Field("traces", len(traces), 90),
		pipelinetest.Field("examples with attempts", len(attempts), 90),
		pipelinetest.Field("summary's examples", sum.Examples, 90),
		pipelinetest.Field("summary's failed", sum.Failed, 0))
	var tokens int64
	retried, trials := 0, 0
	for id, tr := range traces {
		checkExample(t, cfg, tr, attempts[id])
		for _, a := range attempts[id] {
			tokens += int64(a.CompletionTokens)
		}
		if len(attempts[id]) > 1 {
			retried++
		}
		trials += len(attempts[id])
	}
	served := s.Server.Stats().CompletionTokens
	pipelinetest.CheckFields(t, "tokens the server decoded",
		pipelinetest.Field("in trials", tokens, served),
		pipelinetest.Field("in the summary", sum.Tokens, served))
	if retried == 0 {
		t.Fatal("no example was retried: the test shows nothing about retrying")
	}
	pipelinetest.CheckFields(t, "summary",
		pipelinetest.Field("retried", sum.Retried, retried),
		pipelinetest.Field("trials", sum.Trials, trials))
	// Each request asked for what the protocol says: the checkpoint with
	// token ids, or the rest of the budget without.
	for _, b := range s.requests() {
		_, ids := b["return_token_ids"]
		if max := int(b["max_tokens"].(float64)); ids != (max == 1024 || max == 2048 || max == 4096) {
			t.Fatalf("a request for %d tokens with return_token_ids %v", max, ids)
		}
	}
}

// A run with the same settings writes the same attempts: the samples are
// the sampling's, not the run's.
func TestDeterministic(t *testing.T) {
	rows := func(faults simulate.Faults) []string {
		data := pipelinetest.DemoRun(t)
		c := pipelinetest.SimConfig(t)
		c.Faults = faults
		run(t, config(data, study.FormulaRetry, startSim(t, data, c)))
		trials, err := store.ReadAll(data, schema.Trials)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range trials {
			a.Endpoint, a.CreatedAt = "", time.Time{}
			b, _ := json.Marshal(a)
			out = append(out, string(b))
		}
		slices.Sort(out) // rows are written as examples finish
		return out
	}
	clean := rows(simulate.Faults{})
	faulty := rows(simulate.Faults{ErrorRate: 0.1, DropRate: 0.05, MalformedRate: 0.05})
	if len(clean) != len(faulty) {
		t.Fatalf("%d attempts on a clean server, %d on a faulty one", len(clean), len(faulty))
	}
	for i := range clean {
		if clean[i] != faulty[i] {
			t.Fatalf("attempt %d differs with server faults:\n%s\n%s", i, clean[i], faulty[i])
		}
	}
}

// A continuation goes to the endpoint that wrote the attempt's beginning,
// whose prefix cache holds it.
func TestContinuationStaysOnItsEndpoint(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	a, b := startSim(t, data, c), startSim(t, data, c)
	cfg := config(data, study.LoopRetry, a, b)
	// Room for every example at once: a full endpoint sends a continuation
	// elsewhere rather than wait, which this test does not look at.
	cfg.Generation.Study.SlotsPerEndpoint = 64
	run(t, cfg)
	type head struct {
		prompt string
		seed   float64
	}
	heads := map[head]*sim{} // checkpoint request -> its server
	for _, s := range []*sim{a, b} {
		for _, r := range s.requests() {
			if _, ok := r["return_token_ids"]; ok {
				heads[head{r["prompt"].(string), r["seed"].(float64)}] = s
			}
		}
	}
	continued := 0
	for _, s := range []*sim{a, b} {
		for _, r := range s.requests() {
			if _, ok := r["return_token_ids"]; ok {
				continue
			}
			prompt := r["prompt"].(string)
			var from *sim
			for h, hs := range heads {
				if h.seed == r["seed"].(float64) && strings.HasPrefix(prompt, h.prompt) && len(h.prompt) < len(prompt) {
					from = hs
				}
			}
			if from == nil {
				t.Fatal("a continuation without its checkpoint request")
			}
			if from != s {
				t.Fatal("a continuation went to another endpoint than its beginning")
			}
			continued++
		}
	}
	if continued == 0 {
		t.Fatal("no attempt was continued past its checkpoint")
	}
}

// Formula-Retry writes the scaffold once per example, sanitized of the
// results the model gave away, and resamples only the reasoning after it.
func TestFormulaRetry(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Content.ScaffoldLeak = 1
	s := startSim(t, data, c)
	cfg := config(data, study.FormulaRetry, s)
	run(t, cfg)
	traces, attempts := read(t, data)
	retried := 0
	for id, tr := range traces {
		var scaffolds []schema.Trial
		var rest []schema.Trial
		for _, a := range attempts[id] {
			if a.Phase == "scaffold" {
				scaffolds = append(scaffolds, a)
			} else {
				rest = append(rest, a)
			}
		}
		if len(scaffolds) != 1 {
			t.Fatalf("%s: %d scaffolds, want 1", id, len(scaffolds))
		}
		pipelinetest.CheckFields(t, id+" scaffold",
			pipelinetest.Field("trial", scaffolds[0].Trial, int32(0)),
			pipelinetest.Field("accepted", scaffolds[0].Accepted, true),
			pipelinetest.Field("temperature", scaffolds[0].Temperature, 0.2))
		if len(scaffolds[0].Removed) == 0 {
			t.Fatalf("%s: a scaffold that gave the result away was not sanitized: %q", id, scaffolds[0].Text)
		}
		checkExample(t, cfg, tr, attempts[id])
		if !strings.HasPrefix(tr.Prefix, "<execution_state>\nKnown:\n-") || strings.Contains(tr.Prefix, `\boxed`) ||
			strings.Contains(strings.ToLower(tr.Prefix), "final answer") {
			t.Fatalf("%s: prefix %q", id, tr.Prefix)
		}
		if tr.CompletionTokens != rest[len(rest)-1].CompletionTokens+scaffolds[0].CompletionTokens {
			t.Fatalf("%s: %d tokens in the trace", id, tr.CompletionTokens)
		}
		if len(rest) > 1 {
			retried++
		}
	}
	if retried == 0 {
		t.Fatal("no example retried: the test shows nothing about resampling")
	}
	// One scaffold request per example, whatever the retries.
	scaffoldRequests := 0
	for _, b := range s.requests() {
		if stop, ok := b["stop"]; ok && stop != nil {
			scaffoldRequests++
		}
	}
	if scaffoldRequests != len(traces) {
		t.Fatalf("%d scaffold requests for %d examples", scaffoldRequests, len(traces))
	}
}

// The last allowed attempt is accepted even when it triggers, marked
// unhealthy, and generated to the budget.
func TestForcedAccept(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	// Every sample loops, whatever its repetition penalty.
	sw := c.Profile.Languages["sw"]
	sw.Loop, sw.WrongLanguage, sw.NoAnswer = 1, 0, 0
	c.Profile.Languages["sw"] = sw
	c.Profile.LoopLevelFactor = map[string]float64{"medium": 10}
	c.Profile.LoopOnset = nil // and loops at once, before the checkpoint
	cfg := config(data, study.LoopRetry, startSim(t, data, c))
	cfg.Generation.Study.Langs, cfg.Generation.Study.Levels, cfg.MaxTrials = []string{"sw"}, []string{"medium"}, 2
	sum := run(t, cfg)
	traces, attempts := read(t, data)
	for id, tr := range traces {
		checkExample(t, cfg, tr, attempts[id])
		last := attempts[id][len(attempts[id])-1]
		pipelinetest.CheckFields(t, id+" last attempt",
			pipelinetest.Field("forced_accept", last.ForcedAccept, true),
			pipelinetest.Field("completion_tokens", last.CompletionTokens, int64(cfg.Generation.Study.Budgets["medium"])),
			pipelinetest.Field("the trace's truncated", tr.Truncated, true))
	}
	pipelinetest.CheckFields(t, "forced accepts",
		pipelinetest.Field("traces", len(traces), 15),
		pipelinetest.Field("summary's forced", sum.Forced, 15))
}

// A server that does not return token ids cannot be controlled: the run
// says so, names the example, and writes nothing.
func TestNoTokenIDs(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	s := startSim(t, data, pipelinetest.SimConfig(t))
	s.setEdit(func(b []byte) []byte {
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			return b
		}
		if choices, ok := m["choices"].([]any); ok {
			for _, c := range choices {
				delete(c.(map[string]any), "token_ids")
			}
		}
		out, _ := json.Marshal(m)
		return out
	})
	_, err := control.Run(context.Background(), config(data, study.LoopRetry, s))
	if !errors.Is(err, control.ErrNoTokenIDs) {
		t.Fatalf("got %v, want ErrNoTokenIDs", err)
	}
	if !strings.Contains(err.Error(), "Qwen/Qwen3-4B") {
		t.Errorf("error %q does not name the example", err)
	}
	for _, tbl := range []*schema.Table{schema.Trials.Table, schema.Traces.Table} {
		if store.Exists(data, tbl) {
			t.Errorf("a failed run wrote %s", tbl.Name)
		}
	}
	// Nothing of the refused answers was journaled: against a server that
	// returns token ids, the rerun runs through.
	s.setEdit(nil)
	sum := run(t, config(data, study.LoopRetry, s))
	pipelinetest.CheckFields(t, "rerun summary", pipelinetest.Field("examples", sum.Examples, 90), pipelinetest.Field("failed", sum.Failed, 0))
}

// A configuration that cannot work is refused before anything is sent,
// and the error names the Config field at fault.
func TestInvalidConfig(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	for name, c := range map[string]struct {
		edit  func(*control.Config)
		field string
	}{
		"method":    {func(c *control.Config) { c.Method = "retry-harder" }, "Method"},
		"trials":    {func(c *control.Config) { c.MaxTrials = 0 }, "MaxTrials"},
		"endpoints": {func(c *control.Config) { c.Generation.Endpoints = nil }, "Generation.Endpoints"},
		"language":  {func(c *control.Config) { c.Generation.Study.Langs = []string{"xx"} }, "Generation.Study.Langs"},
		"budget": {func(c *control.Config) {
			c.Generation.Study.Budgets = map[string]int{"low": 4, "medium": 8192, "high": 16384}
		}, "Generation.Study.Budgets"},
	} {
		cfg := config(data, study.LoopRetry)
		cfg.Generation.Endpoints = []string{"http://127.0.0.1:1/v1"}
		c.edit(&cfg)
		_, err := control.Run(context.Background(), cfg)
		if !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("%s: got %v, want an invalid configuration", name, err)
		}
		if got := fieldNames(err); !slices.Equal(got, []string{c.field}) {
			t.Errorf("%s: fields named %q, want %q", name, got, c.field)
		}
	}
}

// Over the chat API, with the reasoning returned apart as vLLM's reasoning
// parser does, attempts are continued and put back together the same way:
// the traces are those of the completions API.
func TestChatAPIWithReasoningField(t *testing.T) {
	texts := func(api string) map[string]string {
		data := pipelinetest.DemoRun(t)
		c := pipelinetest.SimConfig(t)
		c.ReasoningField, c.TrustRequestChatTemplate = api == "chat", true
		cfg := config(data, study.LoopRetry, startSim(t, data, c))
		cfg.Generation.Study.API, cfg.Generation.Study.Levels = api, []string{"high"}
		run(t, cfg)
		traces, attempts := read(t, data)
		out := map[string]string{}
		for id, tr := range traces {
			checkExample(t, cfg, tr, attempts[id])
			out[id] = tr.Text
		}
		return out
	}
	chat, completions := texts("chat"), texts("completions")
	if len(chat) != 30 || len(chat) != len(completions) {
		t.Fatalf("%d chat traces, %d completions traces", len(chat), len(completions))
	}
	for id, text := range completions {
		if chat[id] != text {
			t.Fatalf("%s differs between the chat and completions APIs", id)
		}
	}
}

// The DATG stages apply to controlled traces unchanged: they are aligned
// when asked for by method, and only then.
func TestControlledTracesAlign(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	s := pipelinetest.StartSim(t, data, pipelinetest.SimConfig(t))
	cfg := control.DefaultConfig()
	cfg.Generation.Data, cfg.Method, cfg.Generation.Pool, cfg.Generation.Endpoints = data, study.LoopRetry, pipelinetest.QuickPool(), []string{s.URL}
	cfg.Generation.Study.Limit, cfg.Generation.Study.Seeds = 1, []int64{42}
	run(t, cfg)
	pipelinetest.References(t, data, s, 1, 2)
	pipelinetest.DAGs(t, data, s)
	acfg := align.DefaultConfig()
	acfg.Data, acfg.Symbolic, acfg.Methods = data, true, study.Strings(study.LoopRetry)
	if _, err := align.Run(context.Background(), acfg); err != nil {
		t.Fatal(err)
	}
	traces, _ := read(t, data)
	rows, err := store.ReadAll(data, schema.Alignments)
	if err != nil {
		t.Fatal(err)
	}
	aligned := map[string]bool{}
	for _, a := range rows {
		if traces[a.TraceID].Method != string(study.LoopRetry) {
			t.Fatalf("%s (%s) aligned", a.TraceID, traces[a.TraceID].Method)
		}
		aligned[a.TraceID] = true
	}
	// 3 levels x 1 problem x 2 languages x 1 seed, each to its problem's DAGs.
	if len(aligned) != 6 || len(rows) < 6 {
		t.Fatalf("%d controlled traces aligned in %d alignments", len(aligned), len(rows))
	}
}

// Issue 13: Table 3's Base is its own run. datg control --method base
// samples each example of the control study once, as Loop-Retry's first
// trial (penalty 1.08, the example's seed, the whole budget, no
// checkpoint), under method control-base: the direction probe's base
// traces of the same examples are left as they were.
func TestBase(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	s := startSim(t, data, pipelinetest.SimConfig(t))
	// The probe's traces of seed 42 of the same scope, at the study's
	// penalty.
	probe := generate.DefaultStudy()
	probe.Models, probe.Directions, probe.Langs = []string{"Qwen/Qwen3-4B"}, []string{"en-x"}, []string{"sw", "te"}
	if _, err := generate.Run(context.Background(), generate.Config{Data: data, Study: probe, Endpoints: []string{s.URL}, Pool: pipelinetest.QuickPool()}); err != nil {
		t.Fatal(err)
	}
	probeRows, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]schema.Trace{}
	for _, tr := range probeRows {
		before[tr.TraceID] = tr
	}
	cfg := config(data, study.Base, s)
	sum := run(t, cfg)
	traces, attempts := read(t, data)
	bases := 0
	for id, tr := range traces {
		switch tr.Method {
		case string(study.Base):
			pipelinetest.CheckFields(t, "the probe's trace "+id,
				pipelinetest.Field("text", tr.Text, before[id].Text),
				pipelinetest.Field[any]("repetition_penalty", deref(tr.RepetitionPenalty), probe.RepetitionPenalty))
		case string(study.ControlBase):
			bases++
			a := attempts[id]
			if len(a) != 1 {
				t.Fatalf("%s: %d attempts, want 1", id, len(a))
			}
			pipelinetest.CheckFields(t, id+" attempt",
				pipelinetest.Field("trial", a[0].Trial, int32(1)),
				pipelinetest.Field("phase", a[0].Phase, "reasoning"),
				pipelinetest.Field("repetition_penalty", a[0].RepetitionPenalty, cfg.FirstPenalty),
				pipelinetest.Field("sample_seed", a[0].SampleSeed, tr.Seed),
				pipelinetest.Field("checkpoint", a[0].Checkpoint, int64(0)),
				pipelinetest.Field("checked", a[0].Checked, false),
				pipelinetest.Field("accepted", a[0].Accepted, true),
				pipelinetest.Field("method", a[0].Method, string(study.ControlBase)))
			pipelinetest.CheckFields(t, "trace "+id,
				pipelinetest.Field[any]("repetition_penalty", deref(tr.RepetitionPenalty), cfg.FirstPenalty),
				pipelinetest.Field("completion_tokens", tr.CompletionTokens, a[0].CompletionTokens))
		default:
			t.Fatalf("%s has method %s", id, tr.Method)
		}
	}
	pipelinetest.CheckFields(t, "base",
		pipelinetest.Field("traces", bases, 90),
		pipelinetest.Field("summary's examples", sum.Examples, 90),
		pipelinetest.Field("summary's trials", sum.Trials, 90),
		pipelinetest.Field("summary's retried", sum.Retried, 0))
	// One request per example, for the whole budget, without token ids.
	for _, b := range s.requests() {
		if b["repetition_penalty"] != cfg.FirstPenalty {
			continue // the probe's
		}
		if _, ids := b["return_token_ids"]; ids {
			t.Fatal("Base asked for token ids")
		}
		if max := int(b["max_tokens"].(float64)); max != 4096 && max != 8192 && max != 16384 {
			t.Fatalf("Base asked for %d tokens, not a budget", max)
		}
	}
}
