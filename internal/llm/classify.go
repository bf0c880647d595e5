package llm

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// outcome is what a failed attempt says about the endpoint and the request.
type outcome int

const (
	succeeded  outcome = iota
	faulted            // transport error, 5xx or malformed body: the endpoint is unhealthy, try elsewhere
	overloaded         // 429: the endpoint is alive but busy, wait and retry
	rejected           // this request is refused (400, 413, 422, ...)
	fatal              // the run is refused (401, 403, 404)
	canceled           // the caller gave up, or the request's deadline passed
	unsendable         // refused before any HTTP request was sent: the request's own fault, no server's
	timedOut           // no answer within the attempt's time: retried, but not held against the endpoint
	quota              // the account has no quota left: the run stops
)

func classify(ctx context.Context, err error, ex *exchange) outcome {
	if err == nil {
		return succeeded
	}
	if ctx.Err() != nil {
		return canceled
	}
	if ex != nil && !ex.sent {
		return unsendable
	}
	if errors.Is(err, errAttemptTimeout) {
		return timedOut
	}
	status := 0
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	case ex != nil:
		status = ex.status
	}
	switch {
	case status == 0:
		return faulted // no HTTP answer: refused, reset, dropped, timed out
	case status >= 200 && status < 300:
		return faulted // answered, but not with a usable body
	case status == http.StatusTooManyRequests && apiErr != nil && (apiErr.Code == "insufficient_quota" || apiErr.Type == "insufficient_quota"):
		return quota
	case status == http.StatusTooManyRequests:
		return overloaded
	case status == http.StatusRequestTimeout || status >= 500:
		return faulted
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusNotFound:
		return fatal
	}
	return rejected
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(ex *exchange) time.Duration {
	if ex == nil || ex.header == nil {
		return 0
	}
	s, err := strconv.Atoi(ex.header.Get("Retry-After"))
	if err != nil || s <= 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}
