// Package references samples English reference derivations of each problem
// from a strong model on any OpenAI-compatible endpoint (the paper used
// Qwen3.6-Plus) and keeps those whose final answer the grader accepts,
// until five per problem (paper, section 4.1).
//
// It reads DIR/problems.parquet (the English questions and gold answers) and
// writes DIR/derivations.parquet (every attempt, accepted or not, merged by
// problem, model and attempt) and the accepted references as traces with
// method "reference" (input and reasoning language en, seed = ref_index), so
// they can be aligned like any trace. Attempts go in rounds: each round asks
// for as many derivations as a problem still lacks, until it has enough or
// has used its attempts; a shortfall is reported and recorded (the
// problem's accepted count in derivations), never silent. Calls are journaled
// and resumable.
package references
