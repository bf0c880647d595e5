package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"golang.org/x/mod/module"
)

var cmdVersion = &Command{
	UsageLine: "version",
	Short:     "print datg's version, commit and DuckDB version (also datg --version)",
	Long: `Version prints three lines: datg's version (the one recorded in every table
datg writes), the commit the binary was built from (with "modified" when
the checkout had uncommitted changes; for a binary that go install built
from the module proxy, the commit its pseudo-version names; "unknown" for
one built without version control information), and the version of the
DuckDB embedded in it.
datg --version prints the same.`,
}

func init() {
	cmdVersion.Run = func(ctx context.Context, cmd *Command, args []string) error {
		if err := noArgs(cmd, args); err != nil {
			return err
		}
		return printVersion(ctx, stdout)
	}
}

// buildCommit and buildModified are the commit and its state ("true":
// uncommitted changes) that make build sets with -ldflags -X, from git:
// go build records them itself (vcs.revision, vcs.modified), except in a
// linked git worktree (golang/go#58218) or with -buildvcs=false.
var buildCommit, buildModified string

// printVersion writes what datg version and datg --version print.
func printVersion(ctx context.Context, w io.Writer) error {
	engine, err := duck.Version(ctx)
	if err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	_, err = fmt.Fprintf(w, "datg %s\ncommit %s\nduckdb %s\n", store.Version, commitOf(bi, buildCommit, buildModified), engine)
	return err
}

// commitOf is the commit a binary was built from: the one make build gave
// (ldCommit, ldModified), else the one the go command recorded (go help
// buildinfo: vcs.revision, vcs.modified), else the commit prefix that the
// main module's pseudo-version carries, else "unknown". make's comes
// first: in a linked worktree nested in another checkout, go build records
// that checkout's commit. A binary that go install built from the module
// proxy (datg@latest, @<commit>) has no VCS record, only its module's
// version, and a pseudo-version ends in the commit's first 12 hex digits.
func commitOf(bi *debug.BuildInfo, ldCommit, ldModified string) string {
	revision, modified := ldCommit, ldModified
	if revision == "" && bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	if revision == "" && bi != nil && module.IsPseudoVersion(bi.Main.Version) {
		if rev, err := module.PseudoVersionRev(bi.Main.Version); err == nil {
			return rev + " (from the module version " + bi.Main.Version + ")"
		}
	}
	switch {
	case revision == "":
		return "unknown (built without version control information)"
	case modified == "true":
		return revision + " (modified)"
	}
	return revision
}
