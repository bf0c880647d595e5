package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

var cmdSimulate = &Command{
	UsageLine: "simulate [--listen ADDR] [--count N] [--url-file FILE] [--latency D] [--error-rate R] ...",
	Short:     "serve a SIMULATED OpenAI-compatible model for tests and the demo",
	Long: `Simulate serves --count OpenAI-compatible endpoints on loopback that behave
like vLLM serving a Qwen3 reasoning model, without any model: the traces are
synthetic, written from a phrase book in the requested reasoning language.
It exists for tests, benchmarks and the offline demo; never report its
numbers as results.

With a problems table in --data, the simulated model knows the gold answers
and is right with a probability set by level, model size (read from the model
name) and language (--profile FILE overrides the embedded profile); it loops,
drifts into another language or omits the answer at per-language rates.
Faults are injected with --error-rate (HTTP --error-codes), --drop-rate
(connection dropped mid-response), --malformed-rate (invalid JSON) and --dead.

It also answers datg's reference, DAG-construction and alignment prompts:
references from the worked --solutions when it has them, DAGs and
alignments computed symbolically, with defects injected at the --json-*,
--dag-cycle, --unknown-node, --absent-span and --bad-status rates.

It runs until interrupted. --url-file receives the endpoints' base URLs,
one a line, once all are listening.`,
	FieldFlags: map[string]string{
		"Content.Fenced": "json-fenced-rate", "Content.Malformed": "json-malformed-rate",
		"Content.Cycle": "dag-cycle-rate", "Content.UnknownNode": "unknown-node-rate",
		"Content.AbsentSpan": "absent-span-rate", "Content.BadStatus": "bad-status-rate",
		"Content.ScaffoldLeak": "scaffold-leak-rate", "Faults.Dead": "dead",
	},
}

var (
	simData      = dataFlag(&cmdSimulate.Flag)
	simListen    = cmdSimulate.Flag.String("listen", "127.0.0.1:0", "first listen address (port 0: a free port for each endpoint)")
	simCount     = cmdSimulate.Flag.Int("count", 1, "number of endpoints (one per simulated GPU)")
	simURLFile   = cmdSimulate.Flag.String("url-file", "", "write the endpoints' base URLs here")
	simProfile   = cmdSimulate.Flag.String("profile", "", "profile JSON (default: internal/simulate/profile.json)")
	simLatency   = cmdSimulate.Flag.Duration("latency", 0, "fixed time per request")
	simTokLat    = cmdSimulate.Flag.Duration("token-latency", 0, "extra time per generated token")
	simMaxSeqs   = cmdSimulate.Flag.Int("max-seqs", 16, "requests an endpoint serves at once (more wait)")
	simErrRate   = cmdSimulate.Flag.Float64("error-rate", 0, "rate of HTTP error answers")
	simErrCodes  listFlag
	simDropRate  = cmdSimulate.Flag.Float64("drop-rate", 0, "rate of connections dropped mid-response")
	simMalformed = cmdSimulate.Flag.Float64("malformed-rate", 0, "rate of invalid JSON bodies")
	simDead      = cmdSimulate.Flag.Bool("dead", false, "drop every connection")
	simReasoning = cmdSimulate.Flag.Bool("reasoning-field", false, "chat: return the reasoning apart, split as vLLM's Qwen3 reasoning parser splits it")
	simReasonKey = cmdSimulate.Flag.String("reasoning-key", "reasoning", "name of that field: reasoning (vLLM today) or reasoning_content (before 0.10)")
	simTrustTmpl = cmdSimulate.Flag.Bool("trust-request-chat-template", false, "accept a chat_template in requests (vLLM refuses them without this flag)")
	simDialect   = cmdSimulate.Flag.String("dialect", "vllm", "API to speak: vllm; openai (refuses what OpenAI's API refuses, hides reasoning models' reasoning); or modelstudio (Alibaba Cloud Model Studio's compatible mode under /compatible-mode/v1: thinking only streamed, reasoning in reasoning_content)")
	simHidden    = cmdSimulate.Flag.Int("hidden-reasoning", 0, "with --dialect openai: tokens a reasoning model (o-series, gpt-5) reasons unseen before each answer, counted in its max_completion_tokens (a budget at or below it gets no content, finish_reason length)")
	simModelLen  = cmdSimulate.Flag.Int("max-model-len", 40960, "context length /v1/models reports; longer requests get vLLM's 400")
	simSeed      = cmdSimulate.Flag.Uint64("seed", 1, "seed of fault injection")
	simLog       = cmdSimulate.Flag.String("log", "", "append one JSON line per request to this file")
	simKeyEnv    = cmdSimulate.Flag.String("require-key-env", "", "accept only the API key in this environment variable")
	simSolutions = cmdSimulate.Flag.String("solutions", "", "JSONL of worked solutions ({problem_id, steps}) the simulated model writes")
	simFenced    = cmdSimulate.Flag.Float64("json-fenced-rate", 0, "rate of DAG/alignment replies in a code fence with prose around")
	simCutJSON   = cmdSimulate.Flag.Float64("json-malformed-rate", 0, "rate of DAG/alignment replies cut off halfway")
	simCycle     = cmdSimulate.Flag.Float64("dag-cycle-rate", 0, "rate of DAG replies with a cycle (a repair request fixes them)")
	simUnknown   = cmdSimulate.Flag.Float64("unknown-node-rate", 0, "rate of alignment replies with an event for a node the DAG lacks")
	simAbsent    = cmdSimulate.Flag.Float64("absent-span-rate", 0, "rate of alignment events whose span is nowhere in the trace")
	simBadStatus = cmdSimulate.Flag.Float64("bad-status-rate", 0, "rate of alignment events with a status other than COMMIT, ATTEMPT, ERROR")
	simLeak      = cmdSimulate.Flag.Float64("scaffold-leak-rate", 0, "rate of Formula-Retry scaffolds that give the result away (the control sanitizes them)")
)

