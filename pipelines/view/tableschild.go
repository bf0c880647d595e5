package view

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/termtext"
	"github.com/datg/datg/pipelines/tables"
)

// A generation's paper tables are computed in a process of their own: the
// viewer runs its own executable again with the hidden subcommand
// TablesChildCommand, which opens the generation as datg tables opens a
// run (the same DuckDB cap), computes the tables with the viewer's code
// (computeTables), writes them as a cache entry and exits. In the
// viewer's process their queries ran on top of what the viewer keeps
// after its builds (80-90 MB at 382,500 traces), and DuckDB's allocator
// kept pages after them: the first start peaked at 495 MB there
// (BENCHMARKS.md). A process of their own returns all of it when it
// exits.

// TablesChildCommand is the hidden datg subcommand that computes one
// generation's paper tables for a viewer (not listed in datg help).
const TablesChildCommand = "view-tables"

// tablesDoneLine and tablesWrittenLine are what the child says on its
// standard output: a line per table done, then where the tables are.
const (
	tablesDoneLine    = "%d of %d tables done\n"
	tablesWrittenLine = "tables written to "
	tablesNotKeptLine = "tables not kept: "
)

// TablesChildConfig is one computation of a generation's paper tables in
// a process of its own, for a viewer.
type TablesChildConfig struct {
	// Generation is the generation's directory (a snapshot's, RUN/gen/N),
	// read in place: the viewer holds it while the child runs.
	Generation string
	// ProbeSeed is the direction probe's seed (datg view --probe-seed).
	ProbeSeed int64
	// Out is the file the tables are written to, as a cache entry
	// (tablescache.go) of key Key: a private temporary file of the
	// viewer's, which it reads and removes.
	Out, Key string
	// Keep is the generation's entry in datg's cache ("": none): the
	// tables are written there instead of Out when every query answered
	// (a page with a failed query is not kept: the next viewer tries
	// again).
	Keep string
	// Stdout receives a line per table done and, last, the file the
	// tables are in (an error is the command's, on its standard error).
	Stdout io.Writer
}

// AddFlags defines the command's flags (what computeTablesInChild passes)
// in fs, setting c's fields.
func (c *TablesChildConfig) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Generation, "generation", "", "the generation's directory")
	fs.Int64Var(&c.ProbeSeed, "probe-seed", 0, "the seed of the direction probe")
	fs.StringVar(&c.Out, "out", "", "the file to write the tables to")
	fs.StringVar(&c.Key, "key", "", "the cache entry's key")
	fs.StringVar(&c.Keep, "keep", "", "the cache entry to write them to when every query answered")
}

// Validate checks every file is named and the key fits an entry's header.
func (c TablesChildConfig) Validate() error {
	var p inputerr.Problems
	if c.Generation == "" {
		p.Add("generation", "no generation directory")
	}
	if c.Out == "" {
		p.Add("out", "no output file")
	}
	if c.Key == "" || strings.ContainsAny(c.Key, " \t\n") {
		p.Add("key", "%q: want a word", c.Key)
	}
	if c.Stdout == nil {
		p.Add("Stdout", "no writer")
	}
	return p.Err()
}

// RunTablesChild computes the generation's paper tables and writes them
// to cfg.Out (or cfg.Keep), saying on cfg.Stdout how far it is and, last,
// where they are.
func RunTablesChild(ctx context.Context, cfg TablesChildConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	db, err := tables.OpenRun(ctx, cfg.Generation)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.SetProbeSeed(ctx, cfg.ProbeSeed); err != nil {
		return err
	}
	r := &runDB{db: db, gen: db.Generation(), probeSeed: cfg.ProbeSeed}
	total := len(tables.Listings())
	var werr error
	results, err := computeTables(ctx, r, func(done int) {
		if _, err := fmt.Fprintf(cfg.Stdout, tablesDoneLine, done, total); err != nil && werr == nil {
			werr = err
		}
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return fmt.Errorf("telling the viewer: %w", werr)
	}
	dest, err := writeChildTables(cfg, results)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cfg.Stdout, "%s%s\n", tablesWrittenLine, dest)
	return err
}

