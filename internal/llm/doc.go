// Package llm makes every LLM call of datg: OpenAI-compatible requests sent
// through go-openai to a pool of endpoints (one vLLM server per GPU, or any
// hosted API), with per-endpoint concurrency limits, retries with capped
// exponential backoff, routing around dead endpoints, and a journal that
// makes each finished call durable and never paid for twice.
//
// vLLM accepts sampling fields the OpenAI API does not have (repetition_penalty,
// top_k, return_token_ids, continue_final_message, ...). go-openai has no field
// for them, so the pool gives go-openai an HTTP client that splices a request's
// Extra fields into the JSON body and keeps the raw response, from which the
// fields go-openai drops (reasoning, token ids) are read back.
//
// What a server answers is checked before it counts, and only a checked
// answer is journaled. A 200 reply is malformed (ErrMalformed: an endpoint
// fault, retried elsewhere, and when every attempt gets one the request
// fails naming the endpoint and what was wrong) when it is not what vLLM's
// OpenAI server or OpenAI's API send for a request of one choice, not
// streamed:
//
//   - its body is not UTF-8, escapes a UTF-16 surrogate without its pair
//     (encoding/json would read either as U+FFFD), or names a key twice in
//     one object (encoding/json would keep the last);
//   - it has no choices, or more than one;
//   - its text is null or missing (for chat: content and reasoning both;
//     content null beside a reasoning is vLLM's reasoning parser saying
//     nothing followed </think>, and is kept), or empty where the model did
//     not stop at once (finish_reason stop after at most a few tokens: the
//     end of sequence or a stop string) and is not an OpenAI reasoning
//     model that spent its budget reasoning (finish_reason length, the
//     reasoning counted: kept, and asked again with a larger budget, see
//     SpentOnReasoning);
//   - it has no finish_reason, or one that ends no answer: anything but
//     vLLM's stop, length, repetition and OpenAI's stop, length,
//     content_filter, tool_calls, function_call (vLLM's abort and error
//     end no answer);
//   - it has no usage (both servers count every reply), text with 0
//     completion tokens, more completion tokens than max_tokens (for
//     OpenAI's reasoning models max_completion_tokens, which counts the
//     reasoning they do not show; without a max_tokens, twice the text's
//     bytes), reasoning_tokens beyond completion_tokens, token ids that
//     are not the completion tokens, or a prompt count beyond twice the
//     prompt's bytes plus a template's worth (no count past 2^31).
//
// Alibaba Cloud Model Studio (ServerModelStudio) refuses thinking without
// streaming, so its requests are streamed (modelstudio.go) and the events
// put back together into the reply a non-streamed request would have had
// before these checks; a stream cut before data: [DONE], or with an event
// no server sends, is malformed likewise.
//
// A journaled record that fails the checks a response can still be put to
// (written by an older datg) counts as absent: the request is sent again
// and its answer journaled under a replacement key.
//
// What a server says is data: an error or log line quotes it with control
// characters (ESC, BEL, the C0 and C1 codes, DEL), invalid UTF-8 and
// bidirectional overrides escaped, cut to 1 KB with its length, and the
// API key redacted before the cut (serverText).
//
// A request that cannot be sent as it is (a temperature of 1e300 or NaN, a
// field JSON cannot encode, a model go-openai refuses on that API) fails at
// once with ErrBadRequestConfig, an inputerr.ErrInvalidConfig: no server saw
// it, so no endpoint is blamed and nothing is retried.
//
// What the endpoints are decides each request's form (Options.Shape):
// --server says it, else the host api.openai.com, else the servers
// themselves (Pool.DecideServer: vLLM answers GET /version, an
// OpenAI-compatible API that is not vLLM does not). A 400 refusing the
// form, which every request shares, stops the run (ErrWrongServer). An
// OpenAI reasoning model's budget counts its hidden reasoning
// (ReasoningBudget is the stages' default for it): a reply that spent the
// budget reasoning is journaled and asked once more with twice the budget,
// at most MaxReasoningBudget (Journaled.DoSent).
//
// Redirects are followed only within the endpoint's origin (scheme, host and
// port). Go's client would keep the Authorization header on a redirect to
// another port or scheme of the same host; the pool refuses such a redirect
// instead (ErrCrossOriginRedirect, an endpoint fault naming both origins),
// so the API key never leaves the origin it was given for. Give the final
// URL as the endpoint.
//
// Time is bounded twice. A response may take as long as a generation to
// start, but once its first byte arrived it must keep coming: a pause of
// Options.StallTimeout, or an average below Options.MinResponseRate, fails
// the attempt (ErrSlowResponse, an endpoint fault). And one request, all
// its attempts and pauses included, has a deadline from its first attempt
// (ErrRequestDeadline, a failed request): Options.RequestDeadline, or
// derived from its max_tokens (ten minutes plus 150 ms a token, at most two
// hours, never less than one attempt's RequestTimeout), so a long
// generation on a slow GPU is not cut while a server that never finishes
// cannot hold a request for hours.
package llm
