package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/study"
)

var cmdReferences = &Command{
	FieldFlags: map[string]string{"MaxAttempts": "attempts"},
	UsageLine:  "references --model M --base-url URL [--server modelstudio] [--derivation reasoning|answer] [--batch] [--per-problem 5] [--attempts 12] [--levels ..] [--limit N]",
	Short:      "sample English reference derivations, keeping those Math-Verify accepts",
	Long: `References asks a strong model for English derivations of each problem and
keeps those whose final answer Math-Verify accepts (the paper's
answer-verification protocol), until --per-problem of them, in at most
--attempts tries per problem.

The paper's reference model is Qwen3.6-Plus. datg runs it with thinking on
(the paper's DAG prompt converts a chain of thought) on Alibaba Cloud Model
Studio's OpenAI-compatible API, which serves it:

  DASHSCOPE_API_KEY=... datg references --server modelstudio \
    --base-url https://dashscope-intl.aliyuncs.com/compatible-mode/v1 \
    --model qwen3.6-plus --api-key-env DASHSCOPE_API_KEY

--server modelstudio asks for thinking (enable_thinking) and streams each
request, as Model Studio requires of thinking requests.

--derivation reasoning (the default) makes the model's reasoning, then its
answer, the reference: its trace text, and what datg dags converts (the answer is the
final response beside it). A reply without reasoning is rejected
(no-reasoning), and a run whose first round has none stops: the model hides
its reasoning (OpenAI's reasoning models do). --derivation answer makes the
answer alone the reference, for such a model.

Every attempt goes to DIR/derivations.parquet (accepted or not, with the
grader, its reason, the derivation and token usage); a reply cut by the
budget is rejected (length). The accepted ones also become traces with
method reference (seed = their ref_index). Problems left short of
references are listed. Calls are journaled and resumable.`,
}

var (
	refData     = dataFlag(&cmdReferences.Flag)
	refLLM      = addLLMFlags(&cmdReferences.Flag, "chat", 8, true).withBatch(&cmdReferences.Flag)
	refCfg      = references.DefaultConfig()
	refLevels   = listFlag(refCfg.Levels)
	refPer      = cmdReferences.Flag.Int("per-problem", refCfg.PerProblem, "accepted references wanted per problem")
	refTries    = cmdReferences.Flag.Int("attempts", refCfg.MaxAttempts, "derivations asked for per problem at most")
	refTemp     = cmdReferences.Flag.Float64("temperature", refCfg.Temperature, "sampling temperature")
	refMaxTok   = cmdReferences.Flag.Int("max-tokens", 0, fmt.Sprintf("token budget of a derivation (0: %d, or %d for a reasoning model whose budget counts its reasoning: o-series, gpt-5 on a server that is not vLLM)", references.DefaultMaxTokens, llm.ReasoningBudget))
	refLimit    = cmdReferences.Flag.Int("limit", 0, "first N problems of each level (0: all)")
	refBaseSeed = cmdReferences.Flag.Int64("seed", refCfg.Seed, "attempt a is sampled with seed + a")
	refDeriv    = cmdReferences.Flag.String("derivation", string(refCfg.Derivation), "what of a reply is the reference: reasoning (the model's chain of thought, then its answer) or answer (the answer alone, for a model that hides its reasoning)")
)

func init() {
	cmdReferences.Run = runReferences
	cmdReferences.Flag.Var(&refLevels, "levels", "levels")
}

func runReferences(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := refCfg
	cfg.Data, cfg.Target, cfg.Stderr = *refData, refLLM.target(), stderr
	cfg.PerProblem, cfg.MaxAttempts, cfg.Temperature, cfg.MaxTokens = *refPer, *refTries, *refTemp, *refMaxTok
	cfg.Levels, cfg.Limit, cfg.Seed, cfg.Derivation = refLevels, *refLimit, *refBaseSeed, study.Derivation(*refDeriv)
	set, err := refLLM.promptSet()
	if err != nil {
		return err
	}
	cfg.Prompts = set
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := references.Run(ctx, cfg)
	if done, err := refLLM.finish("references", stdout, err); done {
		return err
	}
	fmt.Fprintf(stdout, "references: %d problems, %d with %d references, %d accepted of %d attempts%s -> %s/derivations.parquet\n",
		sum.Problems, sum.Complete, cfg.PerProblem, sum.Accepted, sum.Attempts, spentText(sum.Grown, sum.Spent, "not accepted"), cfg.Data)
	if len(sum.Short) > 0 {
		fmt.Fprintf(stderr, "references: %d problems are short of references: %s\n", len(sum.Short), strings.Join(sum.Short, ", "))
	}
	return nil
}