func init() {
	cmdSimulate.Run = runSimulate
	cmdSimulate.Flag.Var(&simErrCodes, "error-codes", "HTTP codes of injected errors (default 429,500,503)")
}

func runSimulate(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := simulate.DefaultConfig()
	cfg.Listen, cfg.Count, cfg.URLFile = *simListen, *simCount, *simURLFile
	cfg.Latency, cfg.TokenLatency, cfg.MaxSeqs = *simLatency, *simTokLat, *simMaxSeqs
	cfg.Faults = simulate.Faults{ErrorRate: *simErrRate, DropRate: *simDropRate, MalformedRate: *simMalformed, Dead: *simDead}
	for _, c := range simErrCodes {
		code, err := strconv.Atoi(c)
		if err != nil {
			return usageError{cmd, fmt.Sprintf("--error-codes: %q is not a number", c)}
		}
		cfg.Faults.ErrorCodes = append(cfg.Faults.ErrorCodes, code)
	}
	cfg.ReasoningField, cfg.Seed, cfg.Solutions = *simReasoning, *simSeed, *simSolutions
	cfg.ReasoningKey, cfg.TrustRequestChatTemplate, cfg.Dialect, cfg.MaxModelLen = *simReasonKey, *simTrustTmpl, *simDialect, *simModelLen
	cfg.HiddenReasoning = *simHidden
	cfg.Content = simulate.ContentFaults{Fenced: *simFenced, Malformed: *simCutJSON, Cycle: *simCycle,
		UnknownNode: *simUnknown, AbsentSpan: *simAbsent, BadStatus: *simBadStatus, ScaffoldLeak: *simLeak}
	if *simKeyEnv != "" {
		cfg.RequireKey = os.Getenv(*simKeyEnv)
	}
	if *simProfile != "" {
		p, err := simulate.LoadProfile(*simProfile)
		if err != nil {
			return err
		}
		cfg.Profile = p
	}
	if store.Exists(*simData, schema.Problems.Table) {
		cfg.Data = *simData
	} else if *simSolutions != "" {
		return fmt.Errorf("--solutions needs a problems table in %s", *simData)
	} else {
		fmt.Fprintf(stderr, "simulate: no problems table in %s; answers will be random\n", *simData)
	}
	if *simLog != "" {
		f, err := os.OpenFile(*simLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Log = f
	}
	cfg.Notices = stderr
	_, err := simulate.Run(ctx, cfg)
	return err
}
