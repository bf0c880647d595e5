package main

import (
	"context"

	"github.com/datg/datg/pipelines/tables"
	"github.com/datg/datg/study"
)

var cmdTables = &Command{
	UsageLine: "tables [--out DIR] [--only NAME,..] [--probe-seed N] [--ci] [--columns 1|2]",
	Short:     "regenerate the paper's tables from the run (DuckDB SQL in sql/tables)",
	Long: `Tables runs every query in sql/tables over the run and writes, per table,
<name>.csv (tidy: one row per cell, every count and interval), <name>.md
(captioned, numbers right-aligned) and <name>.tex (a complete table float
with its caption and \label{tab:<name>}, fitted to the text block, laid out
as the paper lays the table out) into --out (default DIR/tables), and the
accuracy figure. paper.tex inputs every table and the figure (pdflatex
paper.tex in that directory; --columns 2 sets it in two columns, as the
paper is); index.md says where each file is in the paper.

The paper's tables show the paper's layout; --ci adds to each cell its 95%
interval (Wilson for accuracies, bootstrap for DATG means), as
52.8 [48.4, 57.1]. The tables beyond the paper always show theirs.

The probe tables (all but control, reference_diversity and the human
audit's) read the direction probe alone: base traces at the probe's seed
(--probe-seed, default 42), one per problem and cell. Base traces of other
seeds and the controls' traces never enter them (a warning counts the
former). A table whose inputs are stale over the traces it reads (not
graded: run datg verify; not language-checked: run datg langcheck; ...) is
not written: every other table is, and the command then exits 1 naming
each table left out, why, and what to run.

The outputs replace the previous ones as one set: a failed or killed run
leaves the previous outputs, or the new ones for the next run to finish.
The directory is written into, never replaced: its owner, group and mode
and every file datg did not write stay; a file of an output's name that
datg did not write (DIR/.datg/manifest.json lists what it did) is refused,
not replaced. Models are shown by their size (8B) unless another model of the run
has the same size, then by their full name; run text is escaped for each
format (see README, Paper tables).`,
}

var (
	tablesCfg  = tables.DefaultConfig()
	tablesData = dataFlag(&cmdTables.Flag)
	tablesOnly = listFlag(tablesCfg.Only)
	tablesSeed = cmdTables.Flag.Int64("probe-seed", study.ProbeSeed, "the seed of the direction probe, whose base traces the probe tables read")
)

func init() {
	cmdTables.Run = runTables
	fs := &cmdTables.Flag
	fs.StringVar(&tablesCfg.Out, "out", tablesCfg.Out, "output directory (default DIR/tables)")
	fs.Var(&tablesOnly, "only", "write only these tables")
	fs.BoolVar(&tablesCfg.CI, "ci", tablesCfg.CI, "add 95% intervals (Wilson, bootstrap) to the paper's tables")
	fs.IntVar(&tablesCfg.Columns, "columns", 1, "columns of paper.tex: 1 or 2")
}

func runTables(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := tablesCfg
	cfg.Data, cfg.Only, cfg.Stdout, cfg.Stderr = *tablesData, tablesOnly, stdout, stderr
	cfg.ProbeSeed = tablesSeed
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	_, err := tables.Run(ctx, cfg)
	return err
}
