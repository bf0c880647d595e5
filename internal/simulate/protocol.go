package simulate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// A refusal is a 4xx answer a real server gives to a request it will not
// serve, with its status, error type and message, and for OpenAI the
// parameter at fault and the error code (empty: null).
type refusal struct {
	status  int
	typ     string
	message string
	param   string
	code    string
}

// write answers the refusal: OpenAI's error object ({"message", "type",
// "param", "code"}, null where it names none), or vLLM's.
func (no *refusal) write(w http.ResponseWriter, openAI bool) {
	if !openAI {
		writeError(w, no.status, no.typ, no.message)
		return
	}
	orNull := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	writeJSON(w, no.status, map[string]any{"error": map[string]any{"message": no.message, "type": no.typ, "param": orNull(no.param), "code": orNull(no.code)}})
}

// vllmRefusal is what vLLM's OpenAI server refuses of a request: a chat
// template in the request unless the server trusts them, a top_k that is
// neither -1 nor at least 1, and a prompt and budget beyond max_model_len.
func (s *Server) vllmRefusal(req request, chat bool, promptTokens int) *refusal {
	if chat && req.ChatTemplate != nil && !s.cfg.TrustRequestChatTemplate {
		return &refusal{status: http.StatusBadRequest, typ: "BadRequestError", message: "Chat template is passed with request, but --trust-request-chat-template is not set. Refused request with untrusted chat template."}
	}
	if req.TopK != nil && (*req.TopK == 0 || *req.TopK < -1) {
		return &refusal{status: http.StatusBadRequest, typ: "BadRequestError", message: fmt.Sprintf("top_k must be -1 (disable), or at least 1, got %d.", *req.TopK)}
	}
	if req.MaxTokens != nil && promptTokens+*req.MaxTokens > s.cfg.MaxModelLen {
		return &refusal{status: http.StatusBadRequest, typ: "BadRequestError", message: fmt.Sprintf(
			"This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
			s.cfg.MaxModelLen, promptTokens+*req.MaxTokens, promptTokens, *req.MaxTokens)}
	}
	return nil
}

// openAIChatFields are the request fields OpenAI's chat API knows; it
// refuses any other.
var openAIChatFields = map[string]bool{
	"model": true, "messages": true, "max_tokens": true, "max_completion_tokens": true,
	"temperature": true, "top_p": true, "seed": true, "stop": true, "n": true, "stream": true,
	"stream_options": true, "presence_penalty": true, "frequency_penalty": true, "logprobs": true,
	"top_logprobs": true, "response_format": true, "user": true, "reasoning_effort": true,
	"service_tier": true, "store": true, "metadata": true, "verbosity": true, "logit_bias": true,
}

// openAIRefusal is what OpenAI's API refuses: the completions endpoint for
// its chat models, fields it does not know, and, for a reasoning model,
// max_tokens and sampling values other than the default.
func openAIRefusal(body []byte, req request, chat bool) *refusal {
	bad := func(msg string) *refusal {
		return &refusal{status: http.StatusBadRequest, typ: "invalid_request_error", message: msg}
	}
	unsupported := func(param, code, msg string) *refusal {
		return &refusal{status: http.StatusBadRequest, typ: "invalid_request_error", message: msg, param: param, code: code}
	}
	if !chat {
		return &refusal{status: http.StatusNotFound, typ: "invalid_request_error", message: "This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return bad("We could not parse the JSON body of your request.")
	}
	var unknown []string
	for k := range fields {
		if !openAIChatFields[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return bad("Unrecognized request argument supplied: " + strings.Join(unknown, ", "))
	}
	if !isReasoningModel(req.Model) {
		if _, ok := fields["reasoning_effort"]; ok {
			return bad(fmt.Sprintf("Unrecognized request argument supplied: reasoning_effort (model %s does not reason)", req.Model))
		}
		return nil
	}
	if _, ok := fields["max_tokens"]; ok {
		return unsupported("max_tokens", "unsupported_parameter", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
	}
	if _, ok := fields["stop"]; ok {
		return unsupported("stop", "unsupported_parameter", "Unsupported parameter: 'stop' is not supported with this model.")
	}
	for _, name := range []string{"temperature", "top_p"} {
		v := map[string]*float64{"temperature": req.Temperature, "top_p": req.TopP}[name]
		if v != nil && *v != 1 {
			return unsupported(name, "unsupported_value", fmt.Sprintf("Unsupported value: '%s' does not support %v with this model. Only the default (1) value is supported.", name, *v))
		}
	}
	return nil
}

// isReasoningModel names OpenAI's reasoning models: the o-series and GPT-5
// and later, by their published name prefixes. Written apart from
// llm.IsReasoningModel on purpose: the simulator stands in for OpenAI's
// server, so a mistake in datg's client must not be shared by the server
// that tests it.
func isReasoningModel(model string) bool {
	m := strings.ToLower(model)
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+".") {
			return true
		}
	}
	return false
}
