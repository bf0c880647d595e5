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
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// replay serves one reply body from testdata/replies over loopback HTTP
// with the given status, and keeps the request bodies it was sent.
type replay struct {
	URL    string
	mu     sync.Mutex
	bodies []map[string]any
}

func serveReply(t *testing.T, file string, status int) *replay {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "replies", file))
	if err != nil {
		t.Fatal(err)
	}
	r := &replay{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		if len(b) > 0 { // not a GET (/version)
			var m map[string]any
			json.Unmarshal(b, &m)
			r.mu.Lock()
			r.bodies = append(r.bodies, m)
			r.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/v1"
	return r
}

// What datg reads from each documented reply shape, and the text it puts
// back together: exactly what the model wrote after the prompt.
func TestReplyShapesOfTheServers(t *testing.T) {
	const written = "\nFirst, 3 times 4 is 12.\n</think>\n\nSo the answer is $\\boxed{12}$."
	cases := []struct {
		file, api, server, model string
		text, served             string
	}{
		{"vllm-chat-reasoning.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", written, "Qwen/Qwen3-4B"},
		{"vllm-chat-reasoning-content.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", written, "Qwen/Qwen3-4B"},
		{"vllm-chat-no-parser.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", written, "Qwen/Qwen3-4B"},
		{"vllm-completion.json", llm.APICompletions, llm.ServerVLLM, "Qwen/Qwen3-4B", written, "Qwen/Qwen3-4B"},
		// The thinking closed and the model ended its turn: the parser
		// dropped the tag and answered content null.
		{"vllm-chat-closed-then-eos.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", "\nThe sum is 7.\n</think>", "Qwen/Qwen3-4B"},
		// Ended by Qwen3's other end-of-sequence id, which vLLM reports as
		// the stop token; and a budget that ended on the tag itself, which
		// only the token ids show.
		{"vllm-chat-closed-then-endoftext.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", "\nThe sum is 7.\n</think>", "Qwen/Qwen3-4B"},
		{"vllm-chat-budget-ends-on-tag.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", "\nThe sum is 7.\n</think>", "Qwen/Qwen3-4B"},
		// Cut inside the thinking, by the budget or by a stop string: no tag.
		{"vllm-chat-cut-by-budget.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", "\nLet me try again. Let me try again. Let me", "Qwen/Qwen3-4B"},
		{"vllm-chat-cut-by-stop-string.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", "known: x = 3\n", "Qwen/Qwen3-4B"},
		{"openai-chat.json", llm.APIChat, llm.ServerOpenAI, "gpt-4.1", `{"final_node_id": "n2", "nodes": []}`, "gpt-4.1-2025-04-14"},
		{"openai-reasoning.json", llm.APIChat, llm.ServerOpenAI, "gpt-5.4", "Step 1: 3 x 4 = 12.\n\nFinal answer: \\boxed{12}", "gpt-5.4-2026-03-05"},
	}
	for _, c := range cases {
		srv := serveReply(t, c.file, http.StatusOK)
		opts := fastOptions()
		opts.Server = c.server
		pool, err := llm.NewPool([]string{srv.URL}, opts)
		if err != nil {
			t.Fatal(err)
		}
		req := llm.Request{API: c.api, Model: c.model, MaxTokens: 4096, Temperature: 0.6, TopP: 0.95}
		if c.api == llm.APIChat {
			req.Messages = []llm.Message{{Role: "user", Content: "3*4?"}}
		} else {
			req.Prompt = "3*4?"
		}
		resp, err := pool.Do(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got := resp.Continuation(); got != c.text {
			t.Errorf("%s: text %q, want %q", c.file, got, c.text)
		}
		if resp.Model != c.served {
			t.Errorf("%s: served model %q, want %q", c.file, resp.Model, c.served)
		}
	}
}

// OpenAI's reasoning models get max_completion_tokens and no sampling
// fields; its other models get max_tokens. A server that refuses what
// those models refuse (the simulator speaking OpenAI's API) answers all.
func TestOpenAIReasoningModelsGetTheirOwnFields(t *testing.T) {
	srv := serveReply(t, "openai-reasoning.json", http.StatusOK)
	opts := fastOptions()
	opts.Server, opts.ReasoningEffort = llm.ServerOpenAI, "high"
	pool, err := llm.NewPool([]string{srv.URL}, opts)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{API: llm.APIChat, Model: "gpt-5.4", MaxTokens: 8192, Temperature: 0.7, TopP: 0.95,
		Messages: []llm.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}}
	if _, err := pool.Do(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := srv.bodies[0]
	for _, refused := range []string{"max_tokens", "temperature", "top_p"} {
		if _, ok := body[refused]; ok {
			t.Errorf("sent %s to a reasoning model: %v", refused, body)
		}
	}
	type named struct{ MaxCompletionTokens, ReasoningEffort any }
	if diff := cmp.Diff(named{float64(8192), "high"}, named{body["max_completion_tokens"], body["reasoning_effort"]}); diff != "" {
		t.Errorf("budget or effort not sent as OpenAI names them (-want +got):\n%s", diff)
	}
	shaped, _ := pool.Shape(req)
	budget := int64(8192)
	if diff := cmp.Diff(llm.SentSampling{MaxTokens: &budget}, shaped.Sent(), cmpopts.IgnoreFields(llm.SentSampling{}, "TopK", "RepetitionPenalty")); diff != "" {
		t.Errorf("recorded sampling, want no temperature or top_p and the budget (-want +got):\n%s", diff)
	}

	// Against a server that enforces the rules, nothing is refused.
	sim := simConfig()
	sim.Dialect = simulate.DialectOpenAI
	eps := start(t, sim)
	for _, model := range []string{"gpt-5.4", "o3-mini", "gpt-4.1"} {
		o := fastOptions()
		o.Server = llm.ServerOpenAI
		pool, _ := llm.NewPool([]string{eps[0].URL}, o)
		r := req
		r.Model = model
		if _, err := pool.Do(context.Background(), r); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
	}
	type refused struct{ Requests, Errors int64 }
	if st := eps[0].Server.Stats(); st.Requests != 3 || st.Errors != 0 {
		t.Fatalf("server stats (-want +got):\n%s", cmp.Diff(refused{3, 0}, refused{st.Requests, st.Errors}))
	}
}

// vLLM serves any model name, but go-openai refuses, before sending, names
// it takes for OpenAI's (o-series on completions, max_tokens for gpt-5*):
// those requests go out as a raw body with every field datg means.
func TestVLLMGetsWhatGoOpenAIWouldRefuse(t *testing.T) {
	for _, c := range []struct{ api, model string }{{llm.APICompletions, "o3-mini"}, {llm.APIChat, "gpt-5-local"}, {llm.APICompletions, "gpt-4"}} {
		file := "vllm-completion.json"
		if c.api == llm.APIChat {
			file = "vllm-chat-reasoning.json"
		}
		srv := serveReply(t, file, http.StatusOK)
		o := fastOptions()
		o.Server = llm.ServerVLLM // the replay answers /version with this reply, not a version
		pool, _ := llm.NewPool([]string{srv.URL}, o)
		seed := int64(7)
		req := llm.Request{API: c.api, Model: c.model, MaxTokens: 512, Temperature: 0, TopP: 0.95, Seed: &seed,
			Extra: map[string]any{"top_k": 20, "repetition_penalty": 1.08}}
		if c.api == llm.APIChat {
			req.Messages = []llm.Message{{Role: "user", Content: "u"}}
		} else {
			req.Prompt = "p"
		}
		if _, err := pool.Do(context.Background(), req); err != nil {
			t.Fatalf("%s on %s: %v", c.model, c.api, err)
		}
		body := srv.bodies[0]
		for k, want := range map[string]any{"model": c.model, "max_tokens": float64(512), "temperature": float64(0), "top_p": 0.95,
			"seed": float64(7), "top_k": float64(20), "repetition_penalty": 1.08} {
			if body[k] != want {
				t.Errorf("%s on %s: %s sent as %v, want %v", c.model, c.api, k, body[k], want)
			}
		}
	}
}

// What OpenAI refuses is a configuration error found before sending:
// vLLM's fields, stop strings or the completions API for a reasoning
// model, a reasoning effort for vLLM.
func TestWhatATargetRefusesIsAConfigError(t *testing.T) {
	srv := serveReply(t, "openai-chat.json", http.StatusOK)
	cases := []struct {
		name, server, effort, want string
		req                        llm.Request
	}{
		{"vLLM field to OpenAI", llm.ServerOpenAI, "", "repetition_penalty", llm.Request{API: llm.APIChat, Model: "gpt-4.1", MaxTokens: 9, Extra: map[string]any{"repetition_penalty": 1.1}}},
		{"stop to a reasoning model", llm.ServerOpenAI, "", "stop", llm.Request{API: llm.APIChat, Model: "gpt-5.4", MaxTokens: 9, Stop: []string{"x"}}},
		{"completions for a reasoning model", llm.ServerOpenAI, "", "chat/completions only", llm.Request{API: llm.APICompletions, Model: "o3-mini", MaxTokens: 9, Prompt: "p"}},
		{"effort to vLLM", llm.ServerVLLM, "low", "Pool.ReasoningEffort", llm.Request{API: llm.APIChat, Model: "Qwen/Qwen3-4B", MaxTokens: 9}},
	}
	for _, c := range cases {
		o := fastOptions()
		o.Server, o.ReasoningEffort = c.server, c.effort
		pool, err := llm.NewPool([]string{srv.URL}, o)
		if err != nil {
			t.Fatal(err)
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: "user", Content: "u"})
		_, err = pool.Do(context.Background(), c.req)
		if !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a configuration error naming %s", c.name, err, c.want)
		}
	}
	if len(srv.bodies) != 0 {
		t.Fatalf("%d requests reached the server", len(srv.bodies))
	}
}

