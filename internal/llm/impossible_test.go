package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// A reply no vLLM or OpenAI server gives is an endpoint fault: retried,
// never journaled, and when every attempt gets one the request fails
// naming the endpoint and what was wrong with the reply.
func TestImpossibleRepliesAreNeverJournaled(t *testing.T) {
	says := map[string]string{
		"no-usage":              "without usage",
		"zero-tokens":           "0 completion tokens",
		"over-budget":           "completion_tokens 1512 is out of range (0 to 512",
		"two-choices":           "2 choices",
		"duplicate-key":         `names the key "choices" twice in one object`,
		"control-finish-reason": `finish_reason "stop\x00\n" is none`,
		"invalid-utf8":          "not valid UTF-8",
	}
	for _, api := range []string{llm.APICompletions, llm.APIChat} {
		for _, form := range simulate.ImpossibleForms {
			t.Run(api+"/"+form, func(t *testing.T) {
				pool, ep := faultyPool(t, simulate.Faults{ImpossibleRate: 1, ImpossibleForm: form}, 3)
				j := openJournal(t, t.TempDir())
				req := swahiliRequest(0)
				if api == llm.APIChat {
					req = chatRequest(512)
				}
				resp, _, err := llm.NewJournaled(pool, j).Do(context.Background(), req)
				if err == nil {
					t.Fatalf("an impossible reply was taken as an answer: %+v", resp)
				}
				if !errors.Is(err, llm.ErrMalformed) || !llm.RequestFailed(err) {
					t.Fatalf("got %v, want a failed request for a malformed reply", err)
				}
				for _, want := range []string{ep.URL, says[form]} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the error does not say %q: %v", want, err)
					}
				}
				if n := j.Len(); n != 0 {
					t.Fatalf("%d impossible replies journaled", n)
				}
				if n := ep.Server.Stats().Impossible; n != 3 {
					t.Fatalf("the server gave %d impossible replies, want one per attempt (3)", n)
				}
			})
		}
	}
}

// An impossible reply now and then is retried, and only the possible ones
// are kept.
func TestImpossibleReplyIsRetried(t *testing.T) {
	cfg := simConfig()
	cfg.Faults = simulate.Faults{ImpossibleRate: 0.5, ImpossibleForm: "over-budget"}
	eps := start(t, cfg)
	pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	j := openJournal(t, t.TempDir())
	client := llm.NewJournaled(pool, j)
	for i := 0; i < 12; i++ {
		req := swahiliRequest(i)
		resp, _, err := client.Do(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.CompletionTokens > req.MaxTokens {
			t.Fatalf("request %d: %d completion tokens for max_tokens %d kept", i, resp.CompletionTokens, req.MaxTokens)
		}
	}
	if eps[0].Server.Stats().Impossible == 0 || pool.Retries() == 0 {
		t.Fatal("no impossible reply was sent and retried")
	}
}

// The shapes real servers give at the edges stay answers: a budget spent
// to the last token (completion_tokens == max_tokens, finish_reason
// length), and an OpenAI reasoning model whose completion_tokens count
// reasoning it does not show (far more tokens than the visible text),
// within max_completion_tokens. One token fewer of budget than the reply
// counts is impossible, and refused.
func TestRepliesAtTheBudgetAreKept(t *testing.T) {
	cases := []struct {
		file, api, server, model string
		maxTokens                int // the reply's completion_tokens
	}{
		{"vllm-chat-cut-by-budget.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", 16},
		{"vllm-chat-budget-ends-on-tag.json", llm.APIChat, llm.ServerVLLM, "Qwen/Qwen3-4B", 9},
		{"openai-reasoning.json", llm.APIChat, llm.ServerOpenAI, "gpt-5.4", 950},
	}
	for _, c := range cases {
		for _, budget := range []int{c.maxTokens, c.maxTokens - 1} {
			srv := serveReply(t, c.file, http.StatusOK)
			opts := fastOptions()
			opts.Server, opts.MaxAttempts = c.server, 1
			pool, err := llm.NewPool([]string{srv.URL}, opts)
			if err != nil {
				t.Fatal(err)
			}
			req := llm.Request{API: c.api, Model: c.model, MaxTokens: budget, Temperature: 0.6, TopP: 0.95,
				Messages: []llm.Message{{Role: "user", Content: "3*4?"}}}
			_, err = pool.Do(context.Background(), req)
			switch {
			case budget == c.maxTokens && err != nil:
				t.Errorf("%s with max_tokens %d: %v", c.file, budget, err)
			case budget < c.maxTokens && !errors.Is(err, llm.ErrMalformed):
				t.Errorf("%s with max_tokens %d: got %v, want a malformed reply", c.file, budget, err)
			}
		}
	}
}
