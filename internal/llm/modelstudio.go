package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Alibaba Cloud Model Studio (DashScope's OpenAI-compatible mode) is where
// the paper's reference model, Qwen3.6-Plus, is served. What datg sends it
// follows Model Studio's public documentation:
//
//   - OpenAI Chat API reference: base URLs per region
//     (https://dashscope-intl.aliyuncs.com/compatible-mode/v1 for
//     Singapore, dashscope-us for Virginia, dashscope for Beijing), the
//     chat/completions endpoint, max_tokens, temperature, top_p, seed,
//     stop, stream and stream_options
//     (https://www.alibabacloud.com/help/en/model-studio/qwen-api-via-openai-chat-completions,
//     https://docs.qwencloud.com/api-reference/chat/openai-chat);
//   - Deep thinking: enable_thinking (a top-level body field, which
//     OpenAI's SDKs send through extra_body) switches a hybrid model's
//     thinking on; the reasoning comes back in reasoning_content, the
//     answer in content; thinking_budget caps the reasoning tokens; Qwen3.5
//     and later think by default (https://www.alibabacloud.com/help/en/model-studio/deep-thinking,
//     https://docs.qwencloud.com/developer-guides/text-generation/thinking);
//   - Error codes: a thinking request that is not streamed is refused,
//     400 invalid_parameter_error "parameter.enable_thinking must be set
//     to false for non-streaming calls", and a thinking_budget out of
//     range likewise (https://www.alibabacloud.com/help/en/model-studio/error-code);
//   - Completions: the compatible completions endpoint serves only Qwen
//     Coder models (https://www.alibabacloud.com/help/en/model-studio/completions).
//
// So datg asks Model Studio for thinking explicitly and always streams
// such a request (stream_options.include_usage, so the last event counts
// the tokens), then puts the events back together into one reply
// (assembleStream) that is checked like any other.
const (
	// ServerModelStudio is Model Studio's OpenAI-compatible API.
	ServerModelStudio = "modelstudio"
	// WireThinkingStream is a chat request to Model Studio with thinking
	// on (enable_thinking true), streamed: Pool.Shape sets it for every
	// request to a modelstudio server.
	WireThinkingStream = "modelstudio-thinking"
)

// shapeModelStudio puts a request into the form Model Studio takes: chat
// only, no vLLM fields, no OpenAI reasoning_effort, thinking on and
// streamed. Errors are ErrBadRequestConfig: nothing is sent.
func (o Options) shapeModelStudio(req Request) (Request, error) {
	var problems []string
	if req.API != APIChat {
		problems = append(problems, "Model Studio's completions endpoint serves only Qwen Coder models: use the chat API")
	}
	if o.ReasoningEffort != "" {
		problems = append(problems, "reasoning_effort is OpenAI's; Model Studio's thinking is enable_thinking, which datg always sends")
	}
	var extra []string
	for k := range req.Extra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		problems = append(problems, fmt.Sprintf("Model Studio takes none of vLLM's fields (%s)", strings.Join(extra, ", ")))
	}
	if len(problems) > 0 {
		return req, fmt.Errorf("%w: %s: %s", ErrBadRequestConfig, req.describe(), strings.Join(problems, "; "))
	}
	req.Wire = WireThinkingStream
	return req, nil
}

// thinkingStreamBody is a Model Studio request as sent: the chat request
// with thinking on, streamed, the usage asked of the last event.
func thinkingStreamBody(req Request) ([]byte, error) {
	body := map[string]any{
		"model": req.Model, "messages": req.Messages,
		"temperature": req.Temperature, "top_p": req.TopP,
		"enable_thinking": true, "stream": true,
		"stream_options": map[string]any{"include_usage": true},
	}
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if req.Seed != nil {
		body["seed"] = *req.Seed
	}
	if len(req.Stop) > 0 {
		body["stop"] = req.Stop
	}
	return json.Marshal(body)
}

// sendThinkingStream posts a WireThinkingStream request through the
// endpoint's HTTP client (the same watchdog, redirect rule and exchange as
// every request: a stream that stalls is cut like any slow body) and
// leaves in ex.body the reply the events make, for acceptReply to read.
func (e *endpoint) sendThinkingStream(ctx context.Context, req Request, ex *exchange) error {
	ex.extra = nil // the body is whole
	body, err := thinkingStreamBody(req)
	if err != nil {
		return err
	}
	resp, err := e.postJSON(ctx, "/chat/completions", body, "text/event-stream", ex)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	reply, err := assembleStream(ex.body, e.key)
	if err != nil {
		return err
	}
	ex.body = reply
	return nil
}
