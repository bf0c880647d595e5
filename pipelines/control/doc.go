// Package control runs the paper's test-time controls (section 6 and
// appendix G), Loop-Retry and Formula-Retry, and records every generation
// attempt.
//
// It reads DIR/problems.parquet and writes the final trace of each
// controlled example into DIR/traces.parquet (method loop-retry or
// formula-retry, merged by trace_id beside the base traces, so grading and
// DATG apply unchanged) and every attempt into DIR/trials.parquet: the
// scaffold, aborted continuations and the accepted one, with the tokens each
// decoded and the detector's statistics at the checkpoint.
//
// An example is one (model, direction, language, level, problem, seed) of
// the study. Each trial generates to the checkpoint C = B/4 of the level's
// budget B and asks the server for the generated token ids; the loop
// detector (transforms/loop) reads the last 256 of them. When it does not
// fire, the same trial continues from its own text up to the budget (sent
// to the endpoint that holds the prefix in its cache); when it fires, the
// trial is discarded and the next samples afresh from the same prompt with a
// new seed, at most five trials, the last accepted anyway and marked a
// forced accept. Formula-Retry first writes the answer-free execution-state
// scaffold (transforms/scaffold sanitizes it), which stays fixed while only
// the target-language reasoning after it is resampled.
//
// Every request is journaled by content hash before it counts: a killed run
// restarts, replays its finished calls from the journal for free and sends
// only the rest; the tables are replaced only when a run succeeds.
package control
