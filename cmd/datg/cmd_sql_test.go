package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endlessQuery runs for hours: 10^13 rows of a cross join.
const endlessQuery = "select count(*) from range(100000000) a, range(100000) b"

// privateDirs lists DuckDB's private directories in tmp.
func privateDirs(t *testing.T, tmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(tmp, "datg-duckdb-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// startQuery starts datg sql on an endless query with TMPDIR=tmp and
// returns once the query runs (its database is open: its private
// directory is there, and a moment has passed).
func startQuery(t *testing.T, data, tmp string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := datgCmd(context.Background(), []string{"TMPDIR=" + tmp}, "sql", "--data", data, endlessQuery)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	for deadline := time.Now().Add(30 * time.Second); len(privateDirs(t, tmp)) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("datg sql opened no database:\n%s", errb.String())
		}
	}
	time.Sleep(500 * time.Millisecond)
	return cmd, &errb
}

// Ctrl-C (SIGINT) or SIGTERM stops a running query at once: datg sql
// exits 1 with a one-line error, and removes its private directory.
func TestSQLStopsOnSignal(t *testing.T) {
	data := t.TempDir()
	for sig, said := range map[syscall.Signal]string{
		syscall.SIGINT:  "datg: sql: query interrupted: interrupt signal received\n",
		syscall.SIGTERM: "datg: sql: query interrupted: terminated signal received\n",
	} {
		tmp := t.TempDir()
		cmd, errb := startQuery(t, data, tmp)
		sent := time.Now()
		cmd.Process.Signal(sig)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: datg sql still running 10s after the signal", sig)
		}
		t.Logf("%s: exited %s after the signal", sig, time.Since(sent).Round(time.Millisecond))
		if code := cmd.ProcessState.ExitCode(); code != 1 || errb.String() != said {
			t.Errorf("%s: exit %d, %q; want exit 1, %q", sig, code, errb.String(), said)
		}
		if left := privateDirs(t, tmp); len(left) != 0 {
			t.Errorf("%s: left %v", sig, left)
		}
	}
}

// kill -9 leaves the private directory; the next datg sql removes it.
func TestSQLCollectsAKilledProcessDirectory(t *testing.T) {
	data, tmp := t.TempDir(), t.TempDir()
	cmd, _ := startQuery(t, data, tmp)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if left := privateDirs(t, tmp); len(left) != 1 {
		t.Fatalf("after kill -9: %v, want the killed process's directory", left)
	}
	if r := datg(t, []string{"TMPDIR=" + tmp}, "sql", "--data", data, "select 1"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if left := privateDirs(t, tmp); len(left) != 0 {
		t.Fatalf("after the next datg sql: %v left", left)
	}
}

// --timeout, --memory-limit and --max-temp bound a query, which then fails
// with one line naming the flag to raise (and not DuckDB's advice to SET
// a setting, which datg sql refuses).
func TestSQLLimitFlags(t *testing.T) {
	data := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--timeout", "500ms", endlessQuery}, 1,
			"datg: sql: query stopped at its time limit of 500ms; raise --timeout (0: no limit)\n"},
		{[]string{"--memory-limit", "50MB", "select count(distinct i) from range(100000000) t(i)"}, 1,
			"datg: sql: out of memory: the query needs more than DuckDB's memory limit of 47.7 MiB (DuckDB: could not allocate block"},
		{[]string{"--memory-limit", "50MB", "--max-temp", "100MB", "select i, j from range(10000000) t(i) join range(10000000) u(j) on i = j order by i desc limit 1"}, 1,
			"datg: sql: out of temporary disk space: the query's spill files would pass their limit of 95.4 MiB (DuckDB: failed to offload"},
		{[]string{"--memory-limit", "5XB", "select 1"}, 2, `datg: sql: invalid value "5XB" for flag -memory-limit: "5XB" is not a size`},
		{[]string{"--timeout", "-1s", "select 1"}, 2, "datg: sql: invalid configuration: --timeout: -1s: want a duration above 0"},
		{[]string{"--memory-limit", "1GB", "--max-temp", "1GB", "--timeout", "1m", "--format", "csv",
			"select current_setting('memory_limit') as m, current_setting('max_temp_directory_size') as t"}, 0, ""},
	}
	for _, c := range cases {
		r := datg(t, nil, append([]string{"sql", "--data", data}, c.args...)...)
		if r.code != c.code || !strings.HasPrefix(r.stderr, c.want) || strings.Count(r.stderr, "\n") > 1 {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if strings.Contains(r.stderr, "SET ") || strings.Contains(r.stderr, "PRAGMA") {
			t.Errorf("%v: DuckDB's advice is in %q", c.args, r.stderr)
		}
		if c.code == 0 && r.stdout != "m,t\n953.6 MiB,953.6 MiB\n" {
			t.Errorf("%v: %q, want the limits given", c.args, r.stdout)
		}
	}
}

// 1e400 passes the query check, and infinite values print as DuckDB
// writes them.
func TestSQLInfiniteValues(t *testing.T) {
	data := t.TempDir()
	r := mustDatg(t, "sql", "--data", data, "--format", "csv",
		"select 1e400 as x, -1e400 as y, 'infinity'::timestamp as t, '-infinity'::timestamp as u")
	if r.stdout != "x,y,t,u\ninf,-inf,infinity,-infinity\n" {
		t.Fatalf("got %q", r.stdout)
	}
	r = mustDatg(t, "sql", "--data", data, "--format", "json", "select 1e400 as x, 'infinity'::date as d")
	if r.stdout != `{"x":"inf","d":"infinity"}`+"\n" {
		t.Fatalf("got %q", r.stdout)
	}
}
