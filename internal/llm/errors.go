package llm

import "errors"

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
// response (bad JSON, no choices).
var ErrMalformed = errors.New("malformed response")

// ErrFailedRequests means some requests of a stage failed for good (each
// was rejected or failed on every attempt); the responses that finished are
// journaled and a rerun retries only the failed ones.
var ErrFailedRequests = errors.New("some requests failed")

// ErrNoTokenIDs means a server answered a request that asked for the
// generated token ids (vLLM's return_token_ids, vLLM 0.10.2 and later)
// without them.
var ErrNoTokenIDs = errors.New("the server returned no token ids (vLLM returns them on return_token_ids from 0.10.2)")
