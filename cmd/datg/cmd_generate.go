package main

import (
	"context"
	"fmt"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/generate"
)

var cmdGenerate = &Command{
	UsageLine: "generate [--config FILE] [--models M,..] [--directions en-en,en-x,x-en,x-x] [--langs ..] [--levels ..] [--seeds 42,..] [--limit N] --endpoints URL[,URL..]",
	Short:     "sample reasoning traces from vLLM servers into the traces table",
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
	genData       = dataFlag(&cmdGenerate.Flag)
	genConfig     = cmdGenerate.Flag.String("config", "", "study file (default: the paper's study, pipelines/generate/study.json)")
	genModels     listFlag
	genDirections listFlag
	genLangs      listFlag
	genLevels     listFlag
	genSeeds      intListFlag
	genLimit      = cmdGenerate.Flag.Int("limit", 0, "keep the first N problems of each level (0: all)")
	genEndpoints  listFlag
	genAPI        = cmdGenerate.Flag.String("api", "", "completions (raw Qwen3 prompt, default) or chat")
	genSlots      = cmdGenerate.Flag.Int("slots", 0, "requests in flight per endpoint (default from the study: 16)")
	genKeepGoing  = cmdGenerate.Flag.Bool("keep-going", false, "write the traces that finished even if some requests failed for good")
	genAttempts   = cmdGenerate.Flag.Int("max-attempts", llm.DefaultOptions().MaxAttempts, "tries per request before it counts as failed")
	genTimeout    = cmdGenerate.Flag.Duration("timeout", llm.DefaultOptions().RequestTimeout, "time limit of one request")
	genPatience   = cmdGenerate.Flag.Duration("patience", llm.DefaultOptions().Patience, "how long every endpoint may be down before the run fails")
	genBackoff    = cmdGenerate.Flag.Duration("backoff", llm.DefaultOptions().BackoffBase, "first pause before a retry (doubles per attempt)")
	genAPIKey     = apiKeyFlag(&cmdGenerate.Flag)
)

func init() {
	cmdGenerate.Run = runGenerate
	fs := &cmdGenerate.Flag
	fs.Var(&genModels, "models", "models to sample, as the servers name them")
	fs.Var(&genDirections, "directions", "directions: en-en, en-x, x-en, x-x")
	fs.Var(&genLangs, "langs", "languages (x ranges over the non-English ones)")
	fs.Var(&genLevels, "levels", "levels: low, medium, high, top")
	fs.Var(&genSeeds, "seeds", "sampling seeds")
	fs.Var(&genEndpoints, "endpoints", "base URLs of the servers, one per GPU (http://host:8000/v1,...)")
	fs.Var(&genEndpoints, "base-url", "alias of --endpoints")
}

func runGenerate(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	study := generate.DefaultStudy()
	if *genConfig != "" {
		var err error
		if study, err = generate.LoadStudy(*genConfig); err != nil {
			return err
		}
	}
	if genModels != nil {
		study.Models = genModels
	}
	if genDirections != nil {
		study.Directions = genDirections
	}
	if genLangs != nil {
		study.Langs = genLangs
	}
	if genLevels != nil {
		study.Levels = genLevels
	}
	if genSeeds != nil {
		study.Seeds = genSeeds
	}
	if flagWasSet(&cmd.Flag, "limit") {
		study.Limit = *genLimit
	}
	if *genAPI != "" {
		study.API = *genAPI
	}
	if flagWasSet(&cmd.Flag, "slots") {
		study.SlotsPerEndpoint = *genSlots
	}
	opts := llm.DefaultOptions()
	opts.MaxAttempts, opts.RequestTimeout, opts.Patience = *genAttempts, *genTimeout, *genPatience
	opts.BackoffBase = *genBackoff
	opts.BackoffMax = max(opts.BackoffMax, opts.BackoffBase)
	cfg := generate.Config{
		Data: *genData, Study: study, Endpoints: genEndpoints, APIKey: genAPIKey(),
		Pool: opts, KeepGoing: *genKeepGoing, Stderr: stderr,
	}
	start := time.Now()
	res, err := generate.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "generate: %d traces (%d new, %d from the journal), %d tokens in %s -> %s/traces.parquet\n",
		res.Jobs-res.Failed, res.New, res.Resumed, res.Tokens, time.Since(start).Round(time.Millisecond), cfg.Data)
	return nil
}
