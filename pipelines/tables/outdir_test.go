package tables

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/datg/datg/internal/outdir"
)

// nobody is the nobody:nogroup of Debian and most Linux systems.
const nobody = 65534

// ownership is what an output directory keeps across runs.
type ownership struct {
	mode     fs.FileMode
	uid, gid uint32
	ino      uint64
}

func ownershipOf(t *testing.T, path string) ownership {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return ownership{fi.Mode(), st.Uid, st.Gid, st.Ino}
}

// --out a paper's own tables/ (drwxrwsrwt nobody:nogroup, main.tex and
// NOTES.md in it): datg writes into it, never replaces it; a file of an
// output's name that datg did not write is refused by name; outputs of a
// table datg no longer has are removed, unless the user changed them.
func TestTablesWriteIntoTheUsersDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	run := writeRun(t, true)
	out := filepath.Join(t.TempDir(), "paper", "tables")
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(out, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o777|fs.ModeSetgid|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	was := ownershipOf(t, out)
	mine := map[string]string{"main.tex": `\input{direction_accuracy}`, "NOTES.md": "draft", "direction_accuracy.csv": "my own numbers"}
	for name, data := range mine {
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	users := func() {
		t.Helper()
		for name, data := range mine {
			if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != data {
				t.Fatalf("%s: %q, %v", name, b, err)
			}
		}
		if got := ownershipOf(t, out); got != was {
			t.Fatalf("%s was %+v, is %+v", out, was, got)
		}
	}

	_, err := Run(context.Background(), Config{Data: run, Out: out})
	wantRefusal(t, err, outdir.ErrNotOurs, filepath.Join(out, "direction_accuracy.csv"))
	users()
	if _, err := os.Lstat(filepath.Join(out, "accuracy_groups.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused run wrote accuracy_groups.csv: %v", err)
	}

	// Moved away, it is datg's to write; two outputs of a table an older
	// datg had, one edited since.
	if err := os.Rename(filepath.Join(out, "direction_accuracy.csv"), filepath.Join(out, "mine.csv")); err != nil {
		t.Fatal(err)
	}
	mine["mine.csv"] = mine["direction_accuracy.csv"]
	delete(mine, "direction_accuracy.csv")
	if _, err := outdir.Replace(out, map[string][]byte{"retired.csv": []byte("1"), "retired.md": []byte("2")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "retired.md"), []byte("2, annotated"), 0o644); err != nil {
		t.Fatal(err)
	}
	mine["retired.md"] = "2, annotated"
	var stderr bytes.Buffer
	sum, err := Run(context.Background(), Config{Data: run, Out: out, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	users()
	for _, path := range sum.Written {
		if got := ownershipOf(t, path); got.gid != nobody {
			t.Errorf("%s has group %d, not the setgid directory's", path, got.gid)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, "retired.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("retired.csv, datg's and no longer written, is still there: %v", err)
	}
	if want := filepath.Join(out, "retired.md") + ": no longer written, left in place"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q does not say %q", stderr.String(), want)
	}
}

// A tables/ that datg makes in a setgid project directory keeps setgid and
// the project's group, run after run.
func TestTablesInASetgidProject(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chgrp to nogroup needs root")
	}
	run := writeRun(t, true)
	project := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(project, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(project, 0, nobody); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(project, 0o775|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(project, "tables")
	for range 2 {
		if _, err := Run(context.Background(), Config{Data: run, Out: out}); err != nil {
			t.Fatal(err)
		}
		if got := ownershipOf(t, out); got.mode&fs.ModeSetgid == 0 || got.gid != nobody {
			t.Fatalf("%s is %v group %d", out, got.mode, got.gid)
		}
	}
}

// The outputs a run no longer writes: those of a table it writes (its
// figure, when the table is empty now) and of a table datg no longer has;
// not those of a table it skips.
func TestStaleOutputs(t *testing.T) {
	stale := staleOutput([]string{"accuracy_groups"})
	for name, want := range map[string]bool{
		"accuracy_groups.svg": true, "accuracy_groups.png": true, "retired_table.csv": true,
		"compliance.csv": false, "direction_accuracy.tex": false, "t1-628b49d96dcde97a430dd4f597705899.html": false,
	} {
		if got := stale(name); got != want {
			t.Errorf("%s: stale %v, want %v", name, got, want)
		}
	}
}
