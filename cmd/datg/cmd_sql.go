package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/datg/datg/internal/duck"
)

var cmdSQL = &Command{
	UsageLine: `sql [--format table|csv|json] [--timeout D] [--memory-limit SIZE] [--max-temp SIZE] ("QUERY" | -f FILE.sql)`,
	Short:     "run DuckDB SQL over the run's tables",
	Long: `SQL runs a query in an embedded DuckDB where every table of the run is a
view by its name (problems, traces, answers, ...; an empty view when the run
has not written it), the study's languages, levels and directions are the
tables datg_languages, datg_levels and datg_directions, the direction
probe's seed is datg_probe (42), and the project's macros (wilson_low,
wilson_high, model_label, probe_trace(method, seed): a trace of the probe,
...) and staging views (stg_graded_traces, whose probe column says it,
stg_alignment_lineage, ...) are loaded. The views read
one generation of the run, the one current when the command started.

It is read-only: only queries run (SELECT, WITH, FROM, VALUES, DESCRIBE,
SHOW, SUMMARIZE, PIVOT), and DuckDB can read the run's table files and no
other file, install or load no extension, and change no setting. Several
queries may be given; the last one's result is printed.

It is bounded: Ctrl-C or SIGTERM stops the query at once, and so does
--timeout; DuckDB's memory is --memory-limit, past which it spills to its
private temporary directory (in $TMPDIR), whose files may take --max-temp.
A query that needs more fails with an error naming the flag to raise.

Infinite and NaN numbers print as inf, -inf and nan (JSON strings), and
infinite dates and timestamps as infinity and -infinity.`,
}

var (
	sqlData    = dataFlag(&cmdSQL.Flag)
	sqlFormat  = cmdSQL.Flag.String("format", duck.FormatTable, "output format: table, csv or json (one object a line)")
	sqlFile    = cmdSQL.Flag.String("f", "", "read the query from this file")
	sqlTimeout = cmdSQL.Flag.Duration("timeout", duck.DefaultTimeout, "stop the query after this long (0: no limit)")
	sqlMemory  sizeFlag
	sqlMaxTemp sizeFlag
)

func init() {
	cmdSQL.Run = runSQL
	cmdSQL.Flag.Var(&sqlMemory, "memory-limit", "DuckDB's memory, a `SIZE` such as 4GB or 512MiB (default: half the memory of the machine, or of its cgroup when less)")
	cmdSQL.Flag.Var(&sqlMaxTemp, "max-temp", "the most disk DuckDB's spill files may take, a `SIZE` (default: 10GB or a fifth of the free space of $TMPDIR's file system, whichever is less)")
}

func runSQL(ctx context.Context, cmd *Command, args []string) error {
	if err := flagAfterArg(cmd, "query", args); err != nil {
		return err
	}
	var query string
	switch {
	case *sqlFile != "" && len(args) == 0:
		b, err := os.ReadFile(*sqlFile)
		if err != nil {
			return err
		}
		query = string(b)
	case *sqlFile == "" && len(args) == 1:
		query = args[0]
	default:
		return usageError{cmd, "give one query, or -f FILE"}
	}
	limits := duck.Limits{MemoryLimit: int64(sqlMemory), MaxTemp: int64(sqlMaxTemp), Timeout: *sqlTimeout}
	if err := needRun(limits, *sqlData); err != nil {
		return err
	}
	db, err := duck.OpenWith(ctx, *sqlData, limits)
	if err != nil {
		return err
	}
	defer db.Close()
	return sqlAdvice(duck.WriteQuery(ctx, db, query, *sqlFormat, stdout))
}

// sqlAdvice adds to a query's error at a limit the flag that raises it.
func sqlAdvice(err error) error {
	switch {
	case errors.Is(err, duck.ErrTimeout):
		return fmt.Errorf("%w; raise --timeout (0: no limit)", err)
	case errors.Is(err, duck.ErrOutOfMemory):
		return fmt.Errorf("%w; raise --memory-limit", err)
	case errors.Is(err, duck.ErrTempFull):
		return fmt.Errorf("%w; raise --max-temp (or --memory-limit, to spill less)", err)
	case errors.Is(err, duck.ErrDiskFull):
		return fmt.Errorf("%w; set TMPDIR to a file system with more free space (or raise --memory-limit, to spill less)", err)
	}
	return err
}

// sizeFlag is a size in bytes, given as 512MB, 2GB, 1.5GiB or a number of
// bytes; 0 is the default.
type sizeFlag int64

func (f *sizeFlag) String() string {
	if *f == 0 {
		return ""
	}
	return duck.FormatSize(int64(*f))
}

func (f *sizeFlag) Set(s string) error {
	n, err := duck.ParseSize(s)
	*f = sizeFlag(n)
	return err
}
