package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/ingest"
)

var cmdIngest = &Command{
	CustomFlags: true,
	UsageLine:   "ingest polymath --src DIR [--langs L,..] [--levels low,medium,high] [--per-level N]",
	Short:       "read the PolyMath benchmark into the problems table",
	Long: `Ingest reads PolyMath from DIR in either of its layouts, {lang}/{level}.jsonl
(the GitHub release) or {lang}/{level}.parquet (the Hugging Face release), and
writes DIR/problems.parquet, merging by (problem_id, lang).

It checks what the study relies on: each (language, level) holds --per-level
problems (PolyMath: 125), ids are {level}-{lang}-{k}, and problem k has the
same gold answer in every language. A malformed line, a missing file or an
unknown language is an error naming the file and line, and nothing is written;
so is a question or answer that is not Unicode text (bytes that are not UTF-8,
an unpaired surrogate escape). A question holding a chat control token of
Qwen3's tokenizer (<|im_end|>, <think>, ...) is stored as given, counted on
stderr, and broken in every prompt that sends it, so it cannot open a turn.`,
}

var (
	ingestCfg    = ingest.DefaultConfig()
	ingestData   = dataFlag(&cmdIngest.Flag)
	ingestLangs  = listFlag(ingestCfg.Langs)
	ingestLevels = listFlag(ingestCfg.Levels)
)

func init() {
	cmdIngest.Run = runIngest
	fs := &cmdIngest.Flag
	fs.StringVar(&ingestCfg.Src, "src", "", "PolyMath directory ({lang}/{level}.jsonl or .parquet)")
	fs.Var(&ingestLangs, "langs", "languages to ingest")
	fs.Var(&ingestLevels, "levels", "levels to ingest (low, medium, high, top)")
	fs.IntVar(&ingestCfg.PerLevel, "per-level", ingestCfg.PerLevel, "problems each (language, level) must hold; 0 accepts any number")
}

func runIngest(ctx context.Context, cmd *Command, args []string) error {
	if _, err := actionThenFlags(cmd, args, []string{"polymath"}, "the source must be named: datg ingest polymath --src DIR"); err != nil {
		return err
	}
	cfg := ingestCfg
	cfg.Data, cfg.Langs, cfg.Levels = *ingestData, ingestLangs, ingestLevels
	sum, err := ingest.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ingest: %d problems (%d languages x %d levels) -> %s/problems.parquet\n", sum.Problems, len(cfg.Langs), len(cfg.Levels), cfg.Data)
	if n := sum.ChatTokens; n > 0 {
		held := "problems hold"
		if n == 1 {
			held = "problem holds"
		}
		fmt.Fprintf(stderr, "datg: ingest: %d %s chat control tokens (such as <|im_end|>); they are stored as given and neutralized in prompts\n", n, held)
	}
	return nil
}
