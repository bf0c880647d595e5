package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/pipelines/annotations"
)

var cmdAnnotations = &Command{
	CustomFlags: true,
	UsageLine:   "annotations sample [--langs fr,sw,bn,te] [--levels low,medium,high] [--per-level 20] [--seed S] [--aligner NAME] [--models M,..] [--force] --out FILE.jsonl",
	Short:       "draw the paper's human-audit sample, ready to fill and import",
	Long: `Annotations sample draws the human evaluation of DATG (the paper's appendix
"Human Evaluation of DATG"): per language of --langs and level of --levels,
--per-level base en-x traces drawn from those with a current score under
the aligner (every model of the run pooled, or --models), each with its
best reference DAG. The draw is seeded (--seed, default 42): the same seed
and run give a byte-identical file, another seed another draw. A cell with
fewer candidates than --per-level gives them all, and says so on stderr.

The file is in the format datg import annotations reads, one instance a
line, with every judgment null: annotator, nodes and edges (valid?),
statuses (a status and an evidence span per node) and harmful (the
aligner's harmful-action candidates: confirmed?). "context" holds what the
annotator judges from (question, trace, DAG, candidates, instructions); the
import does not read it. The import refuses a null judgment, naming the
line and field: fill them (or remove a key to leave it unjudged), set
annotator, and import each annotator's copy.

--aligner picks whose scores choose the best DAG and whose candidates are
listed (default: the run's only aligner). The file is written atomically;
an existing --out is an error unless --force.`,
}

var (
	annotationsCfg      = annotations.DefaultConfig()
	annotationsData     = dataFlag(&cmdAnnotations.Flag)
	annotationsLangs    = listFlag(annotationsCfg.Langs)
	annotationsLevels   = listFlag(annotationsCfg.Levels)
	annotationsModels   listFlag
	annotationsOut      = cmdAnnotations.Flag.String("out", "", "the JSONL file to write")
	annotationsPerLevel = cmdAnnotations.Flag.Int("per-level", annotationsCfg.PerLevel, "instances per (language, level)")
	annotationsSeed     = cmdAnnotations.Flag.Int64("seed", annotationsCfg.Seed, "seed of the draw")
	annotationsAligner  = cmdAnnotations.Flag.String("aligner", "", "whose scores and candidates (default: the run's only aligner)")
	annotationsForce    = cmdAnnotations.Flag.Bool("force", false, "replace --out when it exists")
)

func init() {
	cmdAnnotations.Flag.Var(&annotationsLangs, "langs", "audited languages (en-x traces reasoning in them)")
	cmdAnnotations.Flag.Var(&annotationsLevels, "levels", "levels, a cell each per language")
	cmdAnnotations.Flag.Var(&annotationsModels, "models", "models to draw from (default: all)")
	cmdAnnotations.Run = runAnnotations
}

func runAnnotations(ctx context.Context, cmd *Command, args []string) error {
	if _, err := actionThenFlags(cmd, args, []string{"sample"}, "the only subcommand is sample: datg annotations sample --out FILE.jsonl"); err != nil {
		return err
	}
	cfg := annotationsCfg
	cfg.Data, cfg.Out, cfg.Langs, cfg.Levels, cfg.Models = *annotationsData, *annotationsOut, annotationsLangs, annotationsLevels, annotationsModels
	cfg.PerLevel, cfg.Seed, cfg.Aligner, cfg.Force = *annotationsPerLevel, *annotationsSeed, *annotationsAligner, *annotationsForce
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := annotations.Run(ctx, cfg)
	if err != nil {
		return err
	}
	for _, c := range sum.Cells {
		if c.Short(cfg.PerLevel) {
			fmt.Fprintf(stderr, "datg: annotations: %s %s has %d candidates, fewer than --per-level %d: all %d taken\n",
				c.Lang, c.Level, c.Candidates, cfg.PerLevel, c.Drawn)
		}
	}
	fmt.Fprintf(stdout, "annotations: %d instances (seed %d, aligner %s) -> %s\n", sum.Instances, cfg.Seed, sum.Aligner, cfg.Out)
	return nil
}
