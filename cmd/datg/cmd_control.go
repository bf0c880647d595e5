package main

import (
	"context"
	"fmt"
	"time"

	"github.com/datg/datg/pipelines/control"
	"github.com/datg/datg/study"
)

var cmdControl = &Command{
	FieldFlags: generationFieldFlags("Generation."),
	UsageLine:  "control --method base|loop-retry|formula-retry [--models M,..] [--directions ..] [--langs ..] [--levels ..] [--seeds ..] [--limit N] --endpoints URL[,URL..]",
	Short:      "run Table 3's Base or a test-time control (Loop-Retry, Formula-Retry); every attempt goes to trials",
	Long: `Control runs one of the paper's test-time controls (section 6, appendix G)
on every example of the scope: by default Qwen/Qwen3-4B, en-x, Swahili and
Telugu, low/medium/high, seeds 42, 215 and 316, with the study's budgets B
(4,096/8,192/16,384 tokens), temperature 0.6 and top_p 0.95.

base: each example sampled once, as loop-retry's first trial (repetition
penalty 1.08, the example's seed, the budget) but with no checkpoint: Table
3's Base row. Its traces have method control-base, so they never replace
the direction probe's base traces of the same seed (generate samples those
at the study's penalty), and no probe table reads them; Table 3 reads no
probe trace either.

loop-retry: each trial generates to the checkpoint C = B/4, asking the
server for the generated token ids, and the loop detector reads the last
256 of them (datg loop detect). If it does not fire, the trial continues
from its own text up to B (on the same endpoint, whose prefix cache holds
it); if it fires, the trial is discarded and the next one samples from the
same prompt with a new seed (seed + (trial-1)*1000003). Repetition penalty
1.08 on the first trial and 1.13 on retries; at most --max-trials (5)
trials, the last accepted anyway and marked a forced accept.

formula-retry: first the execution-state scaffold (temperature 0.2, top_p
0.95, repetition penalty 1.02, at most 4,096 tokens, stopping at
</execution_state>), sanitized so that no result, boxed answer or answer
line survives (what was removed is recorded); then trials as above, in the
target language after the scaffold, which stays fixed across retries.

The final trace of each example joins DIR/traces.parquet with its method,
so datg verify, langcheck and the DATG stages apply unchanged; every
attempt (the scaffold, aborted and accepted trials) with its decoded tokens,
text and the detector's statistics goes to DIR/trials.parquet, and
datg tables writes Table 3 (control). Every request is journaled: rerun the
same command after an interruption (even kill -9) and finished calls are
not paid for again.`,
}

var (
	ctlData      = dataFlag(&cmdControl.Flag)
	ctlMethod    = cmdControl.Flag.String("method", "", "base, loop-retry or formula-retry")
	ctlStudy     = addStudyFlags(&cmdControl.Flag, "study file for budgets, sampling and api (default: the paper's, with the control's scope)")
	ctlTrials    = cmdControl.Flag.Int("max-trials", control.DefaultConfig().MaxTrials, "reasoning attempts per example")
	ctlKeepGoing = cmdControl.Flag.Bool("keep-going", false, "write the examples that finished even if some failed for good")
	ctlLLM       = addLLMFlags(&cmdControl.Flag, "", 0, false)
)

func init() { cmdControl.Run = runControl }

func runControl(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := control.DefaultConfig()
	// A study file sets budgets and sampling; the control's scope stays
	// unless flags change it.
	gen, err := ctlStudy.generation(&cmd.Flag, cfg.Generation, *ctlData, *ctlKeepGoing, ctlLLM, true)
	if err != nil {
		return err
	}
	cfg.Generation, cfg.Method, cfg.MaxTrials = gen, study.Method(*ctlMethod), *ctlTrials
	if err := needRun(cfg, gen.Data); err != nil {
		return err
	}
	start := time.Now()
	sum, err := control.Run(ctx, cfg)
	if done, err := ctlLLM.finish("control", stdout, err); done {
		return err
	}
	fmt.Fprintf(stdout, "control %s: %d examples (%d from the journal), %d trials, %d retried, %d forced accepts, %d decoded tokens in %s -> %s/{traces,trials}.parquet\n",
		cfg.Method, sum.Examples-sum.Failed, sum.Resumed, sum.Trials, sum.Retried, sum.Forced, sum.Tokens, time.Since(start).Round(time.Millisecond), gen.Data)
	return nil
}
