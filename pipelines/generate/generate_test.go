package generate

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func endpoints(t testing.TB, data string, cfgs ...simulate.Config) ([]*simulate.Endpoint, []string) {
	t.Helper()
	return simulatetest.Start(t, data, cfgs...)
}

func smallStudy() Study {
	s := DefaultStudy()
	s.Models = []string{"Qwen/Qwen3-4B"}
	s.Langs = []string{"en", "sw", "zh"}
	s.Levels = []string{"low", "medium"}
	s.Limit = 3
	return s
}

func served(eps []*simulate.Endpoint) (total int64, dup int) {
	servers := make([]*simulate.Server, len(eps))
	for i, e := range eps {
		servers[i] = e.Server
	}
	return pipelinetest.Served(servers...)
}

func TestGenerateWritesOneTracePerJob(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	eps, urls := endpoints(t, data, simulate.DefaultConfig(), simulate.DefaultConfig())
	cfg := Config{Data: data, Study: smallStudy(), Endpoints: urls, Pool: pipelinetest.QuickPool()}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// per level: 3 problems x (en-en + 2 x (en-x, x-en, x-x)) = 3 x 7
	const jobs = 2 * 3 * 7
	if diff := summaryDiff(Summary{Jobs: jobs, New: jobs}, res); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	rows, err := store.ReadAll(data, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != res.Jobs {
		t.Fatalf("%d rows, want %d", len(rows), res.Jobs)
	}
	dirs := map[string]int{}
	ids := map[string]bool{}
	for _, r := range rows {
		dirs[r.Direction]++
		ids[r.TraceID] = true
		lang, _ := prompts.Lookup(r.ReasoningLang)
		if !strings.HasPrefix(r.Text, transforms.ThinkOpen+lang.Prefix) || r.Prefix != lang.Prefix {
			t.Fatalf("trace %s does not start with the %s prefix: %q", r.TraceID, r.ReasoningLang, r.Text[:40])
		}
		if r.RequestKey == "" {
			t.Fatalf("trace %s: no request_key", r.TraceID)
		}
		if r.CompletionTokens <= 0 {
			t.Fatalf("trace %s: completion_tokens %d", r.TraceID, r.CompletionTokens)
		}
		if r.FinishReason == "" {
			t.Fatalf("trace %s: no finish_reason", r.TraceID)
		}
		// Its identity and the sampling as sent, every field of it.
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"method", r.Method, "base"},
			{"seed", r.Seed, int64(42)},
			{"source", r.Source, "generate"},
			{"max_tokens", deref(r.MaxTokens), int64(cfg.Study.Budgets[r.Level])},
			{"temperature", deref(r.Temperature), 0.6},
			{"top_p", deref(r.TopP), 0.95},
			{"top_k", deref(r.TopK), int64(cfg.Study.TopK)},
			{"repetition_penalty", deref(r.RepetitionPenalty), cfg.Study.RepetitionPenalty},
			{"served_model", r.ServedModel, r.Model},
		} {
			if f.got != f.want {
				t.Fatalf("trace %s: %s %v, want %v", r.TraceID, f.name, f.got, f.want)
			}
		}
		if want, _ := study.DirectionOf(r.InputLang, r.ReasoningLang); string(want) != r.Direction {
			t.Fatalf("direction %s for %s->%s", r.Direction, r.InputLang, r.ReasoningLang)
		}
		if r.Truncated != (r.FinishReason == "length") {
			t.Fatalf("truncated %v with finish %s", r.Truncated, r.FinishReason)
		}
	}
	if len(ids) != len(rows) {
		t.Fatalf("%d distinct trace ids in %d rows", len(ids), len(rows))
	}
	if diff := cmp.Diff(map[string]int{"en-en": 6, "en-x": 12, "x-en": 12, "x-x": 12}, dirs); diff != "" {
		t.Fatalf("traces by direction (-want +got):\n%s", diff)
	}
	md, _ := store.FileMeta(store.FilePath(data, schema.Traces.Table))
	if got := md[store.MetaStage]; got != "generate" {
		t.Fatalf("metadata stage %q, want generate", got)
	}
	if got, want := md[store.MetaConfigHash], store.HashConfig(cfg.Study); got != want {
		t.Fatalf("metadata config hash %q, want %q", got, want)
	}

	// A rerun sends nothing and rewrites the same table.
	before, _ := served(eps)
	res, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := served(eps); after != before {
		t.Fatalf("rerun sent %d requests", after-before)
	}
	if diff := summaryDiff(Summary{Jobs: jobs, Resumed: jobs}, res); diff != "" {
		t.Fatalf("rerun summary (-want +got):\n%s", diff)
	}
	again, _ := store.ReadAll(data, schema.Traces)
	if len(again) != len(rows) {
		t.Fatalf("rerun changed the table: %d rows", len(again))
	}

	// Growing the study adds traces and keeps the others.
	cfg.Study.Seeds = []int64{42, 215}
	if res, err = Run(context.Background(), cfg); err != nil {
		t.Fatalf("second seed: %v", err)
	}
	if diff := summaryDiff(Summary{Jobs: 2 * jobs, New: jobs, Resumed: jobs}, res); diff != "" {
		t.Fatalf("second seed summary (-want +got):\n%s", diff)
	}
	if n, _ := store.NumRows(data, schema.Traces.Table); n != int64(2*len(rows)) {
		t.Fatalf("%d rows after adding a seed, want %d", n, 2*len(rows))
	}
}

