package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// streamReplay serves a body (an event stream, or a JSON error) over
// loopback HTTP with the given status and content type, and keeps the
// request bodies it was sent.
type streamReplay struct {
	URL    string
	mu     sync.Mutex
	bodies []map[string]any
	count  atomic.Int64
}

func serveStream(t *testing.T, body []byte, status int, contentType string) *streamReplay {
	t.Helper()
	r := &streamReplay{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.count.Add(1)
		b, _ := io.ReadAll(req.Body)
		var m map[string]any
		json.Unmarshal(b, &m)
		r.mu.Lock()
		r.bodies = append(r.bodies, m)
		r.mu.Unlock()
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/compatible-mode/v1"
	return r
}

func readReplyFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "replies", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func modelStudioPool(t *testing.T, url string) *llm.Pool {
	t.Helper()
	o := fastOptions()
	o.Server = llm.ServerModelStudio
	pool, err := llm.NewPool([]string{url}, o)
	if err != nil {
		t.Fatal(err)
	}
	return pool
}

func qwenRequest() llm.Request {
	seed := int64(1003)
	return llm.Request{API: llm.APIChat, Model: "qwen3.6-plus", MaxTokens: 16384, Temperature: 0.7, TopP: 0.95, Seed: &seed,
		Messages: []llm.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "3*4?"}}}
}

