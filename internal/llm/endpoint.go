package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// endpoint is one OpenAI-compatible server and its health. Its fields are
// guarded by the pool's mutex.
type endpoint struct {
	url    string // base URL ending in /v1, without credentials
	client *openai.Client
	doer   doer   // the HTTP client under client, for raw requests
	key    string `json:"-"`

	inflight    int
	consecFault int
	everOK      bool
	trips       int       // consecutive times taken out of rotation
	downUntil   time.Time // zero while in rotation
	downSince   time.Time
	probing     bool
	lastErr     error

	requests, faults int64
}

// NormalizeURL turns "http://host:8000" or "http://host:8000/v1/" into the
// base URL go-openai expects ("http://host:8000/v1").
func NormalizeURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("endpoint %q is not an http(s) URL", Redact(raw))
	}
	if u.User != nil {
		return "", fmt.Errorf("endpoint %s carries credentials; pass the key through the environment", Redact(raw))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path += "/v1"
	}
	return u.String(), nil
}

// Redact strips credentials from a URL-like string.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = url.User("REDACTED")
	return u.String()
}

func newEndpoint(base string, o Options) *endpoint {
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: o.SlotsPerEndpoint,
		IdleConnTimeout:     90 * time.Second,
	}
	cfg := openai.DefaultConfig(o.APIKey)
	cfg.BaseURL = base
	d := doer{
		http:  &http.Client{Transport: transport, CheckRedirect: checkRedirect}, // each attempt's context bounds it (attemptTimeout)
		stall: o.StallTimeout, minRate: o.MinResponseRate,
	}
	cfg.HTTPClient = d
	return &endpoint{url: base, client: openai.NewClientWithConfig(cfg), doer: d, key: o.APIKey}
}

// call sends one attempt of the request to this endpoint. The attempt may
// take as long as the request's deadline (attemptTimeout): a long
// generation is not cut by a fixed per-attempt limit.
func (e *endpoint) call(ctx context.Context, req Request, o Options) (Response, *exchange, error) {
	ex := &exchange{extra: extraFields(req)}
	ctx, cancel := context.WithTimeoutCause(ctx, attemptTimeout(req, o), errAttemptTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, exchangeKey{}, ex)
	start := time.Now()
	err := e.send(ctx, req, ex)
	if err != nil && !ex.sent && o.formFor(req.Model) == ServerVLLM && refusedByClient(err) {
		// go-openai's own checks refused a model name or field that vLLM
		// takes (a served model named like an OpenAI one): send the same
		// request as a raw body.
		ex = &exchange{extra: extraFields(req)}
		err = e.sendRaw(context.WithValue(ctx, exchangeKey{}, ex), req)
	}
	var out Response
	if err != nil {
		err = e.cleanServerError(err)
		if ex.body != nil && ex.status >= 200 && ex.status < 300 && !errors.Is(err, ErrMalformed) {
			// Answered in full, but the body could not be decoded (a count
			// beyond int64, a string where a number belongs).
			err = fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if context.Cause(ctx) == errAttemptTimeout && ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", errAttemptTimeout, err)
		}
		return out, ex, err
	}
	if err := acceptReply(ex.body, req, &out); err != nil {
		return out, ex, err
	}
	out.Endpoint = strings.TrimSuffix(e.url, "/v1")
	out.LatencyMS = time.Since(start).Milliseconds()
	out.ReceivedAt = time.Now().UnixMilli()
	return out, ex, nil
}

// acceptReply reads a 200 reply body to req into out and checks it: the
// one path by which an answer, online or from a batch's output file,
// becomes one to keep.
func acceptReply(body []byte, req Request, out *Response) error {
	if err := readReply(body, req.API, out); err != nil {
		return err
	}
	if out.FinishReason == "abort" || out.FinishReason == "error" {
		// vLLM aborted the sequence (preempted, server shutting down): not
		// an answer to keep.
		return fmt.Errorf("generation ended with finish_reason %q: %w", out.FinishReason, ErrMalformed)
	}
	// A reasoning model that spent the whole budget reasoning answers with
	// no text (spentReply): an answer, paid for and kept, not a fault to
	// retry elsewhere; Journaled asks again with a larger budget.
	return checkReply(req, *out)
}

// send sends the request through go-openai, in the wire form it has.
// What go-openai decodes is not used: readReply reads the raw body.
func (e *endpoint) send(ctx context.Context, req Request, ex *exchange) error {
	if req.Wire == WireThinkingStream {
		return e.sendThinkingStream(ctx, req, ex)
	}
	var err error
	switch req.API {
	case APICompletions:
		_, err = e.client.CreateCompletion(ctx, completionRequest(req))
	case APIChat:
		_, err = e.client.CreateChatCompletion(ctx, chatRequest(req))
	default:
		return fmt.Errorf("unknown API %q", req.API)
	}
	return err
}

// completionRequest is a completions request as go-openai sends it.
func completionRequest(req Request) openai.CompletionRequest {
	var seed *int
	if req.Seed != nil {
		s := int(*req.Seed)
		seed = &s
	}
	return openai.CompletionRequest{
		Model: req.Model, Prompt: req.Prompt, MaxTokens: req.MaxTokens,
		Temperature: float32(req.Temperature), TopP: float32(req.TopP), Seed: seed, Stop: req.Stop,
	}
}

// chatRequest is a chat request as go-openai sends it, in its wire form
// (the extra fields are spliced into its body: extraFields).
func chatRequest(req Request) openai.ChatCompletionRequest {
	var seed *int
	if req.Seed != nil {
		s := int(*req.Seed)
		seed = &s
	}
	msgs := make([]openai.ChatCompletionMessage, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	creq := openai.ChatCompletionRequest{Model: req.Model, Messages: msgs, Seed: seed, Stop: req.Stop}
	if req.Wire == WireReasoning {
		creq.MaxCompletionTokens, creq.ReasoningEffort = req.MaxTokens, req.ReasoningEffort
	} else {
		creq.MaxTokens, creq.Temperature, creq.TopP = req.MaxTokens, float32(req.Temperature), float32(req.TopP)
	}
	return creq
}

// extraFields is what go-openai cannot express: the request's Extra fields
// and a zero temperature (go-openai omits zero, and servers then default to 1).
func extraFields(req Request) map[string]any {
	if len(req.Extra) == 0 && (req.Temperature != 0 || req.Wire == WireReasoning) {
		return nil
	}
	m := make(map[string]any, len(req.Extra)+1)
	for k, v := range req.Extra {
		m[k] = v
	}
	if req.Temperature == 0 && req.Wire != WireReasoning {
		m["temperature"] = 0
	}
	return m
}
