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
package llm
