package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/schema"
)

// CheckRun refuses what is not a run, naming the directory, and accepts
// every form of one the readers read: a committed run, one whose commits
// all failed or were killed (gen/ made), a run from before generations and
// a directory of tables; a damaged run passes, for Pin to say how it is
// damaged.
func TestCheckRun(t *testing.T) {
	root := t.TempDir()
	missing := filepath.Join(root, "missing", "run")
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(root, "empty")
	notRun := filepath.Join(root, "not-a-run") // a working directory's data/ with other things in it
	for _, d := range []string{empty, filepath.Join(notRun, "journal"), filepath.Join(notRun, "tables")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(notRun, "notes.parquet"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{missing, "no run directory at " + missing},
		{file, "no run directory at " + file + ": it is a regular file"},
		{empty, "no run directory at " + empty + ": the directory holds no current, gen/ or table of datg"},
		{notRun, "no run directory at " + notRun + ": the directory holds no current, gen/ or table of datg"},
	} {
		err := CheckRun(c.dir)
		if !errors.Is(err, ErrNoRun) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("CheckRun(%s) = %v, want ErrNoRun: %s...", c.dir, err, c.want)
		}
		if _, statErr := os.Stat(missing); statErr == nil {
			t.Fatalf("CheckRun made %s", missing)
		}
	}

	committed := t.TempDir()
	if err := WriteAll(committed, schema.Problems, Meta{Stage: "test"}, problems("low-0")); err != nil {
		t.Fatal(err)
	}
	legacy := t.TempDir()
	if err := os.WriteFile(filepath.Join(legacy, "traces.parquet"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir()
	if err := os.MkdirAll(filepath.Join(folder, "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "traces", "part-0.parquet"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	started := t.TempDir() // a first commit that failed: gen/ and nothing else
	if err := os.Mkdir(filepath.Join(started, "gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	damaged := t.TempDir() // a generation without current
	if err := os.MkdirAll(filepath.Join(damaged, "gen", "00000001"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{committed, legacy, folder, started, damaged} {
		if err := CheckRun(dir); err != nil {
			t.Errorf("CheckRun(%s) = %v, want nil", dir, err)
		}
	}
	if _, err := Pin(damaged); !errors.Is(err, ErrBadRun) {
		t.Errorf("Pin(damaged) = %v, want ErrBadRun", err)
	}
}

// A relative directory (the default data/run) is named as given and with
// the working directory it was looked for in, so a command run from the wrong
// working directory says where it looked.
func TestCheckRunRelative(t *testing.T) {
	t.Chdir(t.TempDir())
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	err = CheckRun(DefaultDir)
	want := "no run directory at data/run in " + wd
	if !errors.Is(err, ErrNoRun) || err.Error() != want {
		t.Fatalf("CheckRun(%s) = %v, want %q", DefaultDir, err, want)
	}
}
