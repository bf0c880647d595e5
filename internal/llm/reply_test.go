package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/prompts"
)

func openJournal(t *testing.T, dir string) *journal.Journal {
	t.Helper()
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// chatRequest is a chat request whose reasoning a ReasoningField simulator
// returns apart from the content.
func chatRequest(maxTokens int) llm.Request {
	sw, _ := prompts.Lookup("sw")
	return llm.Request{
		API: llm.APIChat, Model: "Qwen/Qwen3-8B", MaxTokens: maxTokens, Temperature: 0.6, TopP: 0.95,
		Messages: []llm.Message{{Role: "system", Content: sw.System}, {Role: "user", Content: "1+1?"},
			{Role: "assistant", Content: "<think>\n" + sw.Prefix}},
		Extra: map[string]any{"continue_final_message": true, "add_generation_prompt": false},
	}
}

// faultyPool is a pool of one simulated endpoint that injects faults; a
// request is tried maxAttempts times, and failures never take the endpoint
// out of rotation.
func faultyPool(t *testing.T, faults simulate.Faults, maxAttempts int) (*llm.Pool, *simulate.Endpoint) {
	t.Helper()
	cfg := simConfig()
	cfg.Faults = faults
	ep := start(t, cfg)[0]
	o := fastOptions()
	o.MaxAttempts, o.FailThreshold = maxAttempts, 100
	pool, err := llm.NewPool([]string{ep.URL}, o)
	if err != nil {
		t.Fatal(err)
	}
	return pool, ep
}

// A 200 reply without usable text is a malformed reply: retried, never
// journaled, and when every attempt gets one the request fails naming it.
func TestReplyWithoutTextIsNeverJournaled(t *testing.T) {
	for _, api := range []string{llm.APICompletions, llm.APIChat} {
		for _, form := range []string{"null", "empty", "missing", "no-choices"} {
			t.Run(api+"/"+form, func(t *testing.T) {
				pool, ep := faultyPool(t, simulate.Faults{EmptyRate: 1, EmptyForm: form}, 3)
				j := openJournal(t, t.TempDir())
				req := swahiliRequest(0)
				if api == llm.APIChat {
					req = chatRequest(512)
				}
				resp, _, err := llm.NewJournaled(pool, j).Do(context.Background(), req)
				if err == nil {
					t.Fatalf("a reply without text was taken as an answer: %+v", resp)
				}
				if !errors.Is(err, llm.ErrMalformed) || !llm.RequestFailed(err) {
					t.Fatalf("got %v, want a failed request for a malformed reply", err)
				}
				if !strings.Contains(err.Error(), req.Model) || !strings.Contains(err.Error(), req.Key().String()[:12]) {
					t.Errorf("the error does not name the request: %v", err)
				}
				if n := j.Len(); n != 0 {
					t.Fatalf("%d replies without text journaled", n)
				}
				if st := ep.Server.Stats(); st.Empty != 3 {
					t.Fatalf("the server gave %d empty replies, want one per attempt (3)", st.Empty)
				}
			})
		}
	}
}

// An empty reply now and then is retried like any malformed body, and only
// answers with text are journaled.
func TestReplyWithoutTextIsRetried(t *testing.T) {
	cfg := simConfig()
	cfg.Faults = simulate.Faults{EmptyRate: 0.5}
	eps := start(t, cfg)
	pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	j := openJournal(t, t.TempDir())
	client := llm.NewJournaled(pool, j)
	for i := 0; i < 12; i++ {
		resp, _, err := client.Do(context.Background(), swahiliRequest(i))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text == "" {
			t.Fatalf("request %d answered without text", i)
		}
	}
	if st := eps[0].Server.Stats(); st.Empty == 0 {
		t.Fatal("the server sent no empty reply")
	}
	if pool.Retries() == 0 {
		t.Fatal("no empty reply was retried")
	}
	if j.Len() != 12 {
		t.Fatalf("%d records for 12 requests", j.Len())
	}
}

// vLLM's reasoning parser answers content null when the budget ends inside
// the reasoning: the reasoning is the answer, under either of its names.
func TestChatReplyWithReasoningOnlyIsKept(t *testing.T) {
	for _, name := range []string{"reasoning_content", "reasoning"} {
		cfg := simConfig()
		cfg.ReasoningField, cfg.ReasoningKey = true, name
		eps := start(t, cfg)
		req := chatRequest(24) // ends inside <think>
		// The simulator answers content null, as vLLM does.
		body, _ := json.Marshal(map[string]any{"model": req.Model, "messages": req.Messages, "max_tokens": req.MaxTokens,
			"continue_final_message": true, "temperature": req.Temperature, "top_p": req.TopP})
		hr, err := http.Post(eps[0].URL+"/chat/completions", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Choices []struct {
				Message map[string]any `json:"message"`
			} `json:"choices"`
		}
		json.NewDecoder(hr.Body).Decode(&raw)
		hr.Body.Close()
		if c, ok := raw.Choices[0].Message["content"]; !ok || c != nil || raw.Choices[0].Message[name] == "" {
			t.Fatalf("%s: the simulator answered %#v, want content null and the reasoning", name, raw.Choices[0].Message)
		}

		pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
		resp, err := pool.Do(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: a reply with reasoning and content null was refused: %v", name, err)
		}
		type kept struct {
			Text          string
			ReasoningKept bool
			Attempts      int
		}
		if diff := cmp.Diff(kept{"", true, 1}, kept{resp.Text, resp.Reasoning != "", resp.Attempts}); diff != "" {
			t.Fatalf("%s: response (-want +got):\n%s", name, diff)
		}
	}
}

// A model whose first token ends it answers "" with finish_reason stop: an
// answer (a continuation that ends at once), not a fault.
func TestReplyThatStoppedAtOnceIsKept(t *testing.T) {
	for _, api := range []string{llm.APICompletions, llm.APIChat} {
		cfg := simConfig()
		cfg.Faults = simulate.Faults{EmptyRate: 1, EmptyForm: "stop"}
		eps := start(t, cfg)
		pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
		req := swahiliRequest(0)
		if api == llm.APIChat {
			req = chatRequest(512)
		}
		resp, err := pool.Do(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", api, err)
		}
		type stopped struct {
			Text, FinishReason         string
			CompletionTokens, Attempts int
		}
		if diff := cmp.Diff(stopped{"", "stop", 1, 1}, stopped{resp.Text, resp.FinishReason, resp.CompletionTokens, resp.Attempts}); diff != "" {
			t.Fatalf("%s: response (-want +got):\n%s", api, diff)
		}
	}
}

// Token counts no server could have counted are a malformed reply, never
// data.
func TestGarbageTokenCountsAreMalformed(t *testing.T) {
	for _, bad := range []float64{-1, -3e9, 1e6, 3e9, 1e20} {
		pool, ep := faultyPool(t, simulate.Faults{BadUsageRate: 1, BadUsage: bad}, 2)
		j := openJournal(t, t.TempDir())
		resp, _, err := llm.NewJournaled(pool, j).Do(context.Background(), swahiliRequest(0))
		if !errors.Is(err, llm.ErrMalformed) || !llm.RequestFailed(err) {
			t.Fatalf("completion_tokens %g: got %+v, %v; want a failed request for a malformed reply", bad, resp, err)
		}
		if n := j.Len(); n != 0 {
			t.Fatalf("completion_tokens %g: %d replies journaled, want none", bad, n)
		}
		if n := ep.Server.Stats().BadUsage; n != 2 {
			t.Fatalf("completion_tokens %g: the server sent %d replies with it, want one per attempt (2)", bad, n)
		}
	}
}

// A reply an older datg journaled without text is not replayed as an
// answer: the request is sent again, its answer journaled in its place and
// replayed from then on.
func TestJournaledReplyWithoutTextIsRequestedAgain(t *testing.T) {
	eps := start(t, simConfig())
	pool, _ := llm.NewPool([]string{eps[0].URL}, fastOptions())
	dir := t.TempDir()
	reqs := []llm.Request{swahiliRequest(0), swahiliRequest(1), chatRequest(512), swahiliRequest(2), swahiliRequest(3), swahiliRequest(4)}
	old := []llm.Response{
		{Text: "", FinishReason: "length", CompletionTokens: 512},                                // text null, read as ""
		{Text: "an answer", FinishReason: "stop", CompletionTokens: -1294967296},                 // a wrapped count
		{Text: "", Reasoning: "", FinishReason: "stop", PromptTokens: 30, CompletionTokens: 400}, // chat content null
		{Text: "an answer", FinishReason: "stop"},                                                // no usage, read as 0/0
		{Text: "an answer", FinishReason: "stop", PromptTokens: 30, CompletionTokens: 1512},      // beyond max_tokens 512
		{Text: "an answer", FinishReason: "stop\x00\n", PromptTokens: 30, CompletionTokens: 3},   // a finish_reason no server sends
	}
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, req := range reqs {
		if err := j.Put(req.Key(), llm.Record{Request: req, Response: old[i]}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()

	for run := 0; run < 2; run++ {
		j := openJournal(t, dir)
		client := llm.NewJournaled(pool, j)
		for i, req := range reqs {
			resp, cached, err := client.Do(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text+resp.Reasoning == "" {
				t.Fatalf("run %d, request %d: the journaled reply without text was replayed", run, i)
			}
			if resp.CompletionTokens <= 0 {
				t.Fatalf("run %d, request %d: the journaled reply with %d completion tokens was replayed", run, i, resp.CompletionTokens)
			}
			if cached != (run == 1) {
				t.Fatalf("run %d, request %d: cached %v", run, i, cached)
			}
		}
		j.Close()
	}
	if n := eps[0].Server.Stats().Served; n != int64(len(reqs)) {
		t.Fatalf("the server answered %d times for %d requests: the replacements are not replayed", n, len(reqs))
	}
}
