package main

import (
	"context"

	"github.com/datg/datg/pipelines/view"
)

// cmdViewTables is datg view's own: the viewer runs it to compute a
// generation's paper tables in a process of their own (see
// pipelines/view/tableschild.go). It is not listed in datg help.
var cmdViewTables = &Command{
	UsageLine: view.TablesChildCommand + " --generation DIR --probe-seed N --out FILE --key KEY [--keep FILE]",
	Short:     "(internal to datg view) compute one generation's paper tables",
	Long: `View-tables is run by datg view, not by hand: it computes the paper
tables of one generation of a run (--generation, the generation's
directory) as the viewer's /tables page shows them, with the direction
probe at --probe-seed, and writes them as an entry of the viewer's cache
(key --key) to --keep when every query answered and --keep is given, else
to --out. It says on its standard output how many tables are done and,
last, the file it wrote.`,
}

var viewTablesCfg view.TablesChildConfig

func init() {
	cmdViewTables.Run = runViewTables
	viewTablesCfg.AddFlags(&cmdViewTables.Flag)
}

func runViewTables(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := viewTablesCfg
	cfg.Stdout = stdout
	return view.RunTablesChild(ctx, cfg)
}
