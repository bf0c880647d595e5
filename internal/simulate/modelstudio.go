package simulate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Model Studio's dialect (DialectModelStudio) answers and refuses as
// Alibaba Cloud Model Studio's OpenAI-compatible mode documents, the way
// the paper's reference model Qwen3.6-Plus is served:
//
//   - thinking is asked with enable_thinking, a top-level body field; the
//     Qwen3.5 and later models think when it is absent, QwQ and the
//     -thinking models always do (deep thinking guide,
//     https://www.alibabacloud.com/help/en/model-studio/deep-thinking and
//     https://docs.qwencloud.com/developer-guides/text-generation/thinking);
//   - a thinking request that is not streamed is refused, 400
//     invalid_parameter_error "parameter.enable_thinking must be set to
//     false for non-streaming calls"; so is a thinking_budget that is not a
//     positive integer within the model's longest chain of thought, and a
//     max_tokens outside [1, the model's longest answer] (error codes,
//     https://www.alibabacloud.com/help/en/model-studio/error-code); the
//     error body is {"error": {"code", "param", "message", "type"}, "id",
//     "request_id"};
//   - the reasoning comes in reasoning_content, the answer in content;
//     streamed, each chunk's delta carries one of them (the other null),
//     the last choice chunk the finish_reason, and, when
//     stream_options.include_usage, a final chunk with no choices carries
//     the usage, completion_tokens_details.reasoning_tokens included, then
//     data: [DONE] (the chunk object of the API reference);
//   - thinking_budget caps the reasoning (the model then answers at once)
//     and max_tokens the answer;
//   - the compatible completions endpoint serves only Qwen Coder models
//     (https://www.alibabacloud.com/help/en/model-studio/completions);
//   - the base URL ends in /compatible-mode/v1; there is no /version.
//
// The limits below stand in for the model list's per-model figures.
const (
	modelStudioMaxThinking = 81920 // longest chain of thought (thinking_budget's upper bound)
	modelStudioMaxAnswer   = 65536 // longest answer (max_tokens' upper bound)
	// modelStudioPrefix is the path Model Studio's compatible mode lives
	// under; the dialect also serves without it (pipelinetest's /v1).
	modelStudioPrefix = "/compatible-mode"
)

// basePath is the path of the endpoints' base URL: /v1, under
// /compatible-mode for Model Studio's dialect.
func (c Config) basePath() string {
	if c.Dialect == DialectModelStudio {
		return modelStudioPrefix + "/v1"
	}
	return "/v1"
}

// modelStudioThinks reports whether Model Studio thinks on this request.
func modelStudioThinks(req request) bool {
	m := strings.ToLower(req.Model)
	if strings.HasPrefix(m, "qwq") || strings.Contains(m, "-thinking") {
		return true
	}
	if req.EnableThinking != nil {
		return *req.EnableThinking
	}
	return strings.HasPrefix(m, "qwen3.5") || strings.HasPrefix(m, "qwen3.6")
}

// modelStudioRefusal is what Model Studio refuses of a request.
func modelStudioRefusal(req request, chat bool) *refusal {
	bad := func(msg string) *refusal {
		return &refusal{status: http.StatusBadRequest, typ: "invalid_parameter_error", message: msg}
	}
	if !chat && !strings.Contains(strings.ToLower(req.Model), "coder") {
		// The documentation lists the models the endpoint serves, not the
		// words of its refusal: these are the simulator's.
		return bad(fmt.Sprintf("The model %s is not supported by the Completions API, which serves Qwen Coder models only.", req.Model))
	}
	if chat && modelStudioThinks(req) && !req.Stream {
		return bad("parameter.enable_thinking must be set to false for non-streaming calls")
	}
	if len(req.ThinkingBudget) > 0 && string(req.ThinkingBudget) != "null" {
		var n int
		if json.Unmarshal(req.ThinkingBudget, &n) != nil || n < 1 || n > modelStudioMaxThinking {
			return bad(fmt.Sprintf("The thinking_budget parameter must be a positive integer and not greater than %d", modelStudioMaxThinking))
		}
	}
	if req.MaxTokens != nil && (*req.MaxTokens < 1 || *req.MaxTokens > modelStudioMaxAnswer) {
		return bad(fmt.Sprintf("Range of max_tokens should be [1, %d]", modelStudioMaxAnswer))
	}
	return nil
}

// writeModelStudioError writes a refusal in Model Studio's error body.
func writeModelStudioError(w http.ResponseWriter, no *refusal) {
	writeJSON(w, no.status, map[string]any{
		"error": map[string]any{"code": no.typ, "param": nil, "message": no.message, "type": "invalid_request_error"},
		"id":    "chatcmpl-sim", "request_id": "sim-request",
	})
}

