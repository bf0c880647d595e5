// Package generate samples the study's reasoning traces from
// OpenAI-compatible servers (vLLM, one per GPU) into the traces table.
//
// It reads DIR/problems.parquet and the study configuration (study.json in
// this directory, or a file of the same shape), and writes DIR/traces.parquet,
// merging by trace_id. Every request is journaled in DIR/journal/llm as soon
// as its response arrives; a rerun, or a run after the process was killed,
// answers finished requests from the journal and sends only the rest.
//
// A query is the paper's direction probe (appendix A): the solver system
// message in the reasoning language, the problem in the input language as
// the user message, and the assistant-side direct-first prefix opening the
// reasoning, rendered with Qwen3's chat template as a raw completion prompt
// (or, with api "chat", sent as chat messages that continue the final
// assistant message).
package generate
