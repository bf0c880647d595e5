package simulate

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/prompts"
)

// postChat sends a chat request body to the server and decodes the reply.
func postChat(t *testing.T, srv *Server, body map[string]any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", bytes.NewReader(b)))
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("reply %q: %v", rec.Body.String(), err)
	}
	return rec.Code, out
}

func openAIServer(t *testing.T, hidden int) *Server {
	t.Helper()
	c := DefaultConfig()
	c.Dialect, c.Version, c.HiddenReasoning = DialectOpenAI, "", hidden
	srv, err := NewServer(c)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// OpenAI's refusal of max_tokens for a reasoning model, as its API words
// it: {"message", "type", "param", "code"}, and no GET /version.
func TestOpenAIDialectRefusesAsOpenAIDoes(t *testing.T) {
	srv := openAIServer(t, 0)
	status, reply := postChat(t, srv, map[string]any{"model": "gpt-5.4", "max_tokens": 100,
		"messages": []map[string]string{{"role": "user", "content": "hi"}}})
	want := map[string]any{"error": map[string]any{"type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter",
		"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}}
	if diff := cmp.Diff(want, reply); status != http.StatusBadRequest || diff != "" {
		t.Fatalf("status %d, reply (-want +got):\n%s", status, diff)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/version", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("GET /version: status %d, want 404", rec.Code)
	}
}

// A hosted reasoning model that reasons past its max_completion_tokens
// answers as OpenAI documents: empty content, finish_reason length, the
// whole budget counted and nearly all of it as reasoning; with room, the
// answer follows the hidden reasoning, which is counted.
func TestHiddenReasoningSpendsTheBudget(t *testing.T) {
	srv := openAIServer(t, 500)
	ask := func(budget int) map[string]any {
		status, reply := postChat(t, srv, map[string]any{"model": "gpt-5.4", "max_completion_tokens": budget, "messages": []map[string]string{
			{"role": "system", "content": prompts.AlignSystem()}, {"role": "user", "content": "<<<DAG\n{}\nDAG>>>\n<<<TRACE\nx = 2\nTRACE>>>"}}})
		if status != http.StatusOK {
			t.Fatalf("budget %d: status %d: %v", budget, status, reply)
		}
		return reply
	}
	type shape struct {
		Content    string
		Finish     string
		Completion float64
		Reasoning  float64
	}
	read := func(r map[string]any) shape {
		c := r["choices"].([]any)[0].(map[string]any)
		u := r["usage"].(map[string]any)
		return shape{Content: c["message"].(map[string]any)["content"].(string), Finish: c["finish_reason"].(string),
			Completion: u["completion_tokens"].(float64), Reasoning: u["completion_tokens_details"].(map[string]any)["reasoning_tokens"].(float64)}
	}
	spent := read(ask(300))
	if spent.Content != "" || spent.Finish != "length" || spent.Completion != 300 || spent.Reasoning < 0.9*300 || spent.Reasoning > 300 {
		t.Errorf("budget 300: %+v, want no content, finish_reason length, 300 tokens nearly all reasoning", spent)
	}
	room := read(ask(2000))
	if room.Content == "" || room.Finish != "stop" || room.Reasoning < 500 || room.Completion > 2000 || room.Completion <= room.Reasoning {
		t.Errorf("budget 2000: %+v, want an answer after 500 tokens of reasoning", room)
	}
}
