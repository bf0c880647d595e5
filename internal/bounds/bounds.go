package bounds

import (
	"fmt"
	"math"
)

// MaxBudget is the largest token budget (max_tokens) of a request:
// 1,048,576 tokens, eight times the longest context of the models studied
// (Qwen3: 32,768 tokens, 131,072 with YaRN) and far below 2^31.
const MaxBudget = 1 << 20

// MaxTokenCount is the largest token count a trace may record (imports):
// sixteen budgets, room for a controlled trace's several attempts.
const MaxTokenCount = 16 * MaxBudget

// MaxSeed is the largest seed: 2^53 - 1, the largest integer every JSON
// reader (those reading numbers as doubles too) reads back exactly.
const MaxSeed = 1<<53 - 1

// MaxTemperature is vLLM's upper limit on temperature.
const MaxTemperature = 2.0

// Budget checks a token budget: 1 to MaxBudget.
func Budget(n int) error {
	if n < 1 || n > MaxBudget {
		return fmt.Errorf("%w: %d tokens is not in [1, %d]", ErrOutOfRange, n, MaxBudget)
	}
	return nil
}

// TokenCount checks a recorded token count: 0 to MaxTokenCount.
func TokenCount(n int64) error {
	if n < 0 || n > MaxTokenCount {
		return fmt.Errorf("%w: %d tokens is not in [0, %d]", ErrOutOfRange, n, MaxTokenCount)
	}
	return nil
}

// Seed checks a sampling seed: 0 to MaxSeed.
func Seed(s int64) error {
	if s < 0 || s > MaxSeed {
		return fmt.Errorf("%w: seed %d is not in [0, 2^53-1]", ErrOutOfRange, s)
	}
	return nil
}

// Temperature checks a sampling temperature: finite, in [0, 2].
func Temperature(v float64) error {
	if !(v >= 0 && v <= MaxTemperature) { // NaN fails both
		return fmt.Errorf("%w: %v is not in [0, %v]", ErrOutOfRange, v, MaxTemperature)
	}
	return nil
}

// TopP checks nucleus sampling's top_p: in (0, 1].
func TopP(v float64) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("%w: %v is not in (0, 1]", ErrOutOfRange, v)
	}
	return nil
}

// TopK checks a top_k datg sends: -1 (off) or at least 1. 0 is refused:
// current vLLM reads it as off, but earlier releases refuse it, and
// leaving top_k out would let the server apply the model's
// generation_config (Qwen3's: 20) unrecorded.
func TopK(k int) error {
	if k < -1 || k == 0 {
		return fmt.Errorf("%w: %d is neither -1 (off) nor at least 1 (0 means off only to newer vLLM; Qwen3's recommendation is 20)", ErrOutOfRange, k)
	}
	return nil
}

// RecordedTopK checks a top_k a trace says it was sampled with: also 0,
// vLLM's own default (off).
func RecordedTopK(k int) error {
	if k == 0 {
		return nil
	}
	return TopK(k)
}

// RepetitionPenalty checks vLLM's repetition_penalty: finite and > 0 (1 is
// none).
func RepetitionPenalty(v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("%w: %v is not a finite number > 0", ErrOutOfRange, v)
	}
	return nil
}
