package view

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/datg/datg/internal/duck"
)

// tablesChildren are the processes computing tables that pid started
// (Linux's /proc: the children of each of its threads).
func tablesChildren(t testing.TB, pid int) []int {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // the thread ended
		}
		for _, field := range strings.Fields(string(b)) {
			child, _ := strconv.Atoi(field)
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child))
			args := strings.Split(string(cmdline), "\x00")
			if len(args) > 1 && args[1] == TablesChildCommand {
				out = append(out, child)
			}
		}
	}
	return out
}

// alive says whether pid is a process that has not ended (a zombie has:
// it waits for its parent, or init, to reap it).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

func needProc(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
}

// The tables are computed in a process of their own (the viewer's
// executable run as datg view-tables), which the page shows as it did
// them in the viewer: every table, progress until then, kept in the cache
// for the next viewer.
func TestTablesAreComputedInAChild(t *testing.T) {
	needProc(t)
	dir, cache := writeRun(t, 6), t.TempDir()
	s, ts := serveWith(t, dir, cache)
	seen := map[int]bool{}
	deadline := time.Now().Add(5 * time.Minute)
	var body string
	for {
		status, b, _ := get(t, ts, "/tables")
		for _, pid := range tablesChildren(t, os.Getpid()) {
			seen[pid] = true
		}
		if status != 200 {
			t.Fatalf("/tables: %d\n%s", status, b)
		}
		if !strings.Contains(b, `class="busy"`) {
			body = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tables are not ready after 5 minutes:\n%s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(seen) != 1 {
		t.Errorf("%d processes computed the tables, want 1", len(seen))
	}
	for _, want := range []string{`id="t-datg_main"`, `id="t-accuracy_groups"`, `<table class="paper">`} {
		if !strings.Contains(body, want) {
			t.Errorf("the tables computed in a child lack %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, `class="error`) {
		t.Errorf("a table of the child's failed:\n%s", body)
	}
	<-currentTask(s).done
	if kept, _ := filepath.Glob(filepath.Join(cache, "view", "tables", "*")); len(kept) != 1 {
		t.Errorf("the cache holds %v, want the child's entry", kept)
	}
	if left := tablesChildren(t, os.Getpid()); len(left) != 0 {
		t.Errorf("the child is still running: %v", left)
	}
}

// A child that fails (here: a file of the generation damaged after the
// viewer opened it, so the child cannot open the generation) is said on
// /tables (a 500 naming the computation and what the child said) and in
// the log, and the next load tries again.
func TestFailingTablesChildIsShown(t *testing.T) {
	dir := writeRun(t, 2)
	var log strings.Builder
	s, err := newServer(context.Background(), dir, t.TempDir(), &syncWriter{w: &log})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	files, _ := filepath.Glob(filepath.Join(s.cur.db.SnapshotDir(), "harmful_actions*"))
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(s.cur.db.SnapshotDir(), "harmful_actions", "*"))
	}
	if len(files) == 0 {
		t.Fatalf("no harmful_actions file in %s", s.cur.db.SnapshotDir())
	}
	os.Chmod(files[0], 0o644)
	if err := os.WriteFile(files[0], []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status, body, _ := get(t, ts, "/tables")
		if status == 500 {
			if !strings.Contains(body, "computing the paper tables of generation") || !strings.Contains(body, TablesChildCommand) ||
				!strings.Contains(body, "harmful_actions") {
				t.Errorf("the failed child's page:\n%s", body)
			}
			break
		}
		if status != 200 || !strings.Contains(body, `class="busy"`) {
			t.Fatalf("/tables over a damaged file: %d, not the child's error\n%s", status, body)
		}
		if time.Now().After(deadline) {
			t.Fatal("the failing child's error is not shown after 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !regexp.MustCompile(`the paper tables of generation \d+: .*` + TablesChildCommand + `.*harmful_actions`).MatchString(log.String()) {
		t.Errorf("the log does not name the child's error:\n%s", log.String())
	}
}

// serveForKillEnv makes the test binary a viewer (datg view) over the
// run it names, computing its tables at once, as a real one does: the
// test kills it and looks at its child.
const serveForKillEnv = "DATG_VIEW_TEST_SERVE"

// serveForKill is the viewer serveForKillEnv asks for: it says its
// address on standard output, then serves until a signal.
func serveForKill(dir string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	computeTablesAtOpen = true
	err := Serve(ctx, Config{Data: dir, Addr: "127.0.0.1:0", CacheDir: os.Getenv(serveForKillEnv + "_CACHE"), Log: os.Stderr}, func(addr string) {
		fmt.Printf("serving %s\n", addr)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// Killing the viewer (SIGKILL: it cannot stop anything) kills its
// tables' child; stopping it (SIGTERM, Ctrl-C) stops the child before
// the viewer exits. No process is left computing.
func TestKillingTheViewerKillsTheTablesChild(t *testing.T) {
	needProc(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := writeRun(t, 6)
			cmd := exec.Command(os.Args[0])
			tmp := t.TempDir()
			cmd.Env = append(os.Environ(), serveForKillEnv+"="+dir, serveForKillEnv+"_CACHE="+t.TempDir(), "TMPDIR="+tmp)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errb strings.Builder
			cmd.Stderr = &syncWriter{w: &errb}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(out)
			if !lines.Scan() || !strings.HasPrefix(lines.Text(), "serving ") {
				t.Fatalf("the viewer did not start: %q\n%s", lines.Text(), errb.String())
			}
			var child int
			for deadline := time.Now().Add(2 * time.Minute); child == 0; {
				if c := tablesChildren(t, cmd.Process.Pid); len(c) > 0 {
					child = c[0]
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the viewer started no process for its tables in 2 minutes:\n%s", errb.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			if sig == syscall.SIGTERM && alive(child) {
				t.Errorf("the viewer exited before its tables' child %d", child)
			}
			for deadline := time.Now().Add(30 * time.Second); alive(child); {
				if time.Now().After(deadline) {
					syscall.Kill(child, syscall.SIGKILL)
					t.Fatalf("the tables' child %d outlived its viewer (%s) by 30 s", child, sig)
				}
				time.Sleep(10 * time.Millisecond)
			}
			// The next datg process removes what the killed ones left in
			// the temporary directory: nothing of theirs remains.
			t.Setenv("TMPDIR", tmp)
			db, err := duck.Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("after the viewer (%s) and its child, %s holds %s", sig, tmp, left[0].Name())
			}
		})
	}
}

// syncWriter is a writer for several goroutines (a server's log).
type syncWriter struct {
	mu sync.Mutex
	w  interface{ Write([]byte) (int, error) }
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// A newer generation stops the old one's child (it is not left computing
// tables no page will show), and the new generation's tables are
// computed by a child of their own.
func TestNewGenerationStopsTheTablesChild(t *testing.T) {
	needProc(t)
	tablesAtOpen(t)
	dir := writeRun(t, 6)
	s, ts := serveWith(t, dir, t.TempDir())
	old := currentTask(s)
	var child int
	for deadline := time.Now().Add(2 * time.Minute); child == 0; time.Sleep(10 * time.Millisecond) {
		if c := tablesChildren(t, os.Getpid()); len(c) > 0 {
			child = c[0]
		} else if time.Now().After(deadline) {
			t.Fatal("no child computes the tables after 2 minutes")
		}
	}
	commitFirstTraces(t, dir, ts, 4)
	waitClosed(t, old.done, "the old generation's tables")
	if st := old.status(); !errors.Is(st.err, context.Canceled) {
		t.Errorf("the old generation's tables ended with %v, not stopped", st.err)
	}
	if alive(child) {
		t.Errorf("the old generation's child %d outlived its computation", child)
	}
	if body := tablesWhenReady(t, ts); !strings.Contains(body, `id="t-datg_main"`) {
		t.Errorf("the new generation's tables:\n%s", body)
	}
}
