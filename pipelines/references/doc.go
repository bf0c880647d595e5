// Package references samples English reference derivations of each problem
// from a strong model on any OpenAI-compatible endpoint and keeps those
// whose final answer Math-Verify accepts (the paper's answer-verification
// protocol), until five per problem (paper, section 5.1). The paper's
// reference model is Qwen3.6-Plus, which Alibaba Cloud Model Studio serves
// (llm.ServerModelStudio; datg asks it to think), and its DAG prompt
// converts a chain of thought: by default (Config.Derivation)
// a reference is the model's reasoning, then its answer, and a reply
// without reasoning is rejected; the answer alone is the other choice, for
// a model that hides its reasoning.
//
// It reads DIR/problems.parquet (the English questions and gold answers) and
// writes DIR/derivations.parquet (every attempt, accepted or not, merged by
// problem, model and attempt, with the grader and the derivation it
// recorded) and the accepted references as traces with method "reference"
// (input and reasoning language en, seed = ref_index), so they can be
// aligned like any trace. Attempts go in rounds: each round asks for as
// many derivations as a problem still lacks, until it has enough or has
// used its attempts; a shortfall is reported and recorded (the problem's
// accepted count in derivations), never silent. Calls are journaled and
// resumable.
package references
