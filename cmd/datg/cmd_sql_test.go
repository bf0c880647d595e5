package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
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
	data := sqlRun(t)
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
	data, tmp := sqlRun(t), t.TempDir()
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
	data := sqlRun(t)
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
	data := sqlRun(t)
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

// Flags come before the query (CONTRACT): one after it is a usage error
// that names it and shows the line in order, not "give one query".
func TestSQLFlagAfterQuery(t *testing.T) {
	data := sqlRun(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"select 1", "--format", "csv"}, `datg: sql: --format comes after the query; flags go before it: datg sql --format csv "select 1" (usage: datg sql `},
		{[]string{"select 1", "--format=json"}, `datg: sql: --format comes after the query; flags go before it: datg sql --format=json "select 1" (usage: `},
		{[]string{"select 1", "-f", "q.sql"}, `datg: sql: -f comes after the query; flags go before it: datg sql -f q.sql "select 1" (usage: `},
		{[]string{"select 1", "select 2"}, "datg: sql: give one query, or -f FILE (usage: "},
	} {
		wantUsageError(t, append([]string{"sql", "--data", data}, c.args...), c.want)
	}
	if r := mustDatg(t, "sql", "--data", data, "--format", "csv", "select 1"); r.stdout != "1\n1\n" {
		t.Errorf("datg sql --format csv \"select 1\": %q", r.stdout)
	}
}

// --format json keeps the SELECT's column order, and a struct's field
// order as DuckDB's to_json writes it (the reference).
func TestSQLJSONKeepsSelectOrder(t *testing.T) {
	data := sqlRun(t)
	const nested = "{'d': 1, 'c': [{'z': 'x', 'y': null}]}"
	ref := mustDatg(t, "sql", "--data", data, "--format", "csv", "select to_json("+nested+")::varchar as s")
	rows, err := csv.NewReader(strings.NewReader(ref.stdout)).ReadAll()
	if err != nil || len(rows) != 2 || rows[1][0] != `{"d":1,"c":[{"z":"x","y":null}]}` {
		t.Fatalf("DuckDB's to_json: %q (%v)", ref.stdout, err)
	}
	r := mustDatg(t, "sql", "--data", data, "--format", "json", "select 2 as b, 1 as a, "+nested+" as s")
	if want := `{"b":2,"a":1,"s":` + rows[1][0] + "}\n"; r.stdout != want {
		t.Errorf("datg sql --format json: %q, want %q", r.stdout, want)
	}
}

// sqlRun is a run for queries that read no table of it: one committed
// problem (datg sql refuses a directory that holds no run).
func sqlRun(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	row := []schema.Problem{{ProblemID: "low-0", Level: "low", Lang: "en", Question: "1+1?", Answer: "2"}}
	if err := store.WriteAll(data, schema.Problems, store.Meta{Stage: "test"}, row); err != nil {
		t.Fatal(err)
	}
	return data
}
