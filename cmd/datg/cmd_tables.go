package main

import (
	"context"

	"github.com/datg/datg/pipelines/tables"
)

var cmdTables = &Command{
	UsageLine: "tables [--out DIR] [--only NAME,..]",
	Short:     "regenerate the paper's tables from the run (DuckDB SQL in sql/tables)",
	Long: `Tables runs every query in sql/tables over the run and writes, per table,
<name>.csv (tidy: one row per cell), <name>.md and <name>.tex (booktabs,
laid out as the paper lays the table out) into --out (default DIR/tables).
It refuses to run while traces are ungraded (run datg verify).

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
)

func init() {
	cmdTables.Run = runTables
	fs := &cmdTables.Flag
	fs.StringVar(&tablesCfg.Out, "out", tablesCfg.Out, "output directory (default DIR/tables)")
	fs.Var(&tablesOnly, "only", "write only these tables")
}

func runTables(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := tablesCfg
	cfg.Data, cfg.Only, cfg.Stdout, cfg.Stderr = *tablesData, tablesOnly, stdout, stderr
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	_, err := tables.Run(ctx, cfg)
	return err
}
