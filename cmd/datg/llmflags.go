package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/prompts"
)

// llmFlags are the flags of every stage that calls an LLM.
type llmFlags struct {
	endpoints listFlag
	model     *string
	api       *string
	slots     *int
	attempts  *int
	timeout   *time.Duration
	deadline  *time.Duration
	patience  *time.Duration
	backoff   *time.Duration
	server    *string
	effort    *string
	dryRun    *bool
	priceIn   *float64
	priceOut  *float64
	dry       *llm.DryRun // set by options() when --dry-run
	apiKey    func() string
	prompts   *string
	// batch, batchPoll and batchRounds are set on the stages that can send
	// their requests through OpenAI's Batch API (withBatch).
	batch       *bool
	batchPoll   *time.Duration
	batchRounds *int
}

// withBatch adds --batch and its settings: for the stages whose requests
// are all known before any answer (references, dags, align).
func (f *llmFlags) withBatch(fs *flag.FlagSet) *llmFlags {
	f.batch = fs.Bool("batch", false, "send the requests through OpenAI's Batch API (half price, answers within 24h; needs --server openai); a rerun resumes the batches already created")
	f.batchPoll = fs.Duration("batch-poll", 30*time.Second, "pause between two checks of a running batch")
	f.batchRounds = fs.Int("batch-rounds", 3, "batches a request may be submitted in (failed and expired requests are submitted again)")
	return f
}

// addLLMFlags adds the LLM flags to a command; withModel adds --model.
func addLLMFlags(fs *flag.FlagSet, defaultAPI string, defaultSlots int, withModel bool) *llmFlags {
	d := llm.DefaultOptions()
	f := &llmFlags{
		api:      fs.String("api", defaultAPI, "chat (messages) or completions (raw prompt)"),
		slots:    fs.Int("slots", defaultSlots, "requests in flight per endpoint"),
		attempts: fs.Int("max-attempts", d.MaxAttempts, "tries per request before it counts as failed"),
		timeout:  fs.Duration("timeout", d.RequestTimeout, "time limit of one attempt (0: as long as the request's deadline, which grows with its max_tokens)"),
		deadline: fs.Duration("deadline", 0, "time limit of one request over all its attempts (0: from its max_tokens, at least --timeout)"),
		patience: fs.Duration("patience", d.Patience, "how long every endpoint may be down before the run fails"),
		backoff:  fs.Duration("backoff", d.BackoffBase, "first pause before a retry (doubles per attempt)"),
		server:   fs.String("server", "", "what the endpoints are: vllm, openai (an OpenAI-compatible API: OpenAI, Azure, a gateway), or modelstudio (Alibaba Cloud Model Studio: thinking on, streamed; never detected, say it); default: what they say, vllm when they answer vLLM's GET /version, else openai; decides how requests are put on the wire"),
		effort:   fs.String("reasoning-effort", "", "reasoning_effort for OpenAI's reasoning models ("+strings.Join(llm.ReasoningEfforts, ", ")+"; default: the model's own)"),
		dryRun:   fs.Bool("dry-run", false, "count the requests left to send and estimate their tokens (and cost, given prices); send and write nothing"),
		priceIn:  fs.Float64("price-input", 0, "with --dry-run: price per million prompt tokens"),
		priceOut: fs.Float64("price-output", 0, "with --dry-run: price per million completion tokens"),
		apiKey:   apiKeyFlag(fs),
		prompts:  fs.String("prompts", "", "read every prompt template from this directory instead of the built-in ones (datg prompts export writes them)"),
	}
	fs.Var(&f.endpoints, "endpoints", "base URLs of the servers (http://host:8000/v1,...)")
	fs.Var(&f.endpoints, "base-url", "alias of --endpoints")
	if withModel {
		f.model = fs.String("model", "", "model name as the server knows it")
	}
	return f
}

// promptSet is the prompt set --prompts names: nil (the built-in set) when
// not given; a missing file or bad template is a usage error naming it.
func (f *llmFlags) promptSet() (*prompts.Set, error) {
	if *f.prompts == "" {
		return nil, nil
	}
	return prompts.Load(*f.prompts)
}

// options are the pool settings the flags give.
func (f *llmFlags) options() llm.Options {
	o := llm.DefaultOptions()
	o.SlotsPerEndpoint, o.MaxAttempts, o.RequestTimeout, o.Patience = *f.slots, *f.attempts, *f.timeout, *f.patience
	o.BackoffBase = *f.backoff
	o.RequestDeadline = *f.deadline
	o.Server, o.ReasoningEffort = *f.server, *f.effort
	if *f.dryRun {
		if f.dry == nil {
			f.dry = &llm.DryRun{PriceInput: *f.priceIn, PriceOutput: *f.priceOut, NoBatchAPI: *f.server == llm.ServerModelStudio}
		}
		o.DryRun = f.dry
	}
	o.BackoffMax = max(o.BackoffMax, o.BackoffBase)
	return o
}

// target is the LLM the flags name.
func (f *llmFlags) target() llm.Target {
	api := llm.APIChat
	if *f.api == "completions" {
		api = llm.APICompletions
	} else if *f.api != "chat" {
		api = *f.api // rejected by Validate with the value shown
	}
	t := llm.Target{Endpoints: f.endpoints, API: api, APIKey: f.apiKey(), Pool: f.options()}
	if f.batch != nil && *f.batch {
		t.Batch = llm.BatchOptions{Enabled: true, Poll: *f.batchPoll, Rounds: *f.batchRounds}
	}
	if f.model != nil {
		t.Model = *f.model
	}
	return t
}

// targetOrSymbolic reads a --builder/--aligner flag (named flag, value v):
// "symbolic" sets *symbolic, "llm" sets *t to the LLM the flags name.
func (f *llmFlags) targetOrSymbolic(cmd *Command, flag, v string, symbolic *bool, t *llm.Target) error {
	switch v {
	case "symbolic":
		if f.batch != nil && *f.batch {
			return usageError{cmd, fmt.Sprintf("--batch sends LLM requests, and --%s symbolic makes none", flag)}
		}
		*symbolic = true
	case "llm":
		*t = f.target()
	default:
		return usageError{cmd, fmt.Sprintf("--%s %q is neither llm nor symbolic", flag, v)}
	}
	return nil
}

// spentText says, for a stage's summary, how many replies spent their
// budget reasoning: asked again with a larger budget, and without an
// answer even so (recorded as kind says).
func spentText(grown, spent int, kind string) string {
	if grown == 0 && spent == 0 {
		return ""
	}
	return fmt.Sprintf("; %d asked again with a larger budget (the first reply spent its budget reasoning), %d without an answer even so (%s)", grown, spent, kind)
}

// finish ends a stage run: done says the command has nothing more to
// print, after an error or a dry run (whose plan goes to stdout and whose
// "nothing was sent" ending is success); else it prints its summary.
func (f *llmFlags) finish(stage string, stdout io.Writer, err error) (done bool, _ error) {
	if f.dry == nil {
		return err != nil, err
	}
	if err != nil && !errors.Is(err, llm.ErrDryRun) && !errors.Is(err, llm.ErrFailedRequests) && !strings.Contains(err.Error(), llm.ErrDryRun.Error()) {
		return true, err
	}
	f.dry.Report(stdout, stage)
	return true, nil
}
