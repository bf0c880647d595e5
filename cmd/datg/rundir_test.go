package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// makesRun lists the commands with --data that may be given a directory
// that is not a run yet: ingest and import create it (CONTRACT), and
// simulate reads the problems only when there are some.
var makesRun = []string{"ingest", "import", "simulate"}

// readingArgs are, for every command that reads the run, arguments that
// pass its usage checks, so that what it says is about --data. A command
// with --data that is in neither list fails the test: decide which it is.
var readingArgs = map[string][]string{
	"sql":         {"select count(*) from traces"},
	"verify":      nil,
	"langcheck":   nil,
	"references":  {"--model", "m", "--base-url", "http://127.0.0.1:1/v1"},
	"dags":        {"--builder", "symbolic"},
	"align":       {"--aligner", "symbolic"},
	"score":       nil,
	"tables":      nil,
	"explain":     nil,
	"view":        nil,
	"annotations": {"--out", "OUT"},
	"control":     {"--method", "base", "--endpoints", "http://127.0.0.1:1/v1"},
	"generate":    {"--endpoints", "http://127.0.0.1:1/v1"},
	"doctor":      nil,
}

// readingLine is the command line of a reading command on dir; out is a
// file the command may be told to write.
func readingLine(name, dir, out string) []string {
	line := []string{name}
	if name == "annotations" {
		line = append(line, "sample")
	}
	line = append(line, "--data", dir)
	for _, a := range readingArgs[name] {
		if a == "OUT" {
			a = out
		}
		line = append(line, a)
	}
	return line
}

// Every command that reads the run refuses a --data that does not exist,
// and an existing directory that holds no run, with one line naming the
// directory and the flag, exit 1, and without making the directory: it
// does not print a count of 0 over empty tables (sql did), nor say a table
// is "not written yet" (verify did).
func TestReadingCommandsNeedARun(t *testing.T) {
	root := t.TempDir()
	missing := filepath.Join(root, "nonexistent", "run")
	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out.jsonl")
	for _, cmd := range commands {
		name := cmd.Name()
		if cmd.Flag.Lookup("data") == nil || slices.Contains(makesRun, name) {
			continue
		}
		if _, ok := readingArgs[name]; !ok {
			t.Errorf("%s takes --data but is neither in makesRun nor in readingArgs", name)
			continue
		}
		for _, c := range []struct{ dir, want string }{
			{missing, "datg: " + name + ": no run directory at " + missing + " (--data or $DATG_DATA; datg ingest creates one)\n"},
			{empty, "datg: " + name + ": no run directory at " + empty + ": the directory holds no current, gen/ or table of datg (--data or $DATG_DATA; datg ingest creates one)\n"},
		} {
			r := datg(t, nil, readingLine(name, c.dir, out)...)
			if r.code != 1 || r.stderr != c.want || r.stdout != "" {
				t.Errorf("datg %s --data %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", name, c.dir, r.code, r.stdout, r.stderr, c.want)
			}
		}
		if _, err := os.Stat(filepath.Dir(missing)); err == nil {
			t.Fatalf("datg %s made %s", name, filepath.Dir(missing))
		}
		if entries, _ := os.ReadDir(empty); len(entries) > 0 {
			t.Fatalf("datg %s wrote into the empty directory: %v", name, entries)
		}
	}
}

// The default --data, data/run, from a working directory without one: the
// error names the working directory it looked in.
func TestDefaultDataFromAnotherDirectory(t *testing.T) {
	wd := t.TempDir()
	for _, name := range []string{"sql", "verify"} {
		line := readingLine(name, "", "")
		line = slices.Delete(line, 1, 3) // no --data
		cmd := datgCmd(t.Context(), []string{"DATG_DATA="}, line...)
		cmd.Dir = wd
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		want := "datg: " + name + ": no run directory at data/run in " + wd + " (--data or $DATG_DATA; datg ingest creates one)\n"
		if !ok || ee.ExitCode() != 1 || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("datg %s in %s: %v, stdout %q, stderr %q; want exit 1 and %q", strings.Join(line, " "), wd, err, stdout.String(), stderr.String(), want)
		}
	}
}
