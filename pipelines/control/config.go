package control

import (
	"fmt"
	"slices"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/generate"
)

// The controls.
const (
	LoopRetry    = "loop-retry"
	FormulaRetry = "formula-retry"
)

// Methods lists the controls.
var Methods = []string{LoopRetry, FormulaRetry}

// Config is one control run. Its generate.Config gives the data directory,
// the endpoints and pool, --keep-going, and the Study: the examples
// (models, directions, languages, levels, seeds, limit), the budgets, the
// reasoning's temperature and top_p, the API and the slots per endpoint.
// DefaultConfig scopes it as the paper does: Qwen3-4B, en-x, Swahili and
// Telugu, seeds 42, 215 and 316.
type Config struct {
	generate.Config
	Method string

	MaxTrials    int     // at most this many reasoning attempts per example
	FirstPenalty float64 // repetition penalty of the first attempt
	RetryPenalty float64 // repetition penalty of every retry
	// Scaffold is how Formula-Retry's phase 1 samples.
	Scaffold ScaffoldSampling
}

// ScaffoldSampling is the sampling of the execution-state scaffold.
type ScaffoldSampling struct {
	Temperature, TopP, RepetitionPenalty float64
	MaxTokens                            int
}

// DefaultConfig is the paper's setting (appendix G).
func DefaultConfig() Config {
	s := generate.DefaultStudy()
	s.Models = []string{"Qwen/Qwen3-4B"}
	s.Directions = []string{"en-x"}
	s.Langs = []string{"sw", "te"}
	s.Seeds = []int64{42, 215, 316}
	return Config{
		Config:       generate.Config{Data: "data/run", Study: s, Pool: llm.DefaultOptions()},
		MaxTrials:    5,
		FirstPenalty: 1.08,
		RetryPenalty: 1.13,
		Scaffold:     ScaffoldSampling{Temperature: 0.2, TopP: 0.95, RepetitionPenalty: 1.02, MaxTokens: 4096},
	}
}

// Validate checks the run.
func (c Config) Validate() error {
	var errs []error
	if !slices.Contains(Methods, c.Method) {
		errs = append(errs, fmt.Errorf("method %q is neither %s", c.Method, "loop-retry nor formula-retry"))
	}
	if err := c.Config.Validate(); err != nil {
		errs = append(errs, err)
	}
	for _, l := range c.Study.Levels {
		if b := c.Study.Budgets[l]; b > 0 && b < 8 {
			errs = append(errs, fmt.Errorf("the %s budget of %d tokens leaves no room for a checkpoint at a quarter of it", l, b))
		}
	}
	if c.MaxTrials < 1 {
		errs = append(errs, fmt.Errorf("max trials must be at least 1, not %d", c.MaxTrials))
	}
	if c.FirstPenalty <= 0 || c.RetryPenalty <= 0 {
		errs = append(errs, fmt.Errorf("repetition penalties must be positive (%v, %v)", c.FirstPenalty, c.RetryPenalty))
	}
	s := c.Scaffold
	if s.Temperature < 0 || s.TopP <= 0 || s.TopP > 1 || s.RepetitionPenalty <= 0 || s.MaxTokens < 1 {
		errs = append(errs, fmt.Errorf("scaffold sampling out of range: %+v", s))
	}
	return inputerr.Invalid(errs...)
}
