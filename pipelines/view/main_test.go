package view

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// TestMain runs the package's tests with a generation's paper tables
// computed on the first /tables, not when a viewer opens it (see
// computeTablesAtOpen): the tests that check the computation at open turn
// it on (tablesAtOpen).
//
// The long tests that change no package variable call t.Parallel: they run
// together (two at a time on two cores) once every other test is done, so
// the tests that set a package variable (indexPartRows, viewMemory,
// computeTablesAtOpen, beforeTable) or the environment (t.Setenv), and
// restore it when they end, never run beside them; nor do the tests that
// measure memory.
//
// The test binary doubles as datg's hidden view-tables command, which the
// viewer runs to compute a generation's tables (tableschild.go): run so,
// it computes them and exits.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == TablesChildCommand {
		os.Exit(tablesChildMain(os.Args[2:]))
	}
	if dir := os.Getenv(serveForKillEnv); dir != "" {
		os.Exit(serveForKill(dir))
	}
	computeTablesAtOpen = false
	code := m.Run()
	if shared.root != "" {
		os.RemoveAll(shared.root)
	}
	os.Exit(code)
}

// tablesChildMain is datg view-tables (cmd/datg's cmd_viewtables.go) in
// the test binary: its flags, and its error on standard error.
func tablesChildMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := TablesChildConfig{Stdout: os.Stdout}
	fs := flag.NewFlagSet(TablesChildCommand, flag.ContinueOnError)
	cfg.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := RunTablesChild(ctx, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "datg: %s: %v\n", TablesChildCommand, err)
		return 1
	}
	return 0
}

// shared is a run with its paper tables computed once, for the tests that
// only read them (sharedTables): a computation costs seconds of CPU
// (DuckDB's bootstrap replicates in the DATG tables, whatever the run's
// size), so each test computing its own made the package's tests
// minutes longer under load.
var shared struct {
	once       sync.Once
	root       string // removed by TestMain
	dir, cache string
	err        error
	ok         bool // built (a failure inside writeRunIn leaves it false)
}

// sharedTables is writeRun(t, 6)'s run and a cache directory holding its
// computed tables: a viewer over the run with that cache (serveWith)
// shows them on its first /tables, computing nothing. Tests must change
// neither (a test that commits to a run writes its own).
func sharedTables(t *testing.T) (dir, cache string) {
	t.Helper()
	shared.once.Do(func() {
		if shared.root, shared.err = os.MkdirTemp("", "datg-view-shared-"); shared.err != nil {
			return
		}
		shared.dir, shared.cache = filepath.Join(shared.root, "run"), filepath.Join(shared.root, "cache")
		if shared.err = os.Mkdir(shared.dir, 0o755); shared.err != nil {
			return
		}
		writeRunIn(t, shared.dir, 6)
		s, err := newServer(context.Background(), shared.dir, shared.cache, nil)
		if err != nil {
			shared.err = err
			return
		}
		defer s.Close()
		task := s.replaceTables(s.cur, nil)
		<-task.done
		if st := task.status(); st.page == nil {
			shared.err = fmt.Errorf("computing the shared run's tables: %v", st.err)
			return
		}
		shared.ok = true
	})
	if !shared.ok {
		t.Fatalf("the shared run: %v", shared.err)
	}
	return shared.dir, shared.cache
}

// serveShared is a viewer over the shared run, its tables read from the
// cache (the test fails if they were computed).
func serveShared(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	dir, cache := sharedTables(t)
	s, ts := serveWith(t, dir, cache)
	if task := s.replaceTables(s.cur, nil); task == nil || !task.cached {
		t.Fatal("the shared run's tables are not in its cache")
	}
	return s, ts
}

// tablesAtOpen makes the viewers the test opens compute their tables at
// once, as datg view's do, until the test ends (its viewers are closed
// first: call it before opening them).
func tablesAtOpen(t *testing.T) {
	computeTablesAtOpen = true
	t.Cleanup(func() { computeTablesAtOpen = false })
}
