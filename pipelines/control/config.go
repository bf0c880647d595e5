package control

import (
	"slices"
	"strings"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/study"
)

// Methods lists the methods of the control study (Table 3), as --method
// names them. study.Base samples each example once, as Loop-Retry's first
// attempt samples (its repetition penalty, the example's seed, the budget)
// but with no checkpoint: the row the controls are compared with.
var Methods = []study.Method{study.Base, study.LoopRetry, study.FormulaRetry}

// TraceMethod is traces.method (and trials.method) of a method's traces.
// Base's traces are study.ControlBase, not study.Base, the direction
// probe's: Base samples the probe's examples again (the same model,
// languages, problems and seed 42) with another repetition penalty, and
// under the same method its traces would replace the probe's.
func TraceMethod(method study.Method) study.Method {
	if method == study.Base {
		return study.ControlBase
	}
	return method
}

// MaxTrials bounds --max-trials: the paper allows 5 attempts; a hundred is
// far past any useful retrying.
const MaxTrials = 100

// Config is one control run.
//
// Generation is the generation the control steers, as generate would run
// it: the data directory, the Study (which examples: models, directions,
// languages, levels, seeds, limit; their budgets, the reasoning's
// temperature and top_p, the API and the slots per endpoint), the servers
// (Endpoints, APIKey, Pool), KeepGoing, Prompts and Stderr. It is a named
// field, not an embedded one: its Validate and Start are generate's, and
// every use says whose setting it reads (cfg.Generation.Study), where
// embedding made a control.Config pass for a generate.Config and hid which
// Validate ran. Errors about its fields name them Generation.Endpoints.
//
// DefaultConfig scopes it as the paper does: Qwen3-4B, en-x, Swahili and
// Telugu, seeds 42, 215 and 316.
type Config struct {
	Generation generate.Config
	Method     study.Method

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
	g := generate.DefaultConfig()
	g.Study.Models = []string{"Qwen/Qwen3-4B"}
	g.Study.Directions = study.Strings(study.EnX)
	g.Study.Langs = []string{"sw", "te"}
	g.Study.Seeds = []int64{42, 215, 316}
	return Config{
		Generation:   g,
		MaxTrials:    5,
		FirstPenalty: 1.08,
		RetryPenalty: 1.13,
		Scaffold:     ScaffoldSampling{Temperature: 0.2, TopP: 0.95, RepetitionPenalty: 1.02, MaxTokens: 4096},
	}
}

// Validate checks the run. Each problem with a field is an
// inputerr.FieldError naming it (MaxTrials, Generation.Study.Budgets).
func (c Config) Validate() error {
	var p inputerr.Problems
	if !slices.Contains(Methods, c.Method) {
		p.Add("Method", "%q is none of %s", c.Method, strings.Join(study.Strings(Methods...), ", "))
	}
	p.NestedIn("Generation", c.Generation.Validate())
	for _, l := range c.Generation.Study.Levels {
		if b := c.Generation.Study.Budgets[l]; b > 0 && b < 8 {
			p.Add("Generation.Study.Budgets", "the %s budget of %d tokens leaves no room for a checkpoint at a quarter of it", l, b)
		}
	}
	if c.MaxTrials < 1 || c.MaxTrials > MaxTrials {
		p.Add("MaxTrials", "must be in [1, %d], not %d", MaxTrials, c.MaxTrials)
	}
	s := c.Scaffold
	for _, f := range []struct {
		name string
		err  error
	}{
		{"FirstPenalty", bounds.RepetitionPenalty(c.FirstPenalty)},
		{"RetryPenalty", bounds.RepetitionPenalty(c.RetryPenalty)},
		{"Scaffold.Temperature", bounds.Temperature(s.Temperature)},
		{"Scaffold.TopP", bounds.TopP(s.TopP)},
		{"Scaffold.RepetitionPenalty", bounds.RepetitionPenalty(s.RepetitionPenalty)},
		{"Scaffold.MaxTokens", bounds.Budget(s.MaxTokens)},
	} {
		if f.err != nil {
			p.Add(f.name, "%w", f.err)
		}
	}
	return p.Err()
}