// thoughtThenWritten is a reference derivation as a thinking model on
// Model Studio gives it: the raw reasoning, which goes back over its work
// before settling, then a written solution restating the steps and the
// boxed answer.
func (g generation) thoughtThenWritten() generation {
	body := strings.TrimSuffix(strings.TrimPrefix(g.Reasoning, "<think>\n"), "\n</think>")
	steps := strings.TrimPrefix(body, "Let me work through the problem step by step.")
	out := reply(body+" Wait, let me go over each step once more before I write it up. Yes, it holds.",
		"Solution."+steps+"\n\n"+strings.TrimPrefix(g.Answer, "\n\n"))
	out.Outcome, out.Correct = g.Outcome, g.Correct
	return out
}

// modelStudioParts splits a generation into what Model Studio returns:
// the reasoning (empty when the request does not think) and the answer,
// the reasoning cut at thinking_budget and the answer at max_tokens (then
// finish_reason length).
func modelStudioParts(req request, g generation) (reasoning string, answer []string, finish string) {
	r, c := g.split()
	content := ""
	if c != nil {
		content = strings.TrimLeft(*c, "\n")
	}
	r = strings.Trim(r, "\n")
	finish = g.FinishReason
	if !modelStudioThinks(req) {
		// Without thinking the model writes what it would have thought.
		content = strings.TrimSpace(r + "\n\n" + content)
		r = ""
	} else if r == "" {
		r = "Let me plan the answer."
	}
	if budget := req.thinkingBudget(); budget > 0 {
		if toks := tokenize(r); len(toks) > budget {
			r = strings.Join(toks[:budget], "")
		}
	}
	answer = tokenize(content)
	if req.MaxTokens != nil && len(answer) > *req.MaxTokens {
		answer, finish = answer[:*req.MaxTokens], "length"
	}
	return r, answer, finish
}

// thinkingBudget is the request's thinking_budget (0: none).
func (req request) thinkingBudget() int {
	var n int
	if json.Unmarshal(req.ThinkingBudget, &n) != nil {
		return 0
	}
	return n
}

// modelStudioUsage counts a reply's tokens as Model Studio does.
func modelStudioUsage(promptTokens int, reasoning string, answer []string) map[string]any {
	rt := len(tokenize(reasoning))
	n := rt + len(answer)
	return map[string]any{"prompt_tokens": promptTokens, "completion_tokens": n, "total_tokens": promptTokens + n,
		"completion_tokens_details": map[string]any{"reasoning_tokens": rt}, "prompt_tokens_details": map[string]any{"cached_tokens": 0}}
}

// modelStudioResponse is a non-streamed chat completion in Model Studio's
// shape (a request that does not think).
func (s *Server) modelStudioResponse(req request, g generation, promptTokens int) map[string]any {
	reasoning, answer, finish := modelStudioParts(req, g)
	msg := map[string]any{"role": "assistant", "content": strings.Join(answer, "")}
	if reasoning != "" {
		msg["reasoning_content"] = reasoning
	}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}
	return map[string]any{"id": "chatcmpl-sim", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{choice}, "usage": modelStudioUsage(promptTokens, reasoning, answer), "system_fingerprint": nil}
}

// modelStudioStream writes the generation as Model Studio streams it:
// reasoning_content deltas, then content deltas, a few tokens a chunk.
func (s *Server) modelStudioStream(w http.ResponseWriter, r *http.Request, req request, g generation, promptTokens int) bool {
	reasoning, answer, finish := modelStudioParts(req, g)
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	created := time.Now().Unix()
	send := func(choices []any, usage any) bool {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-sim", "object": "chat.completion.chunk", "created": created,
			"model": req.Model, "system_fingerprint": nil, "choices": choices, "usage": usage})
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	delta := func(content, reasoningContent any, finish any) []any {
		return []any{map[string]any{"index": 0, "logprobs": nil, "finish_reason": finish,
			"delta": map[string]any{"content": content, "reasoning_content": reasoningContent}}}
	}
	if !sleepCtx(r.Context(), s.cfg.Latency) {
		return false
	}
	first := map[string]any{"index": 0, "logprobs": nil, "finish_reason": nil, "delta": map[string]any{"role": "assistant", "content": nil, "reasoning_content": ""}}
	if !send([]any{first}, nil) {
		return false
	}
	const per = 8
	chunks := func(toks []string, asReasoning bool) bool {
		for i := 0; i < len(toks); i += per {
			part := strings.Join(toks[i:min(i+per, len(toks))], "")
			d := delta(part, nil, nil)
			if asReasoning {
				d = delta(nil, part, nil)
			}
			if !send(d, nil) || !sleepCtx(r.Context(), time.Duration(min(per, len(toks)-i))*s.cfg.TokenLatency) {
				return false
			}
		}
		return true
	}
	if !chunks(tokenize(reasoning), true) || !chunks(answer, false) || !send(delta("", nil, finish), nil) {
		return false
	}
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage && !send([]any{}, modelStudioUsage(promptTokens, reasoning, answer)) {
		return false
	}
	_, err := fmt.Fprint(w, "data: [DONE]\n\n")
	return err == nil
}