// writeChildTables writes the tables to cfg.Keep when it is given and
// every query answered, else (or when that fails, which cfg.Stdout is
// told: the next viewer computes them again) to cfg.Out, and returns
// the file written.
func writeChildTables(cfg TablesChildConfig, results []tableResult) (string, error) {
	if cfg.Keep != "" && allAnswered(results) {
		err := tablesCache{path: cfg.Keep, key: cfg.Key}.write(results)
		if err == nil {
			return cfg.Keep, nil
		}
		if _, err := fmt.Fprintf(cfg.Stdout, "%s%s\n", tablesNotKeptLine, termtext.OneLine(err.Error())); err != nil {
			return "", err
		}
	}
	if err := (tablesCache{path: cfg.Out, key: cfg.Key}).write(results); err != nil {
		return "", fmt.Errorf("writing the paper tables: %w", err)
	}
	return cfg.Out, nil
}

// allAnswered says whether every table's query answered.
func allAnswered(results []tableResult) bool {
	for _, tr := range results {
		if tr.Err != "" {
			return false
		}
	}
	return true
}

// tablesInChild says the viewer computes the tables in a process of its
// own. The package's tests of the page (rather than of the tables) set
// beforeTable, a hook in this process, and compute them here
// (setBeforeTable turns it off).
var tablesInChild = true

// uncachedKey is the key of a private entry (no cache: it is read once).
const uncachedKey = "uncached"

// computeTablesInChild computes r's tables in a process of their own,
// telling progress how many are done, and returns them; kept in c when c
// is a place in the cache and every query answered. An ended ctx (the
// viewer stops, a newer generation replaced r) stops the child: SIGTERM,
// then SIGKILL after childStopWait; on Linux the child also dies with the
// viewer (a parent-death signal), so none is left behind.
func computeTablesInChild(ctx context.Context, r *runDB, c tablesCache, progress func(done int), notKept func(error)) ([]tableResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding datg's executable to compute the tables: %w", err)
	}
	// In the viewer's DuckDB's private directory: were the viewer killed,
	// the next datg process removes it (a directory of its own in $TMPDIR
	// was left behind).
	tmp, err := os.MkdirTemp(r.db.PrivateDir(), "view-tables-")
	if err != nil {
		return nil, fmt.Errorf("%w: the paper tables' temporary file: %v", ErrNoWritableDir, err)
	}
	defer os.RemoveAll(tmp) // the viewer's own directory
	out, key := filepath.Join(tmp, "tables"), c.key
	if key == "" {
		key = uncachedKey
	}
	args := []string{TablesChildCommand, "--generation", r.db.SnapshotDir(),
		"--probe-seed", strconv.FormatInt(r.probeSeed, 10), "--out", out, "--key", key}
	if c.path != "" {
		args = append(args, "--keep", c.path)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.WaitDelay = childStopWait
	stopChildGently(cmd)
	var stderr tailWriter
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The parent-death signal is the starting thread's: this goroutine
	// keeps its thread until the child has ended.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s %s: %w", exe, TablesChildCommand, err)
	}
	var written string
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		var done, total int
		if path, ok := strings.CutPrefix(line, tablesWrittenLine); ok {
			written = path
		} else if why, ok := strings.CutPrefix(line, tablesNotKeptLine); ok {
			notKept(errors.New(why))
		} else if _, err := fmt.Sscanf(line+"\n", tablesDoneLine, &done, &total); err == nil {
			progress(done)
		}
	}
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("the process computing them (%s %s) failed: %v%s", filepath.Base(exe), TablesChildCommand, err, stderr.said())
	case written != out && (c.path == "" || written != c.path):
		return nil, fmt.Errorf("the process computing them (%s %s) wrote them to %q, not to %s", filepath.Base(exe), TablesChildCommand, written, out)
	}
	results, err := tablesCache{path: written, key: key}.read()
	if err != nil {
		return nil, fmt.Errorf("reading the tables the process computing them wrote: %w", err)
	}
	return results, nil
}

// childStopWait is how long a stopped child has to end before it is
// killed (it interrupts its DuckDB query and removes its temporary files).
const childStopWait = 10 * time.Second

// tailWriter keeps the last maxTail bytes written to it: a failing
// child's last words, for its error.
type tailWriter struct{ b []byte }

const maxTail = 2048

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > maxTail {
		w.b = append([]byte(nil), w.b[len(w.b)-maxTail:]...)
	}
	return len(p), nil
}

// said is what the child said on its standard error, as ": ..." (one
// line), or "".
func (w *tailWriter) said() string {
	s := strings.TrimSpace(string(w.b))
	if s == "" {
		return ""
	}
	return ": " + termtext.OneLine(s)
}