func TestResumeAfterCancelSendsOnlyUnfinished(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	slow := simulate.DefaultConfig()
	slow.Latency = 5 * time.Millisecond
	eps, urls := endpoints(t, data, slow, slow)
	study := smallStudy()
	study.Limit = 5
	study.SlotsPerEndpoint = 4
	cfg := Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if total, _ := served(eps); total >= 30 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err := Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if store.Exists(data, schema.Traces.Table) {
		t.Fatal("an interrupted run wrote the traces table")
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, dup := served(eps)
	if res.Resumed < 20 || dup > 2*study.SlotsPerEndpoint {
		t.Fatalf("resumed %d, re-sent %d (at most %d were in flight)", res.Resumed, dup, 2*study.SlotsPerEndpoint)
	}
	if n, _ := store.NumRows(data, schema.Traces.Table); n != int64(res.Jobs) {
		t.Fatalf("%d rows, want %d", n, res.Jobs)
	}
}

func TestMissingProblems(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	_, urls := endpoints(t, data, simulate.DefaultConfig())
	study := smallStudy()
	study.Levels = []string{"top"}
	_, err := Run(context.Background(), Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()})
	if !errors.Is(err, ErrMissingProblem) {
		t.Fatalf("got %v, want ErrMissingProblem", err)
	}
}

func TestRejectedRequestsFailTheRunUnlessKeepGoing(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim, err := simulate.NewServer(func() simulate.Config { c := simulate.DefaultConfig(); c.Data = data; return c }())
	if err != nil {
		t.Fatal(err)
	}
	// The English question of low-0 only appears in en-en and en-x prompts.
	problems, _ := store.ReadAll(data, schema.Problems)
	var q string
	for _, p := range problems {
		if p.Lang == "en" && p.ProblemID == "low-0" {
			q = p.Question
		}
	}
	h := &pipelinetest.Rejecting{Next: sim, Marker: q[:20], Message: "prompt too long"}
	ts := httptest.NewServer(h)
	defer ts.Close()
	study := smallStudy()
	cfg := Config{Data: data, Study: study, Endpoints: []string{ts.URL}, Pool: pipelinetest.QuickPool()}
	res, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrFailedRequests) {
		t.Fatalf("got %v, want ErrFailedRequests", err)
	}
	const jobs = 2 * 3 * 7
	if diff := summaryDiff(Summary{Jobs: jobs, New: jobs - 3, Failed: 3}, res); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if n := h.Count(); n != 3 {
		t.Errorf("%d requests rejected, want 3", n)
	}
	if store.Exists(data, schema.Traces.Table) {
		t.Error("a failed run wrote the traces table")
	}
	if !strings.Contains(err.Error(), "prompt too long") {
		t.Errorf("error %q does not give the server's reason", err)
	}
	// The error says what would write the traces that finished, by the
	// Config's field (the command line shows it as --keep-going).
	if got := fieldNames(err); !slices.Equal(got, []string{"KeepGoing"}) {
		t.Errorf("fields named %q, want KeepGoing", got)
	}
	cfg.KeepGoing = true
	res, err = Run(context.Background(), cfg)
	if !errors.Is(err, ErrFailedRequests) {
		t.Fatalf("keep-going: got %v, want ErrFailedRequests", err)
	}
	if diff := summaryDiff(Summary{Jobs: jobs, Resumed: jobs - 3, Failed: 3}, res); diff != "" {
		t.Errorf("keep-going summary (-want +got):\n%s", diff)
	}
	if n, _ := store.NumRows(data, schema.Traces.Table); n != int64(res.Jobs-3) {
		t.Fatalf("keep-going wrote %d rows, want %d", n, res.Jobs-3)
	}
}

