package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/align"
)

var cmdAlign = &Command{
	UsageLine: "align (--model M --base-url URL [--batch] | --aligner symbolic) [--directions en-en,en-x] [--models ..] [--levels ..] [--langs ..] [--limit N] [--methods ..] [--seeds ..] [--references]",
	Short:     "align traces to the reference DAGs of their problem (closed set)",
	Long: `Align maps each selected trace to every valid DAG of its problem with datg's
closed-set alignment prompt (prompts/align_*.txt), one call per
(trace, DAG). Events and harmful actions are stored as returned; each
evidence span is located in the trace (exact, then normalized, then fuzzy),
giving start_char, end_char, commit_progress and block_id, and an unlocated
span is kept with match = none. Unknown node ids, bad statuses and replies
without an alignment (asked once more) go to alignment_errors.
--aligner symbolic aligns on the math alone, without an LLM.

By default base traces of en-en and en-x at the direction probe's seed (42)
are aligned (the paper's diagnosis: one trace per cell); --seeds picks
others. --methods loop-retry,formula-retry aligns the traces of the
test-time controls instead. --references aligns each reference derivation to
the other DAGs of its problem instead (reference diversity).`,
}

var (
	alignData       = dataFlag(&cmdAlign.Flag)
	alignLLM        = addLLMFlags(&cmdAlign.Flag, "chat", 8, true).withBatch(&cmdAlign.Flag)
	alignAligner    = cmdAlign.Flag.String("aligner", "llm", "llm (the --model) or symbolic (no LLM)")
	alignDirections = listFlag(align.DefaultConfig().Directions)
	alignModels     listFlag
	alignLevels     listFlag
	alignLangs      listFlag
	alignMethods    listFlag
	alignSeeds      intListFlag
	alignLimit      = cmdAlign.Flag.Int("limit", 0, "first N problems of each level (0: all)")
	alignRefs       = cmdAlign.Flag.Bool("references", false, "align reference derivations to the other DAGs of their problem")
	alignMaxTok     = cmdAlign.Flag.Int("max-tokens", 0, fmt.Sprintf("token budget of a reply (0: %d, or %d for a reasoning model whose budget counts its reasoning: o-series, gpt-5 on a server that is not vLLM)", align.DefaultMaxTokens, llm.ReasoningBudget))
)

func init() {
	cmdAlign.Run = runAlign
	fs := &cmdAlign.Flag
	fs.Var(&alignDirections, "directions", "directions of the traces to align")
	fs.Var(&alignModels, "models", "models of the traces to align (default: all)")
	fs.Var(&alignLevels, "levels", "levels (default: all)")
	fs.Var(&alignLangs, "langs", "reasoning languages (default: all)")
	fs.Var(&alignMethods, "methods", "methods of the traces to align (default: base; loop-retry, formula-retry)")
	fs.Var(&alignSeeds, "seeds", "seeds of the traces to align (default: 42, the probe's, for base traces; every seed of other methods)")
}

func runAlign(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := align.DefaultConfig()
	if err := alignLLM.targetOrSymbolic(cmd, "aligner", *alignAligner, &cfg.Symbolic, &cfg.Target); err != nil {
		return err
	}
	cfg.Data, cfg.Directions, cfg.Models, cfg.Levels, cfg.Langs = *alignData, alignDirections, alignModels, alignLevels, alignLangs
	cfg.Limit, cfg.References, cfg.MaxTokens, cfg.Stderr = *alignLimit, *alignRefs, *alignMaxTok, stderr
	cfg.Methods, cfg.Seeds = alignMethods, alignSeeds
	set, err := alignLLM.promptSet()
	if err != nil {
		return err
	}
	cfg.Prompts = set
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := align.Run(ctx, cfg)
	if done, err := alignLLM.finish("align", stdout, err); done {
		return err
	}
	capped := ""
	if sum.Capped > 0 {
		capped = fmt.Sprintf(" (%d spans not searched in full: a cap of the locator, kind locate-capped)", sum.Capped)
	}
	fmt.Fprintf(stdout, "align: %d alignments (%d without a usable reply%s, %d spans not located, %d alignment errors%s) -> %s/alignments.parquet\n",
		sum.Alignments, sum.Unusable, spentText(sum.Grown, sum.Spent, "budget-spent-reasoning"), sum.Unlocated, sum.Problems, capped, cfg.Data)
	return nil
}
