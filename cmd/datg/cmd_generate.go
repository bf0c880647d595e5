package main

import (
	"context"
	"fmt"
	"time"

	"github.com/datg/datg/pipelines/generate"
)

var cmdGenerate = &Command{
	FieldFlags: generationFieldFlags(""),
	UsageLine:  "generate [--config FILE] [--models M,..] [--directions en-en,en-x,x-en,x-x] [--langs ..] [--levels ..] [--seeds 42,..] [--limit N] --endpoints URL[,URL..]",
	Short:      "sample reasoning traces from vLLM servers into the traces table",
	Long: `Generate samples the study's traces from OpenAI-compatible servers: one
vLLM server per GPU, given with --endpoints. The study (models, directions,
languages, levels, seeds, sampling, token budgets) comes from
pipelines/generate/study.json, the paper's settings, or --config FILE;
flags override it.

Each endpoint gets at most --slots requests at once (vLLM's max_num_seqs);
work goes to whichever endpoint has room. Failed requests (429, 5xx,
timeouts, dropped connections, malformed responses) are retried with capped
exponential backoff on other endpoints; an endpoint that keeps failing is
routed around. Every response is journaled in DIR/journal/llm before it
counts: rerun the same command after an interruption (even kill -9) and only
the unfinished requests are sent. DIR/traces.parquet gets one row per (model,
direction, input language, reasoning language, level, problem, seed, method).

The API key, if the servers need one, is read from the environment variable
named by --api-key-env.`,
}

var (
	genData      = dataFlag(&cmdGenerate.Flag)
	genStudy     = addStudyFlags(&cmdGenerate.Flag, "study file (default: the paper's study, pipelines/generate/study.json)")
	genKeepGoing = cmdGenerate.Flag.Bool("keep-going", false, "write the traces that finished even if some requests failed for good")
	// --api and --slots default to the study's (completions, 16).
	genLLM = addLLMFlags(&cmdGenerate.Flag, "", 0, false)
)

func init() { cmdGenerate.Run = runGenerate }

func runGenerate(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg, err := genStudy.generation(&cmd.Flag, generate.DefaultConfig(), *genData, *genKeepGoing, genLLM, false)
	if err != nil {
		return err
	}
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	start := time.Now()
	sum, err := generate.Run(ctx, cfg)
	if done, err := genLLM.finish("generate", stdout, err); done {
		return err
	}
	fmt.Fprintf(stdout, "generate: %d traces (%d new, %d from the journal), %d tokens in %s -> %s/traces.parquet\n",
		sum.Jobs-sum.Failed, sum.New, sum.Resumed, sum.Tokens, time.Since(start).Round(time.Millisecond), cfg.Data)
	return nil
}