// Over the chat API through a reasoning parser (vLLM's split, under
// either of its field names), the traces are byte-identical to the
// completions API's: the reasoning and content are put back together as
// the parser split them, content null included.
func TestChatThroughAReasoningParserEqualsCompletions(t *testing.T) {
	texts := func(api, key string) map[string]string {
		data := pipelinetest.DemoRun(t)
		sim := simulate.DefaultConfig()
		sim.TrustRequestChatTemplate = true
		sim.ReasoningField, sim.ReasoningKey = api == "chat", key
		_, urls := endpoints(t, data, sim)
		study := smallStudy()
		study.API, study.Limit = api, 2
		if _, err := Run(context.Background(), Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()}); err != nil {
			t.Fatal(err)
		}
		rows, _ := store.ReadAll(data, schema.Traces)
		out := map[string]string{}
		for _, r := range rows {
			out[r.TraceID] = r.Text
		}
		return out
	}
	completions := texts("completions", "")
	closed := 0
	for _, text := range completions {
		if strings.Contains(text, transforms.ThinkClose) {
			closed++
		}
	}
	if closed == 0 || closed == len(completions) {
		t.Fatalf("%d of %d traces close their reasoning: both kinds are needed", closed, len(completions))
	}
	for _, key := range []string{"reasoning", "reasoning_content"} {
		chat := texts("chat", key)
		if len(chat) != len(completions) {
			t.Fatalf("%s: %d chat traces, %d completions traces", key, len(chat), len(completions))
		}
		for id, text := range completions {
			if chat[id] != text {
				t.Fatalf("%s: trace %s differs between the APIs:\nchat        %q\ncompletions %q", key, id, tail(chat[id]), tail(text))
			}
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-80):] }

// A vLLM server started without --trust-request-chat-template refuses the
// template every chat request carries: the run stops at once, saying how
// to start the server, instead of failing request by request.
func TestChatToAnUntrustingServerStopsWithTheFix(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := simulate.DefaultConfig()
	_, urls := endpoints(t, data, sim)
	study := smallStudy()
	study.API, study.Limit = "chat", 1
	_, err := Run(context.Background(), Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()})
	if !errors.Is(err, llm.ErrUntrustedTemplate) || !errors.Is(err, llm.ErrFatal) || !strings.Contains(err.Error(), "--trust-request-chat-template") {
		t.Fatalf("got %v", err)
	}
}

func TestNoLiveEndpoint(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	dead, _ := simulate.DeadURL()
	start := time.Now()
	_, err := Run(context.Background(), Config{Data: data, Study: smallStudy(), Endpoints: []string{dead}, Pool: pipelinetest.QuickPool()})
	if !errors.Is(err, llm.ErrNoEndpoint) || time.Since(start) > 10*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(start))
	}
}