// insufficient_quota stops the run at the first reply (no retries: waiting
// does not add credit); a budget a reasoning model spent on reasoning is
// an answer to this request (paid for, journaled), not a fault to retry
// elsewhere.
func TestQuotaAndSpentBudgetAreNotRetried(t *testing.T) {
	for _, c := range []struct {
		file   string
		status int
		want   error
	}{
		{"openai-insufficient-quota.json", http.StatusTooManyRequests, llm.ErrQuota},
		{"openai-reasoning-budget-spent.json", http.StatusOK, nil},
	} {
		srv := serveReply(t, c.file, c.status)
		o := fastOptions()
		o.Server = llm.ServerOpenAI
		pool, _ := llm.NewPool([]string{srv.URL}, o)
		req := llm.Request{API: llm.APIChat, Model: "gpt-5.4", MaxTokens: 4096, Messages: []llm.Message{{Role: "user", Content: "u"}}}
		resp, err := pool.Do(context.Background(), req)
		if !errors.Is(err, c.want) {
			t.Fatalf("%s: got %v, want %v", c.file, err, c.want)
		}
		if len(srv.bodies) != 1 || pool.Retries() != 0 {
			t.Fatalf("%s: sent %d times", c.file, len(srv.bodies))
		}
		if st := pool.Status()[0]; st.Faults != 0 {
			t.Fatalf("%s: held against the endpoint: %+v", c.file, st)
		}
		if c.want != nil {
			continue
		}
		shaped, _ := pool.Shape(req)
		if resp.Text != "" || resp.ReasoningTokens != 4096 || !llm.SpentOnReasoning(shaped, resp) {
			t.Fatalf("%s: read as %+v, want a reply that spent its budget reasoning", c.file, resp)
		}
	}
}

// A continuation past </think> (a Loop-Retry tail after a head that
// closed its thinking) has no tag in its output: the parser returns it all
// as reasoning, and nothing is added. An empty output stays empty.
func TestContinuationPastTheTagAddsNothing(t *testing.T) {
	tail := llm.Response{Reasoning: "\n\nThe answer is 7.", HasReasoning: true, ContentNull: true, FinishReason: "stop", CompletionTokens: 8, Model: "Qwen/Qwen3-4B"}
	if got := tail.ContinuationAfter(true); got != tail.Reasoning {
		t.Errorf("tail past the tag: %q", got)
	}
	if got := tail.ContinuationAfter(false); got != tail.Reasoning+"</think>" {
		t.Errorf("the same reply with the thinking open: %q", got)
	}
	empty := llm.Response{HasReasoning: true, ContentNull: true, FinishReason: "stop", CompletionTokens: 1}
	if got := empty.Continuation(); got != "" {
		t.Errorf("empty output: %q", got)
	}
}
