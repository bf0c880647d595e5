// Package bounds holds the ranges datg accepts for token budgets, token
// counts, seeds and sampling parameters, wherever they enter (a config file,
// a flag, an import), so that a value no server would take is refused there,
// with its field named, instead of failing far from its cause or wrapping
// around in a narrower integer.
//
// The sampling ranges are vLLM's (vllm/sampling_params.py,
// SamplingParams._verify_args): temperature finite in [0, 2], top_p in
// (0, 1], top_k -1 (all tokens) or at least 1 (0, which older vLLM refuses, is never sent), repetition_penalty
// finite and > 0. Older vLLM releases took any temperature >= 0; no
// study uses more than 2.
package bounds
