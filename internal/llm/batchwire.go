package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// OpenAI's limits on one batch input file.
const (
	maxBatchLines = 50000
	maxBatchBytes = 190 << 20 // of the 200 MB allowed, a margin for the multipart form
)

// batchLine is one request of a batch input file; it is go-openai's
// BatchLineItem with the body exactly as the online request sends it
// (go-openai's own line types would drop the fields spliced in: a zero
// temperature, vLLM's extra fields).
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// MarshalBatchLineItem implements openai.BatchLineItem.
func (l batchLine) MarshalBatchLineItem() []byte {
	b, _ := json.Marshal(l) // Body is valid JSON: wireBody made it
	return b
}

// batchEndpoint is where a request of this API goes in a batch.
func batchEndpoint(api string) openai.BatchEndpoint {
	if api == APICompletions {
		return openai.BatchEndpointCompletions
	}
	return openai.BatchEndpointChatCompletions
}

// wireBody is the body the online path sends for req: go-openai's
// encoding of its request, with the fields go-openai cannot express
// spliced in (extraFields), byte for byte what endpoint.call sends.
func wireBody(req Request) ([]byte, error) {
	var v any
	switch req.API {
	case APIChat:
		v = chatRequest(req)
	case APICompletions:
		v = completionRequest(req)
	default:
		return nil, fmt.Errorf("unknown API %q", req.API)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if extra := extraFields(req); len(extra) > 0 {
		return spliceFields(b, extra)
	}
	return b, nil
}

// errNotSent is how clientRefusal's HTTP client declines every request.
var errNotSent = errors.New("not sent: a check of the request only")

// notSending is an HTTP client that sends nothing.
type notSending struct{}

func (notSending) Do(*http.Request) (*http.Response, error) { return nil, errNotSent }

// clientRefusal is what the online path's client refuses of a shaped
// request before sending it: go-openai's checks of model names and fields
// (a reasoning effort the model does not take, a chat model on
// completions), run through endpoint.send as an online request is, over
// an HTTP client that sends nothing. The batch path refuses the same
// before uploading, rather than learn it from the batch a day later.
func clientRefusal(req Request) error {
	err := checkingEndpoint().send(context.Background(), req, nil)
	if err == nil || errors.Is(err, errNotSent) {
		return nil
	}
	return fmt.Errorf("%w: %s: %v", ErrBadRequestConfig, req.describe(), err)
}

// checkingEndpoint is the endpoint clientRefusal sends through.
var checkingEndpoint = sync.OnceValue(func() *endpoint {
	cfg := openai.DefaultConfig("")
	cfg.BaseURL = "http://127.0.0.1/v1" // never dialed: notSending
	cfg.HTTPClient = notSending{}
	return &endpoint{client: openai.NewClientWithConfig(cfg)}
})

// newBatchLine is the input line of req, identified by its journal key.
func newBatchLine(req Request) (batchLine, error) {
	body, err := wireBody(req)
	if err != nil {
		return batchLine{}, fmt.Errorf("%w: %s: %v", ErrBadRequestConfig, req.describe(), err)
	}
	return batchLine{CustomID: req.Key().String(), Method: http.MethodPost, URL: string(batchEndpoint(req.API)), Body: body}, nil
}

// batchResult is one line of a batch output or error file.
type batchResult struct {
	ID       string `json:"id"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// failure says why a result line holds no answer.
func (r batchResult) failure() string {
	return printable(r.describeFailure(), maxQuotedBytes) // the server's words
}

func (r batchResult) describeFailure() string {
	switch {
	case r.Error != nil:
		return fmt.Sprintf("%s: %s", r.Error.Code, r.Error.Message)
	case r.Response == nil:
		return "no response and no error"
	}
	var e struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(r.Response.Body, &e) == nil && e.Error != nil {
		return fmt.Sprintf("status %d: %s: %s", r.Response.StatusCode, e.Error.Type, e.Error.Message)
	}
	return fmt.Sprintf("status %d", r.Response.StatusCode)
}

// rejectedStatus reports whether a line's status refuses the request
// itself (400, 413, 422, ...): sending it again would be refused again.
func rejectedStatus(code int) bool {
	return code >= 400 && code < 500 && code != http.StatusRequestTimeout && code != http.StatusTooManyRequests
}
