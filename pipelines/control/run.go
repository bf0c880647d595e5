package control

import (
	"context"
	"fmt"
	"sync"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// Summary says what a run did.
type Summary struct {
	Examples, Failed int
	Resumed          int // examples answered wholly from the journal
	Sent             int // requests sent (the rest came from the journal)
	Retried          int // examples with more than one reasoning attempt
	Forced           int // examples whose last attempt was a forced accept
	Trials           int // reasoning attempts
	Tokens           int64
}

// Run controls every example of the study and writes the traces and trials
// tables.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	gen := cfg.Generation
	// A Formula-Retry attempt's prompt holds the scaffold besides the
	// question.
	promptTokens := generate.PromptMargin
	if cfg.Method == study.FormulaRetry {
		promptTokens += cfg.Scaffold.MaxTokens
	}
	session, err := gen.Start(ctx, "control", promptTokens)
	if err != nil {
		return Summary{}, err
	}
	defer session.Close()
	plan, client := session.Plan, session.Client
	// What decides the samples; endpoints and pool settings do not.
	meta := store.Meta{Stage: "control", ConfigHash: store.HashConfig([]any{cfg.Method, gen.Study, cfg.MaxTrials,
		cfg.FirstPenalty, cfg.RetryPenalty, cfg.Scaffold}), Servers: session.ServersJSON(), DryRun: gen.Pool.DryRun != nil}
	// Traces and their trials are committed together.
	tx, err := store.Begin(gen.Data, meta)
	if err != nil {
		return Summary{}, err
	}
	defer tx.Abort()
	traces, err := store.MergeIn(tx, schema.Traces)
	if err != nil {
		return Summary{}, err
	}
	trials, err := store.MergeIn(tx, schema.Trials)
	if err != nil {
		return Summary{}, err
	}
	// Checked with the traces table locked, before any request: see
	// generate.
	if err := traceids.CheckPlan(gen.Data, plan.Keys(TraceMethod(cfg.Method))); err != nil {
		return Summary{}, err
	}
	// A rerun replaces all of an example's attempts, however many it had.
	trials.Group = func(t *schema.Trial) string { return t.TraceID }

	var mu sync.Mutex // guards sum and the writers
	sum := Summary{Examples: plan.Size()}
	prog := progress.Start(gen.Stderr, "control "+string(cfg.Method), sum.Examples)
	defer prog.Finish()
	prog.Extra = func() string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("retried %d, forced %d", sum.Retried, sum.Forced)
	}
	write := func(o outcome) error {
		mu.Lock()
		defer mu.Unlock()
		if err := traces.Write(o.trace); err != nil {
			return err
		}
		if err := trials.Write(o.trials...); err != nil {
			return err
		}
		sum.add(o)
		return nil
	}
	err = llm.FanoutJobs(ctx, client, prog,
		func(yield func(generate.Job) bool) error {
			plan.Each(func(j generate.Job) bool {
				j.Key.Method = string(TraceMethod(cfg.Method))
				return yield(j)
			})
			return nil
		},
		func(ctx context.Context, j generate.Job) error {
			e := &example{cfg: &cfg, client: client, job: j}
			if err := e.run(ctx); err != nil {
				return err
			}
			if e.out.sent == 0 {
				prog.Skip(1)
			} else {
				prog.Done(e.out.tokens())
			}
			return write(e.out)
		},
		llm.LogFailures(func(j generate.Job) string {
			return fmt.Sprintf("%s %s %s seed %d", j.Key.Model, j.Key.ReasoningLang, j.Key.ProblemID, j.Key.Seed)
		}))
	_, resumed, failed := prog.Counts()
	sum.Resumed, sum.Failed = int(resumed), int(failed)
	return sum, inputerr.Nest("Generation", llm.Finish(err, gen.KeepGoing, "examples", tx.Commit))
}

// add counts a finished example.
func (s *Summary) add(o outcome) {
	s.Sent += o.sent
	s.Tokens += int64(o.tokens())
	n := 0
	for _, t := range o.trials {
		if t.Phase == string(study.PhaseReasoning) {
			n++
		}
		if t.ForcedAccept {
			s.Forced++
		}
	}
	s.Trials += n
	if n > 1 {
		s.Retried++
	}
}
