package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/transforms"
	"golang.org/x/sync/errgroup"
)

// fastOptions keep failure tests quick.
func fastOptions() llm.Options {
	o := llm.DefaultOptions()
	o.BackoffBase, o.BackoffMax = time.Millisecond, 20*time.Millisecond
	o.CooldownBase, o.CooldownMax = 50*time.Millisecond, 200*time.Millisecond
	o.Patience = 2 * time.Second
	o.RequestTimeout = 10 * time.Second
	o.MaxAttempts = 12
	return o
}

func simConfig() simulate.Config {
	c := simulate.DefaultConfig()
	c.Latency = time.Millisecond
	return c
}

func start(t *testing.T, cfgs ...simulate.Config) []*simulate.Endpoint {
	t.Helper()
	eps, _ := simulatetest.Start(t, "", cfgs...)
	return eps
}

// answeredAtOnce sends req and checks that its first attempt answered it.
func answeredAtOnce(t *testing.T, name string, pool *llm.Pool, req llm.Request) llm.Response {
	t.Helper()
	resp, err := pool.Do(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if resp.Attempts != 1 {
		t.Fatalf("%s took %d attempts, want 1", name, resp.Attempts)
	}
	return resp
}

func swahiliRequest(i int) llm.Request {
	sw, _ := prompts.Lookup("sw")
	seed := int64(42)
	return llm.Request{
		API:   llm.APICompletions,
		Model: "Qwen/Qwen3-4B",
		Prompt: transforms.RenderQwen3(transforms.Conversation{
			System: sw.System, User: "Swali namba " + string(rune('A'+i%26)) + strings.Repeat("?", i), Prefix: sw.Prefix}),
		MaxTokens: 512, Temperature: 0.6, TopP: 0.95, Seed: &seed,
		Extra: map[string]any{"repetition_penalty": 1.08, "return_token_ids": true},
	}
}

// recorder wraps a handler and keeps the request bodies it saw (the POSTs).
type recorder struct {
	mu     sync.Mutex
	bodies []map[string]any
	next   http.Handler
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	if len(b) > 0 { // not a GET (/version, /v1/models)
		var m map[string]any
		json.Unmarshal(b, &m)
		r.mu.Lock()
		r.bodies = append(r.bodies, m)
		r.mu.Unlock()
	}
	req.Body = io.NopCloser(strings.NewReader(string(b)))
	r.next.ServeHTTP(w, req)
}

func TestExtraFieldsReachServer(t *testing.T) {
	srv, err := simulate.NewServer(simConfig())
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{next: srv}
	ts := httptest.NewServer(rec)
	defer ts.Close()
	p, err := llm.NewPool([]string{ts.URL}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Do(context.Background(), swahiliRequest(0))
	if err != nil {
		t.Fatal(err)
	}
	body := rec.bodies[0]
	want := map[string]any{"repetition_penalty": 1.08, "seed": 42.0, "return_token_ids": true, "max_tokens": 512.0}
	got := map[string]any{}
	for k := range want {
		got[k] = body[k]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the server saw (-want +got):\n%s", diff)
	}
	if temp, ok := body["temperature"].(float64); !ok || temp < 0.59 {
		t.Fatalf("the server saw temperature %v, want the request's 0.6", body["temperature"])
	}
	if resp.CompletionTokens == 0 {
		t.Fatal("response without completion tokens")
	}
	if len(resp.TokenIDs) != resp.CompletionTokens {
		t.Fatalf("response: %d token ids for %d completion tokens", len(resp.TokenIDs), resp.CompletionTokens)
	}
	if resp.FinishReason == "" {
		t.Fatal("response without a finish reason")
	}
	if !strings.Contains(resp.Text, " ") {
		t.Fatalf("response text %q, want words", resp.Text)
	}
	type answered struct {
		Attempts int
		Endpoint string
	}
	if diff := cmp.Diff(answered{1, ts.URL}, answered{resp.Attempts, resp.Endpoint}); diff != "" {
		t.Fatalf("response (-want +got):\n%s", diff)
	}
}

func TestZeroTemperatureIsSent(t *testing.T) {
	srv, _ := simulate.NewServer(simConfig())
	rec := &recorder{next: srv}
	ts := httptest.NewServer(rec)
	defer ts.Close()
	p, _ := llm.NewPool([]string{ts.URL + "/v1/"}, fastOptions())
	req := swahiliRequest(0)
	req.Temperature = 0
	if _, err := p.Do(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if v, ok := rec.bodies[0]["temperature"]; !ok || v != 0.0 {
		t.Fatalf("temperature sent as %v (present %v); greedy decoding needs an explicit 0", v, ok)
	}
}

func TestRetriesAroundDeadAndFaultyEndpoints(t *testing.T) {
	faulty := simConfig()
	faulty.Faults = simulate.Faults{ErrorRate: 0.3, DropRate: 0.1, MalformedRate: 0.1}
	eps := start(t, simConfig(), faulty)
	dead, _ := simulate.DeadURL()
	o := fastOptions()
	o.SlotsPerEndpoint = 4
	p, err := llm.NewPool([]string{dead, eps[0].URL, eps[1].URL}, o)
	if err != nil {
		t.Fatal(err)
	}
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(16)
	for i := 0; i < 300; i++ {
		g.Go(func() error {
			_, err := p.Do(ctx, swahiliRequest(i))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("a request failed although one endpoint is healthy: %v", err)
	}
	fs := eps[1].Server.Stats()
	if fs.Errors+fs.Dropped+fs.Malformed == 0 {
		t.Fatal("the faulty endpoint injected no fault")
	}
	if p.Retries() == 0 {
		t.Fatalf("no retry after %d errors, %d dropped and %d malformed replies", fs.Errors, fs.Dropped, fs.Malformed)
	}
	for i, e := range eps {
		if st := e.Server.Stats(); st.MaxInFlight > 4 {
			t.Errorf("endpoint %d had %d requests in flight, limit 4", i, st.MaxInFlight)
		}
	}
	status := p.Status()
	if status[0].Up {
		t.Errorf("the dead endpoint is still in rotation: %+v", status[0])
	}
	if status[0].Requests > 30 {
		t.Errorf("the dead endpoint was tried %d times, want at most 30", status[0].Requests)
	}
}

func TestNoEndpointAnswers(t *testing.T) {
	a, _ := simulate.DeadURL()
	b, _ := simulate.DeadURL()
	p, _ := llm.NewPool([]string{a, b}, fastOptions())
	start := time.Now()
	_, err := p.Do(context.Background(), swahiliRequest(0))
	if !errors.Is(err, llm.ErrNoEndpoint) {
		t.Fatalf("got %v, want ErrNoEndpoint", err)
	}
	if !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "refused") {
		t.Errorf("error does not say which endpoints failed and why: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v to give up on endpoints that never answered", time.Since(start))
	}
}

func TestAuthFailureIsFatalAndKeyNeverShown(t *testing.T) {
	cfg := simConfig()
	cfg.RequireKey = "right-key"
	eps := start(t, cfg)
	o := fastOptions()
	o.APIKey = "sk-secret-wrong-key"
	p, _ := llm.NewPool([]string{eps[0].URL}, o)
	_, err := p.Do(context.Background(), swahiliRequest(0))
	if !errors.Is(err, llm.ErrFatal) {
		t.Fatalf("got %v, want ErrFatal", err)
	}
	if strings.Contains(err.Error(), o.APIKey) {
		t.Fatalf("the API key leaked into an error: %v", err)
	}
	o.APIKey = "right-key"
	p, _ = llm.NewPool([]string{eps[0].URL}, o)
	if _, err := p.Do(context.Background(), swahiliRequest(0)); err != nil {
		t.Fatalf("right key refused: %v", err)
	}
}

func TestRejectedRequest(t *testing.T) {
	eps := start(t, simConfig())
	p, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	req := swahiliRequest(0)
	req.API = llm.APIChat // no messages: the server answers 400
	_, err := p.Do(context.Background(), req)
	if !errors.Is(err, llm.ErrRejected) {
		t.Fatalf("got %v, want ErrRejected", err)
	}
}

func TestChatReasoningField(t *testing.T) {
	cfg := simConfig()
	cfg.ReasoningField = true
	eps := start(t, cfg)
	p, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	sw, _ := prompts.Lookup("sw")
	resp, err := p.Do(context.Background(), llm.Request{
		API: llm.APIChat, Model: "Qwen/Qwen3-8B", MaxTokens: 2048, Temperature: 0.6, TopP: 0.95,
		Messages: []llm.Message{{Role: "system", Content: sw.System}, {Role: "user", Content: "1+1?"},
			{Role: "assistant", Content: "<think>\n" + sw.Prefix}},
		Extra: map[string]any{"continue_final_message": true, "add_generation_prompt": false},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Reasoning == "" || strings.Contains(resp.Text, "</think>") {
		t.Fatalf("reasoning %q, content %q", resp.Reasoning, resp.Text)
	}
}

func TestCanceled(t *testing.T) {
	cfg := simConfig()
	cfg.Latency = 5 * time.Second
	eps := start(t, cfg)
	p, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Do(ctx, swahiliRequest(0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's error", err)
	}
}

func TestBadEndpointURLs(t *testing.T) {
	for _, u := range []string{"ftp://x", "localhost:8000", "http://user:pw@host:1/v1"} {
		if _, err := llm.NewPool([]string{u}, llm.DefaultOptions()); err == nil {
			t.Errorf("%s accepted", u)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("credentials in error: %v", err)
		}
	}
	if _, err := llm.NewPool([]string{"http://a:1", "http://a:1/v1"}, llm.DefaultOptions()); err == nil {
		t.Error("the same endpoint twice accepted")
	}
}

// switchable answers 503 while broken is set and passes requests on otherwise,
// recording when each request (POST: not the GET /version that asks what
// the server is) arrived.
type switchable struct {
	next   http.Handler
	broken atomic.Bool
	status int
	mu     sync.Mutex
	times  []time.Time
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		s.mu.Lock()
		s.times = append(s.times, time.Now())
		s.mu.Unlock()
	}
	if s.broken.Load() {
		if s.status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(s.status)
		io.WriteString(w, `{"error": {"message": "unavailable"}}`)
		return
	}
	s.next.ServeHTTP(w, r)
}

func newSwitchable(t *testing.T, status int) (*switchable, string) {
	srv, err := simulate.NewServer(simConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := &switchable{next: srv, status: status}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL
}

func TestEndpointRejoinsAfterCooldown(t *testing.T) {
	flaky, flakyURL := newSwitchable(t, http.StatusServiceUnavailable)
	_, steadyURL := newSwitchable(t, http.StatusServiceUnavailable)
	flaky.broken.Store(true)
	p, err := llm.NewPool([]string{flakyURL, steadyURL}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if _, err := p.Do(context.Background(), swahiliRequest(i)); err != nil {
			t.Fatal(err)
		}
	}
	if p.Status()[0].Up {
		t.Fatal("an endpoint answering 503 stayed in rotation")
	}
	flaky.broken.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for !p.Status()[0].Up && time.Now().Before(deadline) {
		// Keep both busy so the recovered endpoint gets its probe.
		var wg sync.WaitGroup
		for i := 0; i < 40; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); p.Do(context.Background(), swahiliRequest(i)) }()
		}
		wg.Wait()
	}
	if !p.Status()[0].Up {
		t.Fatal("the endpoint did not rejoin after it recovered")
	}
}

func TestRetryAfterIsRespected(t *testing.T) {
	busy, url := newSwitchable(t, http.StatusTooManyRequests)
	busy.broken.Store(true)
	o := fastOptions()
	o.BackoffMax = 5 * time.Second
	p, _ := llm.NewPool([]string{url}, o)
	go func() {
		time.Sleep(100 * time.Millisecond)
		busy.broken.Store(false)
	}()
	if _, err := p.Do(context.Background(), swahiliRequest(0)); err != nil {
		t.Fatal(err)
	}
	busy.mu.Lock()
	defer busy.mu.Unlock()
	if len(busy.times) != 2 || busy.times[1].Sub(busy.times[0]) < 900*time.Millisecond {
		t.Fatalf("%d attempts; the retry came %v after a 429 with Retry-After: 1", len(busy.times), busy.times[len(busy.times)-1].Sub(busy.times[0]))
	}
}

func TestBackoffIsCapped(t *testing.T) {
	down, url := newSwitchable(t, http.StatusInternalServerError)
	down.broken.Store(true)
	o := fastOptions()
	o.BackoffBase, o.BackoffMax = 10*time.Millisecond, 40*time.Millisecond
	o.MaxAttempts, o.FailThreshold = 8, 100 // keep the endpoint in rotation
	p, _ := llm.NewPool([]string{url}, o)
	_, err := p.Do(context.Background(), swahiliRequest(0))
	if !errors.Is(err, llm.ErrGaveUp) {
		t.Fatalf("got %v, want ErrGaveUp", err)
	}
	down.mu.Lock()
	defer down.mu.Unlock()
	if len(down.times) != 8 {
		t.Fatalf("%d attempts, want 8", len(down.times))
	}
	for i := 1; i < len(down.times); i++ {
		if gap := down.times[i].Sub(down.times[i-1]); gap > 500*time.Millisecond {
			t.Fatalf("pause %d was %v; the cap is 40ms", i, gap)
		}
	}
}

func TestPatienceRunsOutMidRun(t *testing.T) {
	dying, url := newSwitchable(t, http.StatusServiceUnavailable)
	o := fastOptions()
	o.Patience = 300 * time.Millisecond
	o.MaxAttempts = 1000
	p, _ := llm.NewPool([]string{url}, o)
	if _, err := p.Do(context.Background(), swahiliRequest(0)); err != nil {
		t.Fatal(err)
	}
	dying.broken.Store(true)
	start := time.Now()
	_, err := p.Do(context.Background(), swahiliRequest(1))
	if !errors.Is(err, llm.ErrNoEndpoint) {
		t.Fatalf("got %v, want ErrNoEndpoint", err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Fatalf("gave up after %v, before the patience of 300ms", waited)
	}
}

// dropsFirst hangs up on its first n requests at once and serves the rest
// after a delay: the faults come back before any answer does.
type dropsFirst struct {
	n     atomic.Int64
	delay time.Duration
	next  http.Handler
}

func (d *dropsFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.n.Add(-1) >= 0 {
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			c.Close()
		}
		return
	}
	time.Sleep(d.delay)
	d.next.ServeHTTP(w, r)
}

// An endpoint whose first replies are all faults, while its other requests
// are still under way, is not given up as one that never answered: those
// requests may yet succeed (a faulty server's errors come back faster than
// its answers).
func TestFaultsBeforeFirstAnswerWithRequestsInFlight(t *testing.T) {
	srv, err := simulate.NewServer(simConfig())
	if err != nil {
		t.Fatal(err)
	}
	h := &dropsFirst{delay: 200 * time.Millisecond, next: srv}
	h.n.Store(4)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	o := fastOptions()
	o.SlotsPerEndpoint = 8
	p, err := llm.NewPool([]string{ts.URL}, o)
	if err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	for i := 0; i < 8; i++ {
		g.Go(func() error {
			_, err := p.Do(context.Background(), swahiliRequest(i))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// A request that prefers an endpoint goes there while it has room, and
// anywhere once it has none; the preference is not part of the key.
func TestPreferredEndpoint(t *testing.T) {
	eps := start(t, simConfig(), simConfig())
	o := fastOptions()
	o.SlotsPerEndpoint = 2
	p, err := llm.NewPool([]string{eps[0].URL, eps[1].URL}, o)
	if err != nil {
		t.Fatal(err)
	}
	// Responses name their endpoint as a continuation would prefer it.
	second := strings.TrimSuffix(p.Status()[1].URL, "/v1")
	for i := 0; i < 6; i++ {
		req := swahiliRequest(i)
		req.Prefer = second
		resp, err := p.Do(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Endpoint != second {
			t.Fatalf("request %d went to %s, not the preferred %s", i, resp.Endpoint, second)
		}
		if req.Key() != swahiliRequest(i).Key() {
			t.Fatal("the preference changed the request's key")
		}
	}
	// Six at once: the preferred endpoint has two slots, the rest go elsewhere.
	var g errgroup.Group
	var elsewhere atomic.Int64
	for i := 0; i < 6; i++ {
		g.Go(func() error {
			req := swahiliRequest(100 + i)
			req.Prefer = second
			resp, err := p.Do(context.Background(), req)
			if resp.Endpoint != second {
				elsewhere.Add(1)
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if elsewhere.Load() == 0 {
		t.Fatal("a full preferred endpoint held requests back instead of sharing them out")
	}
}
