package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	openai "github.com/sashabaranov/go-openai"
)

// clientRefusals are the errors go-openai returns, before sending anything,
// for model names and fields it believes OpenAI refuses. A vLLM server
// takes them all: it serves whatever name it was given.
var clientRefusals = []error{
	openai.ErrCompletionUnsupportedModel,
	openai.ErrReasoningModelMaxTokensDeprecated,
	openai.ErrReasoningModelLimitationsLogprobs,
	openai.ErrReasoningModelLimitationsOther,
	openai.ErrReasoningSamplingUnsupported,
	openai.ErrReasoningEffortUnsupported,
	openai.ErrO1BetaLimitationsMessageTypes,
	openai.ErrO1BetaLimitationsOther,
}

// refusedByClient reports whether go-openai's own checks refused the request.
func refusedByClient(err error) bool {
	for _, r := range clientRefusals {
		if errors.Is(err, r) {
			return true
		}
	}
	return false
}

// rawBody is the request as vLLM takes it, every field explicit.
func rawBody(req Request) ([]byte, string, error) {
	body := map[string]any{
		"model": req.Model, "max_tokens": req.MaxTokens,
		"temperature": req.Temperature, "top_p": req.TopP,
	}
	if req.Seed != nil {
		body["seed"] = *req.Seed
	}
	if len(req.Stop) > 0 {
		body["stop"] = req.Stop
	}
	path := "/completions"
	if req.API == APIChat {
		path = "/chat/completions"
		body["messages"] = req.Messages
	} else {
		body["prompt"] = req.Prompt
	}
	for k, v := range req.Extra {
		body[k] = v
	}
	b, err := json.Marshal(body)
	return b, path, err
}

// sendRaw posts the request as a raw JSON body through the endpoint's HTTP
// client (the same watchdog, redirect rule and exchange as go-openai's
// requests), for what go-openai refuses to send.
func (e *endpoint) sendRaw(ctx context.Context, req Request) error {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	if ex != nil {
		ex.extra = nil // already in the body
	}
	body, path, err := rawBody(req)
	if err != nil {
		return err
	}
	resp, err := e.postJSON(ctx, path, body, "application/json", ex)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// postJSON posts a JSON body to the endpoint's path through its HTTP
// client, and returns the response of a 2xx status (the caller closes its
// body); another status is the API's error, read from the exchange.
func (e *endpoint) postJSON(ctx context.Context, path string, body []byte, accept string, ex *exchange) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", accept)
	if e.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.doer.Do(hreq)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		resp.Body.Close()
		return nil, rawAPIError(resp.StatusCode, ex)
	}
	return resp, nil
}

// rawAPIError is a non-2xx reply to a raw request as go-openai would have
// reported it, so it is classified the same way.
func rawAPIError(status int, ex *exchange) error {
	apiErr := &openai.APIError{HTTPStatusCode: status, Message: http.StatusText(status)}
	if ex != nil && len(ex.body) > 0 {
		var wrapped struct {
			Error *openai.APIError `json:"error"`
		}
		if json.Unmarshal(ex.body, &wrapped) == nil && wrapped.Error != nil {
			apiErr = wrapped.Error
			apiErr.HTTPStatusCode = status
		}
	}
	return fmt.Errorf("error, status code: %d, message: %w", status, apiErr)
}
