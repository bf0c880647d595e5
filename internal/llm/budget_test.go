package llm_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// budgetsSent are the max_completion_tokens of the requests a recorder saw.
func budgetsSent(rec *recorder) []any {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []any
	for _, b := range rec.bodies {
		out = append(out, b["max_completion_tokens"])
	}
	return out
}

// A reasoning model's reply that spent its budget reasoning (OpenAI's empty
// content with finish_reason length, the reasoning counted) is asked once
// more with twice the budget, at most MaxReasoningBudget. When that fits,
// the caller gets its answer and the request that got it; when it is spent
// too, the request fails with ErrBudgetSpentReasoning, unless it keeps such
// replies for its caller to count (KeepSpent). Every reply is journaled: a
// rerun sends nothing.
func TestSpentBudgetIsAskedOnceMoreWithALargerOne(t *testing.T) {
	for _, c := range []struct {
		name      string
		reasoning int // tokens the simulated model reasons before answering
		budget    int
		keep      bool
		want      error
		sent      []any
		final     int
	}{
		{"fits twice the budget", 3000, 2048, false, nil, []any{2048.0, 4096.0}, 4096},
		{"spent twice", 10000, 2048, false, llm.ErrBudgetSpentReasoning, []any{2048.0, 4096.0}, 0},
		{"spent twice, kept", 10000, 2048, true, nil, []any{2048.0, 4096.0}, 4096},
		{"grown only up to the cap", 90000, 60000, true, nil, []any{60000.0, float64(llm.MaxReasoningBudget)}, llm.MaxReasoningBudget},
		{"at the cap already", llm.MaxReasoningBudget + 10, llm.MaxReasoningBudget, true, nil, []any{float64(llm.MaxReasoningBudget)}, llm.MaxReasoningBudget},
	} {
		cfg := openAISim()
		cfg.HiddenReasoning = c.reasoning
		rec, url := recordedSim(t, cfg)
		pool, err := llm.NewPool([]string{url}, fastOptions())
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		req := reasoningRequest("gpt-5.4", c.budget)
		req.KeepSpent = c.keep
		for run := 1; run <= 2; run++ {
			j, err := journal.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			sent, resp, cached, err := llm.NewJournaled(pool, j).DoSent(context.Background(), req)
			j.Close()
			if !errors.Is(err, c.want) || (c.want != nil) != llm.RequestFailed(err) {
				t.Fatalf("%s, run %d: got %v, want %v", c.name, run, err, c.want)
			}
			if diff := cmp.Diff(c.sent, budgetsSent(rec)); diff != "" {
				t.Fatalf("%s, run %d: budgets sent (-want +got):\n%s", c.name, run, diff)
			}
			if c.want != nil {
				continue
			}
			if sent.MaxTokens != c.final || cached != (run == 2) {
				t.Errorf("%s, run %d: answered by the request of budget %d (cached %v), want %d", c.name, run, sent.MaxTokens, cached, c.final)
			}
			spent := c.reasoning >= c.final
			if llm.SpentOnReasoning(sent, resp) != spent || (resp.Text == "") != spent || resp.CompletionTokens > sent.MaxTokens {
				t.Errorf("%s, run %d: reply %q with %d of %d tokens reasoning, finish %s; want spent %v",
					c.name, run, resp.Text, resp.ReasoningTokens, resp.CompletionTokens, resp.FinishReason, spent)
			}
		}
	}
}

