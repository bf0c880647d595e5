package llm

import "time"

// A request's deadline, unless Options.RequestDeadline sets it, grows with
// what the request asks for: deadlineFloor plus deadlinePerToken for each
// token of max_tokens (a 16k-token generation gets 51 minutes, an average
// of 6.7 tokens a second over all its attempts), at most deadlineCeiling,
// and never less than one attempt's RequestTimeout.
const (
	deadlineFloor    = 10 * time.Minute
	deadlinePerToken = 150 * time.Millisecond
	deadlineCeiling  = 2 * time.Hour
)

// attemptTimeout is how long one attempt may wait for its answer:
// Options.RequestTimeout when set, else as long as the request's deadline
// (a 16k-token generation on a loaded GPU takes most of an hour, and a
// fixed limit would cut it and start it again from zero).
func attemptTimeout(req Request, o Options) time.Duration {
	if o.RequestTimeout > 0 {
		return o.RequestTimeout
	}
	return requestDeadline(req, o)
}

// requestDeadline is how long one request may take from its first attempt
// to its answer, retries and pauses included.
func requestDeadline(req Request, o Options) time.Duration {
	if o.RequestDeadline > 0 {
		return o.RequestDeadline
	}
	d := deadlineCeiling // no max_tokens: the server decides how long it writes
	if req.MaxTokens > 0 && req.MaxTokens < int((deadlineCeiling-deadlineFloor)/deadlinePerToken) {
		d = deadlineFloor + time.Duration(req.MaxTokens)*deadlinePerToken
	}
	return max(d, o.RequestTimeout)
}