// A request to Model Studio asks for thinking and streams (the API refuses
// thinking without streaming), with every sampling field datg means; the
// stream, in the shape Model Studio documents, reads as the reply it makes:
// the reasoning, then the answer, with the tokens of the usage event.
func TestModelStudioThinksAndStreams(t *testing.T) {
	srv := serveStream(t, readReplyFile(t, "modelstudio-thinking-stream.txt"), http.StatusOK, "text/event-stream")
	pool := modelStudioPool(t, srv.URL)
	resp, err := pool.Do(context.Background(), qwenRequest())
	if err != nil {
		t.Fatal(err)
	}
	sent := srv.bodies[0]
	type wire struct {
		EnableThinking, Stream, StreamOptions, MaxTokens, Temperature, TopP, Seed, Model any
	}
	want := wire{true, true, map[string]any{"include_usage": true}, float64(16384), 0.7, 0.95, float64(1003), "qwen3.6-plus"}
	got := wire{sent["enable_thinking"], sent["stream"], sent["stream_options"], sent["max_tokens"], sent["temperature"], sent["top_p"], sent["seed"], sent["model"]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
	for _, never := range []string{"max_completion_tokens", "reasoning_effort", "chat_template", "top_k"} {
		if _, ok := sent[never]; ok {
			t.Errorf("sent %s to Model Studio: %v", never, sent)
		}
	}
	type read struct {
		Reasoning, Text, Continuation, FinishReason, Model string
		Prompt, Completion, Reasoned                       int
	}
	const reasoning = "\nFirst, 3 times 4 is 12. Wait, check: 4 + 4 + 4 = 12.\n"
	const answer = "\n\nSo the answer is $\\boxed{12}$."
	if diff := cmp.Diff(read{reasoning, answer, reasoning + "</think>" + answer, "stop", "qwen3.6-plus", 24, 31, 22},
		read{resp.Reasoning, resp.Text, resp.Continuation(), resp.FinishReason, resp.Model, resp.PromptTokens, resp.CompletionTokens, resp.ReasoningTokens}); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
	shaped, err := pool.Shape(qwenRequest())
	if err != nil || shaped.Wire != llm.WireThinkingStream {
		t.Fatalf("shaped wire %q, %v", shaped.Wire, err)
	}
	if s := shaped.Sent(); s.Temperature == nil || *s.Temperature != 0.7 || s.TopP == nil || *s.TopP != 0.95 {
		t.Errorf("recorded sampling %+v, want the temperature and top_p sent", s)
	}
}

// Model Studio's 400 to a thinking request that is not streamed (its
// documented refusal) rejects that request with the server's words.
func TestModelStudioRefusalRejectsTheRequest(t *testing.T) {
	srv := serveStream(t, readReplyFile(t, "modelstudio-thinking-not-streamed.json"), http.StatusBadRequest, "application/json")
	_, err := modelStudioPool(t, srv.URL).Do(context.Background(), qwenRequest())
	if !errors.Is(err, llm.ErrRejected) || !strings.Contains(err.Error(), "parameter.enable_thinking must be set to false for non-streaming calls") {
		t.Fatalf("got %v, want the request rejected with Model Studio's message", err)
	}
	if n := srv.count.Load(); n != 1 {
		t.Fatalf("%d requests sent, want 1 (a refusal is not retried)", n)
	}
}

// A stream cut before data: [DONE] (a connection dropped mid-answer) is an
// endpoint fault, retried, and in the end a failed request naming it.
func TestModelStudioCutStreamIsMalformed(t *testing.T) {
	whole := string(readReplyFile(t, "modelstudio-thinking-stream.txt"))
	cut := whole[:strings.Index(whole, "data: [DONE]")]
	srv := serveStream(t, []byte(cut), http.StatusOK, "text/event-stream")
	o := fastOptions()
	o.Server, o.MaxAttempts = llm.ServerModelStudio, 2
	pool, _ := llm.NewPool([]string{srv.URL}, o)
	_, err := pool.Do(context.Background(), qwenRequest())
	if !errors.Is(err, llm.ErrGaveUp) || !errors.Is(err, llm.ErrMalformed) || !strings.Contains(err.Error(), "[DONE]") {
		t.Fatalf("got %v, want a malformed response given up on", err)
	}
	if n := srv.count.Load(); n != 2 {
		t.Fatalf("%d requests sent, want 2 (a malformed reply is retried)", n)
	}
}

// What Model Studio cannot take is a configuration error found before
// anything is sent: its completions endpoint (Qwen Coder models only),
// vLLM's fields, OpenAI's reasoning_effort.
func TestWhatModelStudioRefusesIsAConfigError(t *testing.T) {
	srv := serveStream(t, readReplyFile(t, "modelstudio-thinking-stream.txt"), http.StatusOK, "text/event-stream")
	completions := qwenRequest()
	completions.API, completions.Messages, completions.Prompt = llm.APICompletions, nil, "3*4?"
	vllmFields := qwenRequest()
	vllmFields.Extra = map[string]any{"top_k": 20, "return_token_ids": true}
	cases := []struct {
		name, effort string
		req          llm.Request
		want         string
	}{
		{"completions", "", completions, "Qwen Coder"},
		{"vllm fields", "", vllmFields, "return_token_ids, top_k"},
		{"effort", "high", qwenRequest(), "enable_thinking"},
	}
	for _, c := range cases {
		o := fastOptions()
		o.Server, o.ReasoningEffort = llm.ServerModelStudio, c.effort
		pool, err := llm.NewPool([]string{srv.URL}, o)
		if err != nil {
			t.Fatal(err)
		}
		_, err = pool.Do(context.Background(), c.req)
		if !errors.Is(err, llm.ErrBadRequestConfig) || !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a configuration error naming %q", c.name, err, c.want)
		}
	}
	if n := srv.count.Load(); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
	target := llm.Target{Endpoints: []string{srv.URL}, Model: "qwen3.6-plus", API: llm.APICompletions, Pool: fastOptions()}
	target.Pool.Server = llm.ServerModelStudio
	if err := target.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "chat/completions only") {
		t.Fatalf("target on the completions API: %v", err)
	}
}

// Against the simulator speaking Model Studio's API (which refuses a
// thinking request that is not streamed, as Model Studio does), every
// request is answered, with the model's reasoning apart from its answer.
func TestModelStudioSimulatorAnswersEveryRequest(t *testing.T) {
	c := simConfig()
	c.Dialect = simulate.DialectModelStudio
	c.Models = []string{"qwen3.6-plus"}
	eps := start(t, c)
	pool := modelStudioPool(t, eps[0].URL)
	for i := range 4 {
		req := qwenRequest()
		req.Sample = i
		req.Messages[1].Content = "What is 6 times 7?"
		resp, err := pool.Do(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.HasReasoning || resp.Reasoning == "" || resp.Text == "" {
			t.Fatalf("sample %d: reasoning %q, answer %q: want both", i, resp.Reasoning, resp.Text)
		}
	}
	if st := eps[0].Server.Stats(); st.Requests != 4 || st.Served != 4 || st.Errors != 0 {
		t.Fatalf("server stats %+v: some requests were refused", st)
	}
}
