package llm_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/simulate"
)

// recordedSim serves a simulator over loopback through a recorder of the
// request bodies.
func recordedSim(t *testing.T, cfg simulate.Config) (*recorder, string) {
	t.Helper()
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{next: srv}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return rec, ts.URL + "/v1"
}

// openAISim is the simulator speaking OpenAI's chat API (no /version).
func openAISim() simulate.Config {
	c := simConfig()
	c.Dialect, c.Version = simulate.DialectOpenAI, ""
	return c
}

func reasoningRequest(model string, maxTokens int) llm.Request {
	return llm.Request{API: llm.APIChat, Model: model, MaxTokens: maxTokens, Temperature: 0.6, TopP: 0.95,
		Messages: []llm.Message{{Role: "user", Content: "What is 3 times 4?"}}}
}

// The server kind is what the server is, not its host. An OpenAI-compatible
// API at a URL that is not api.openai.com (a gateway, Azure, a proxy: here
// the simulator's OpenAI dialect on loopback) does not answer vLLM's GET
// /version, so its reasoning model gets OpenAI's form: max_completion_tokens,
// no max_tokens, temperature or top_p. A vLLM server answers /version
// (vllm/entrypoints/openai/basic/api_router.py: {"version": ...}) and gets
// vLLM's form whatever its model is named.
func TestServerKindIsWhatTheServerIs(t *testing.T) {
	rec, url := recordedSim(t, openAISim())
	pool, err := llm.NewPool([]string{url}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Do(context.Background(), reasoningRequest("gpt-5.4", 4096)); err != nil {
		t.Fatalf("gpt-5.4 behind an OpenAI-compatible API at %s: %v", url, err)
	}
	if got := pool.Server(); got != llm.ServerOpenAI {
		t.Errorf("server kind %q, want %q", got, llm.ServerOpenAI)
	}
	body := rec.bodies[len(rec.bodies)-1]
	if body["max_completion_tokens"] != 4096.0 {
		t.Errorf("max_completion_tokens sent as %v, want 4096", body["max_completion_tokens"])
	}
	for _, k := range []string{"max_tokens", "temperature", "top_p"} {
		if v, ok := body[k]; ok {
			t.Errorf("%s sent (%v) to a reasoning model of an OpenAI-compatible API", k, v)
		}
	}

	vrec, vurl := recordedSim(t, simConfig())
	vpool, err := llm.NewPool([]string{vurl}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vpool.Do(context.Background(), reasoningRequest("gpt-5.4", 512)); err != nil {
		t.Fatalf("a vLLM server serving a model named gpt-5.4: %v", err)
	}
	if got := vpool.Server(); got != llm.ServerVLLM {
		t.Errorf("server kind %q, want %q", got, llm.ServerVLLM)
	}
	vbody := vrec.bodies[len(vrec.bodies)-1]
	if vbody["max_tokens"] != 512.0 || vbody["temperature"] != 0.6 {
		t.Errorf("vLLM got max_tokens %v and temperature %v, want 512 and 0.6", vbody["max_tokens"], vbody["temperature"])
	}
}

// Endpoints that all fail to answer GET /version at all (not started yet,
// or down) cannot say what they are: a reasoning model's request takes
// OpenAI's form, any other vLLM's, and the pool says so.
func TestServerKindOfUnreachableEndpointsFollowsTheModel(t *testing.T) {
	o := fastOptions()
	var notices []string
	o.Logf = func(format string, args ...any) { notices = append(notices, format) }
	pool, err := llm.NewPool([]string{"http://127.0.0.1:1/v1"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := pool.DecideServer(context.Background()); err != nil {
		t.Fatal(err)
	}
	for model, wire := range map[string]string{"gpt-5.4": llm.WireReasoning, "o3-mini": llm.WireReasoning, "Qwen/Qwen3-4B": llm.WireSampling} {
		req, err := pool.Shape(reasoningRequest(model, 100))
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		if req.Wire != wire {
			t.Errorf("%s: wire form %q, want %q", model, req.Wire, wire)
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "--server") {
		t.Errorf("notices %q, want one naming --server", notices)
	}
}

// Endpoints of two kinds (one answers /version, one does not) cannot share
// one form: a configuration error naming both, before anything is sent.
func TestMixedServerKindsAreRefused(t *testing.T) {
	vllm := start(t, simConfig())[0]
	rec, openai := recordedSim(t, openAISim())
	pool, err := llm.NewPool([]string{vllm.URL, openai}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	_, err = pool.Do(context.Background(), reasoningRequest("gpt-5.4", 100))
	if !errors.Is(err, llm.ErrMixedServers) || !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("got %v, want ErrMixedServers", err)
	}
	for _, want := range []string{strings.TrimSuffix(vllm.URL, "/v1"), strings.TrimSuffix(openai, "/v1"), "--server"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q: %v", want, err)
		}
	}
	if len(rec.bodies) != 0 || vllm.Server.Stats().Requests != 0 {
		t.Fatal("a request was sent")
	}
}

// A 400 that refuses the request's form (OpenAI's "Use
// 'max_completion_tokens'", an unsupported parameter or value, a field it
// does not know) would refuse every request of the run: the fan-out ends at
// once, fatally, naming --server as the fix, instead of counting failures
// and asking for a rerun that would fail again.
func TestRefusedFormEndsTheRunNamingServer(t *testing.T) {
	for _, c := range []struct {
		name string
		req  llm.Request
	}{
		{"max_tokens to a reasoning model", reasoningRequest("gpt-5.4", 100)},
		{"vLLM's field to OpenAI", func() llm.Request {
			r := reasoningRequest("gpt-4.1", 100)
			r.Extra = map[string]any{"top_k": 20}
			return r
		}()},
	} {
		rec, url := recordedSim(t, openAISim())
		o := fastOptions()
		o.Server = llm.ServerVLLM // said wrongly
		pool, err := llm.NewPool([]string{url}, o)
		if err != nil {
			t.Fatal(err)
		}
		client := llm.NewJournaled(pool, openJournal(t, t.TempDir()))
		err = llm.Fanout(context.Background(), client, progress.Start(nil, "", 0),
			func(yield func(int, llm.Request) bool) error {
				for i := range 3 {
					r := c.req
					r.Sample = i
					if !yield(i, r) {
						break
					}
				}
				return nil
			},
			func(int, llm.Request, llm.Response, bool) error { return nil })
		if !errors.Is(err, llm.ErrWrongServer) || !errors.Is(err, llm.ErrFatal) || errors.Is(err, llm.ErrFailedRequests) {
			t.Fatalf("%s: got %v, want a fatal ErrWrongServer", c.name, err)
		}
		for _, want := range []string{"--server openai", "--server vllm", "were said with --server vllm"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error does not say %q: %v", c.name, want, err)
			}
		}
		if strings.Contains(err.Error(), "rerun to retry") {
			t.Errorf("%s: the error asks for a rerun that would fail again: %v", c.name, err)
		}
		// Each request was sent once, never retried elsewhere.
		if pool.Retries() != 0 || len(rec.bodies) > 3 {
			t.Errorf("%s: %d requests sent, %d retries", c.name, len(rec.bodies), pool.Retries())
		}
	}
}