func TestStudyValidation(t *testing.T) {
	s := DefaultStudy()
	if err := s.Validate(); err != nil {
		t.Fatalf("the paper's study is invalid: %v", err)
	}
	// study.json as the paper ran it (appendix A).
	paper := Study{
		Models:            []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"},
		Directions:        study.Strings(study.Directions...),
		Langs:             []string{"en", "fr", "ru", "zh", "ja", "ko", "id", "ms", "th", "bn", "sw", "te"},
		Levels:            []string{"low", "medium", "high"},
		Seeds:             []int64{42},
		Temperature:       0.6,
		TopP:              0.95,
		RepetitionPenalty: 1.0,
		TopK:              20,
		Budgets:           map[string]int{"low": 4096, "medium": 8192, "high": 16384, "top": 16384},
		API:               "completions",
		SlotsPerEndpoint:  16,
	}
	if diff := cmp.Diff(paper, s); diff != "" {
		t.Fatalf("study.json drifted from the paper (-paper +study.json):\n%s", diff)
	}
	s.Langs = append(s.Langs, "xx")
	s.Directions = []string{"en-y"}
	s.Levels = []string{"hard"}
	err := s.Validate()
	for _, want := range []string{`Langs: `, `"xx"`, `Directions: unknown direction "en-y"`, `Levels: unknown level "hard"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validation error %v does not say %s", err, want)
		}
	}
}

// Validate names the Config's fields (and its Study's, as Study.X), never
// a command line's flags: a library caller has none.
func TestValidateNamesConfigFields(t *testing.T) {
	s := DefaultStudy()
	s.Models, s.Seeds, s.Limit, s.API = nil, []int64{42, 42}, -1, "rest"
	err := Config{Study: s, Pool: llm.DefaultOptions()}.Validate()
	if !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("got %v, want an invalid configuration", err)
	}
	want := []string{"Data", "Endpoints", "Study.Models", "Study.Seeds", "Study.API", "Study.Limit"}
	got := fieldNames(err)
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields named (-want +got):\n%s", diff)
	}
	for _, flag := range []string{"--", "pass "} {
		if strings.Contains(err.Error(), flag) {
			t.Errorf("error %q speaks of flags (%q)", err, flag)
		}
	}
}

// summaryDiff compares run summaries but for the tokens decoded, which
// depend on the simulated samples.
func summaryDiff(want, got Summary) string {
	return cmp.Diff(want, got, cmpopts.IgnoreFields(Summary{}, "Tokens"))
}

// fieldNames are the Config fields err names.
func fieldNames(err error) []string {
	var out []string
	for _, fe := range inputerr.Fields(err) {
		out = append(out, fe.Field)
	}
	return out
}

// deref is *p, or nil when p is nil (a NULL column).
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// A server whose context cannot hold the plan's longest request is found
// before anything is sent (vLLM would refuse every such request), as is
// one that does not serve the study's model.
func TestPlanThatCannotFitIsRefusedBeforeSending(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := simulate.DefaultConfig()
	sim.MaxModelLen = 8192 + PromptMargin - 1 // the medium budget and its margin do not fit
	servers, urls := endpoints(t, data, sim)
	_, err := Run(context.Background(), Config{Data: data, Study: smallStudy(), Endpoints: urls, Pool: pipelinetest.QuickPool()})
	if !errors.Is(err, llm.ErrContextTooShort) || !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "--max-model-len 10240") {
		t.Fatalf("got %v", err)
	}
	study := smallStudy()
	study.Models = []string{"Qwen/Qwen3-32B"}
	_, err = Run(context.Background(), Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()})
	if !errors.Is(err, llm.ErrModelNotServed) {
		t.Fatalf("got %v", err)
	}
	if n := servers[0].Server.Stats().Requests; n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	// With room for the budget and the margin, the same plan runs.
	sim.MaxModelLen = 8192 + PromptMargin
	_, urls = endpoints(t, data, sim)
	if _, err := Run(context.Background(), Config{Data: data, Study: smallStudy(), Endpoints: urls, Pool: pipelinetest.QuickPool()}); err != nil {
		t.Fatal(err)
	}
}