// Whether a reply spent its budget reasoning: only where the budget counts
// the reasoning (OpenAI's reasoning form), only when it ran out (length),
// and only with no visible answer or reasoning at nine tenths of the
// budget or more.
func TestSpentOnReasoning(t *testing.T) {
	reasoning := llm.Request{Wire: llm.WireReasoning, MaxTokens: 1000}
	for _, c := range []struct {
		name string
		req  llm.Request
		resp llm.Response
		want bool
	}{
		{"no content, cut", reasoning, llm.Response{FinishReason: "length", ReasoningTokens: 996, CompletionTokens: 1000}, true},
		{"cut JSON after long reasoning", reasoning, llm.Response{Text: `{"audit`, FinishReason: "length", ReasoningTokens: 950, CompletionTokens: 1000}, true},
		{"cut JSON after short reasoning", reasoning, llm.Response{Text: `{"audit`, FinishReason: "length", ReasoningTokens: 300, CompletionTokens: 1000}, false},
		{"finished", reasoning, llm.Response{Text: "{}", FinishReason: "stop", ReasoningTokens: 990, CompletionTokens: 995}, false},
		{"vLLM's budget", llm.Request{MaxTokens: 1000}, llm.Response{FinishReason: "length", CompletionTokens: 1000}, false},
	} {
		if got := llm.SpentOnReasoning(c.req, c.resp); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A stage's default budget leaves room for reasoning where the budget
// counts it (OpenAI's reasoning models on a server that is not vLLM), and
// is the stage's own elsewhere; a budget given is kept.
func TestBudgetForTheModel(t *testing.T) {
	_, openai := recordedSim(t, openAISim())
	vllm := start(t, simConfig())[0].URL
	for _, c := range []struct {
		url, model  string
		given, want int
	}{
		{openai, "gpt-5.4", 0, llm.ReasoningBudget},
		{openai, "o3", 0, llm.ReasoningBudget},
		{openai, "gpt-4.1", 0, 4096},
		{openai, "gpt-5.4", 2000, 2000},
		{vllm, "gpt-5.4", 0, 4096},
		{vllm, "Qwen/Qwen3-4B", 0, 4096},
	} {
		pool, err := llm.NewPool([]string{c.url}, fastOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := pool.Budget(c.model, c.given, 4096); got != c.want {
			t.Errorf("%s at %s, given %d: budget %d, want %d", c.model, pool.Server(), c.given, got, c.want)
		}
	}
	if llm.ReasoningBudget < 25000 {
		t.Errorf("ReasoningBudget %d is below OpenAI's advice to reserve at least 25,000 tokens for reasoning and outputs", llm.ReasoningBudget)
	}
}

// Through the Batch API, a reply that spent its budget reasoning is an
// answer like any other (journaled, never submitted again); the request
// with twice the budget depends on it and goes online, as a DAG's repair
// does. A rerun sends nothing.
func TestBatchReplySpentOnReasoningIsAskedAgainOnline(t *testing.T) {
	cfg := batchSim(simulate.BatchConfig{})
	cfg.HiddenReasoning = 3000
	ep := start(t, cfg)[0]
	target := batchTarget(ep.URL, 2)
	target.Model = "gpt-5.4"
	var reqs []llm.Request
	for _, r := range batchRequests(3) {
		r.Model, r.MaxTokens = "gpt-5.4", 2048
		reqs = append(reqs, r)
	}
	data := t.TempDir()
	for run := 1; run <= 2; run++ {
		got, err := runBatchFanout(t, target, data, reqs)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		for key, resp := range got.resp {
			if resp.Text == "" || resp.FinishReason != "stop" || resp.Batch != "" {
				t.Errorf("run %d: %.12s answered %q (finish %s, batch %q), want the online answer to the larger budget", run, key, resp.Text, resp.FinishReason, resp.Batch)
			}
		}
		if len(got.resp) != len(reqs) {
			t.Fatalf("run %d: %d answers for %d requests", run, len(got.resp), len(reqs))
		}
	}
	if b := ep.Server.Batches(); len(b) != 1 || len(b[0].CustomIDs) != len(reqs) {
		t.Fatalf("batches %+v, want one of the %d first requests", b, len(reqs))
	}
	if n := servedOnce(t, ep.Server); n != 2*len(reqs) {
		t.Fatalf("%d replies served, want %d (each request, then each with twice the budget)", n, 2*len(reqs))
	}
}
