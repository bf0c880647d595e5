// Package simulate is datg's built-in OpenAI-compatible simulator: a
// stand-in for vLLM serving a Qwen3 reasoning model, for tests and the
// offline demo. It is not a model; every answer it gives is synthetic.
//
// It serves /v1/completions and /v1/chat/completions, plain and streamed
// (server-sent events), and /v1/models on loopback. It reads datg's Qwen3
// prompts, finds the requested reasoning language from the direct-first
// prefix, and writes a reasoning trace in that language from a phrase book.
// Given a run directory (it reads DIR/problems.parquet), it knows the gold
// answers and answers correctly with a probability set per level, model size
// and language by a profile; otherwise its answers are random. Failure modes
// of real models are reproduced at configurable rates: repetition loops that
// run to the token budget, reasoning in the wrong language, and no final
// answer. Faults of real servers are injected on request: latency, a bounded
// number of concurrent sequences, HTTP 429 and 5xx answers, dropped
// connections, malformed JSON, 200 replies without text or with garbage
// token counts, and replies trickled out a byte at a time. A fault kind
// left at rate 0 changes nothing: the other kinds hit the same requests.
//
// The same input (prompt, seed, sampling parameters) always gives the same
// output, so reruns and retries are comparable.
package simulate
