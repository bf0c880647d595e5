package llm

import (
	"errors"
	"fmt"

	"github.com/datg/datg/internal/inputerr"
)

// ErrNoEndpoint means no endpoint of the pool answers: each has failed
// repeatedly and none has recovered within the pool's patience.
var ErrNoEndpoint = errors.New("no endpoint answers")

// ErrGaveUp means one request failed on every attempt it was allowed.
var ErrGaveUp = errors.New("request failed on every attempt")

// ErrFatal means the servers refuse the run itself (bad API key, unknown
// model or path): retrying cannot help and the stage should stop.
var ErrFatal = errors.New("the server refuses the run")

// ErrRejected means the server refused this one request (HTTP 400, 413,
// 422, ...); other requests may still succeed.
var ErrRejected = errors.New("the server rejected the request")

// ErrMalformed means a server answered with a body that is not a usable
// response, one no vLLM or OpenAI server gives: bad JSON (not UTF-8, a
// lone surrogate escape, a key given twice), no choices or more than one,
// no text (null, missing, or empty where the model did not stop at once),
// no usage or finish_reason, a finish_reason that ends no answer, or token
// counts no server could have counted (text with none, more than
// max_tokens, negative). See the package doc for the whole list.
var ErrMalformed = errors.New("malformed response")

// ErrBadRequestConfig means a request cannot be sent as configured: the
// client library refused it or its body cannot be encoded (a temperature of
// 1e300 or NaN, a model go-openai does not allow on that API). No server saw
// it, so no endpoint is blamed and nothing is retried; it is an
// inputerr.ErrInvalidConfig, so datg exits with status 2.
var ErrBadRequestConfig = fmt.Errorf("%w: the request cannot be sent", inputerr.ErrInvalidConfig)

// ErrCrossOriginRedirect means an endpoint redirected a request to another
// origin (scheme, host or port). The pool never follows such a redirect: it
// would carry the API key to a server it was not given to.
var ErrCrossOriginRedirect = errors.New("redirect to another origin refused (it would carry the API key there); give the endpoint's final URL instead")

// ErrSlowResponse means a response, once it started, stalled or trickled in
// far slower than any real server sends one.
var ErrSlowResponse = errors.New("response stalled or trickled")

// ErrRequestDeadline means one request found no answer within its
// wall-clock deadline, all attempts and pauses included.
var ErrRequestDeadline = errors.New("request deadline exceeded")

// ErrFailedRequests means some requests of a stage failed for good (each
// was rejected or failed on every attempt); the responses that finished are
// journaled and a rerun retries only the failed ones.
var ErrFailedRequests = errors.New("some requests failed")

// ErrNoTokenIDs means a server answered a request that asked for the
// generated token ids (vLLM's return_token_ids, vLLM 0.10.2 and later)
// without them.
var ErrNoTokenIDs = errors.New("the server returned no token ids (vLLM returns them on return_token_ids from 0.10.2)")

// ErrQuota means the API account has no quota or credit left (OpenAI's
// insufficient_quota, sent as a 429): waiting does not help, so the run
// stops. Finished calls are journaled; a rerun after topping up resumes.
var ErrQuota = errors.New("the API account has no quota left (insufficient_quota): add credit or use another key, then run again (finished calls are kept)")

// ErrBudgetSpentReasoning means an OpenAI reasoning model spent the whole
// max_completion_tokens on reasoning and returned no answer, also when
// asked once more with a larger budget (up to MaxReasoningBudget). It
// fails the request (it wraps into ErrRejected) unless the request keeps
// such replies (Request.KeepSpent); raise the budget or lower the
// reasoning effort.
var ErrBudgetSpentReasoning = errors.New("the reasoning model spent its whole budget reasoning (raise the token budget or lower the reasoning effort)")

// errAttemptTimeout ends one attempt that found no answer within its time
// (attemptTimeout). A long generation can outlast it on a loaded server,
// so it is not held against the endpoint: the request is retried.
var errAttemptTimeout = errors.New("no answer within the attempt's time limit")

// ErrUntrustedTemplate means a vLLM server refused the chat template datg
// sends with each chat request: it was not started with
// --trust-request-chat-template (scripts/serve_vllm.sh starts it so), or
// use the completions API, which needs no template.
var ErrUntrustedTemplate = errors.New("the server refuses request chat templates: start vLLM with --trust-request-chat-template (scripts/serve_vllm.sh does), or use the completions API")

// ErrBatchUnsupported means --batch was asked of servers without OpenAI's
// Batch API (vLLM has no /v1/batches): a configuration error (it comes
// wrapped in inputerr.Invalid).
var ErrBatchUnsupported = errors.New("a batch needs OpenAI's Batch API (the server must be openai: an OpenAI-compatible server that has /v1/batches; vLLM has none)")

// ErrBatchFailed means a batch ended in status failed (OpenAI refused the
// whole input file, e.g. its enqueued token limit was reached): nothing in
// it was answered. A rerun submits its requests in a new batch.
var ErrBatchFailed = errors.New("the batch failed")

// ErrBatchUnanswered means no batch answered a request within the rounds
// allowed (each round resubmits what failed or expired). It fails that
// request only (it wraps ErrGaveUp); a rerun submits it again.
var ErrBatchUnanswered = fmt.Errorf("%w: no batch answered it", ErrGaveUp)

// ErrBatchLog means the journal's batch log (batches.jsonl) holds a line
// that cannot be read: datg cannot tell which batches it already created.
var ErrBatchLog = errors.New("unreadable batch log")
