package main

import (
	"context"

	"github.com/datg/datg/internal/store"
)

var cmdDoctor = &Command{
	UsageLine: "doctor [--repair]",
	Short:     "check the run directory's generations and repair what datg made",
	Long: `Doctor checks the run directory from top to bottom: where current points,
every generation with its commit, stage and tables, every file hashed
against its generation's manifest, entries in a table's place that are not
datg's, and staging directories of commits under way or killed. It exits 1
when the run needs repair.

With --repair it points a current that is missing, damaged or names a lost
generation at the newest generation whose files are all intact; restores a
table whose file was changed outside datg from an intact copy, or else
keeps the changed file in DIR/recovered/ and commits a generation without
that table, so the stage that wrote it can run again (LLM calls replay from
the journal at no cost); makes the notebook links again; and removes
staging directories of killed commits. It never removes or moves a file
datg did not make: those it names, for you to move away.`,
}

var (
	doctorData   = dataFlag(&cmdDoctor.Flag)
	doctorRepair = cmdDoctor.Flag.Bool("repair", false, "repair what datg made (see above)")
)

func init() {
	cmdDoctor.Run = func(ctx context.Context, cmd *Command, args []string) error {
		if err := noArgs(cmd, args); err != nil {
			return err
		}
		if err := needRun(nil, *doctorData); err != nil {
			return err
		}
		return store.Doctor(*doctorData, *doctorRepair, stdout)
	}
}
