package duck

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary hold a database open in a child process
// (DUCK_TEST_HOLD=run directory), for the tests that kill it.
func TestMain(m *testing.M) {
	if run := os.Getenv("DUCK_TEST_HOLD"); run != "" {
		os.Exit(holdDB(run))
	}
	os.Exit(m.Run())
}

// holdDB opens the run, prints DuckDB's private directory, and keeps the
// database open until its stdin closes (or it is killed).
func holdDB(run string) int {
	db, err := Open(context.Background(), run)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	fmt.Println(db.tempDir.path)
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// startHolder starts a child process holding the run open and returns it
// with its private directory.
func startHolder(t *testing.T, run string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DUCK_TEST_HOLD="+run)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the child opened no database: %v", err)
	}
	return cmd, line[:len(line)-1]
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// The private directory of a process killed with SIGKILL (which cannot
// remove it) is removed by the next Open; a live process's is kept.
func TestKilledProcessDirectoryIsCollected(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	run := t.TempDir()
	writeAnswers(t, run, "t1")
	killed, killedDir := startHolder(t, run)
	_, aliveDir := startHolder(t, run)
	if filepath.Dir(killedDir) != tmp || filepath.Dir(aliveDir) != tmp {
		t.Fatalf("private directories %s, %s not in $TMPDIR %s", killedDir, aliveDir, tmp)
	}
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	if !exists(filepath.Join(killedDir, "answers-0.parquet")) {
		t.Fatal("the killed process's directory is not there to collect")
	}

	// What is not a private directory of ours is left alone: a file and a
	// link of the name, and a directory just made by a process that has
	// not locked it yet (no owner file).
	file := filepath.Join(tmp, privateDirPrefix+"file")
	os.WriteFile(file, nil, 0o600)
	target := t.TempDir()
	link := filepath.Join(tmp, privateDirPrefix+"link")
	os.Symlink(target, link)
	fresh := filepath.Join(tmp, privateDirPrefix+"fresh")
	os.Mkdir(fresh, 0o700)
	// One made and never locked an hour ago is a process that died before
	// it could lock it.
	old := filepath.Join(tmp, privateDirPrefix+"old")
	os.Mkdir(old, 0o700)
	longAgo := time.Now().Add(-2 * unownedAge)
	os.Chtimes(old, longAgo, longAgo)

	db := open(t, run)
	if exists(killedDir) {
		t.Error("the killed process's directory was not collected")
	}
	if !exists(filepath.Join(aliveDir, "answers-0.parquet")) {
		t.Error("the live process's directory was removed")
	}
	if !exists(db.tempDir.path) {
		t.Error("the new database has no directory")
	}
	for _, p := range []string{file, link, target, fresh} {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}
	if exists(old) {
		t.Error("a directory never locked, made two hours ago, was not collected")
	}
	checkQuery(t, "the live process's run", db, "SELECT trace_id FROM answers", "trace_id\nt1\n")
}

// Close removes the directory, and a database of the same process keeps
// its own from another Open.
func TestCloseRemovesTheDirectory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	run := t.TempDir()
	a, err := Open(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	b := open(t, run) // collects: a's directory is locked
	if !exists(a.tempDir.path) || !exists(b.tempDir.path) {
		t.Fatal("a live database's directory was collected")
	}
	a.Close()
	if exists(a.tempDir.path) {
		t.Fatal("Close left the directory")
	}
}
