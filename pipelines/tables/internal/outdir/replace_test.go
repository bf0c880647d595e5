package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

var (
	oldSet = map[string][]byte{"a.csv": []byte("old a"), "b.md": []byte("old b")}
	newSet = map[string][]byte{"a.csv": []byte("new a"), "b.md": []byte("new b"), "c.tex": []byte("new c")}
)

// setup makes parent/out holding the old set and what a user keeps there:
// a file, a subdirectory with a file, a symbolic link and an old output of
// a table the new set does not rewrite.
func setup(t *testing.T) (out string) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "out")
	if err := Replace(out, oldSet); err != nil {
		t.Fatal(err)
	}
	for name, data := range userFiles {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("notes.txt", filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	return out
}

var userFiles = map[string]string{"notes.txt": "mine", "sub/deep.txt": "deep", "other.csv": "another table's"}

// outputs says whether out holds entirely the old set or the new one
// ("none" when there is no directory).
func outputs(t *testing.T, out string) string {
	t.Helper()
	if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
		return "none"
	}
	got := map[string][]byte{}
	for name := range newSet {
		if b, err := os.ReadFile(filepath.Join(out, name)); err == nil {
			got[name] = b
		}
	}
	eq := func(a, b map[string][]byte) bool {
		return maps.EqualFunc(a, b, func(x, y []byte) bool { return string(x) == string(y) })
	}
	switch {
	case eq(got, oldSet):
		return "old"
	case eq(got, newSet):
		return "new"
	}
	t.Fatalf("%s holds a mix of old and new outputs: %q", out, got)
	return ""
}

// intact checks that the user's entries are in out, and that nothing but
// the lock is left beside it.
func intact(t *testing.T, out string) {
	t.Helper()
	for name, data := range userFiles {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != data {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
	if target, err := os.Readlink(filepath.Join(out, "link")); err != nil || target != "notes.txt" {
		t.Errorf("link: %q, %v", target, err)
	}
	if fi, err := os.Stat(filepath.Join(out, "notes.txt")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("notes.txt lost its mode: %v %v", fi.Mode(), err)
	}
	if _, err := os.Lstat(filepath.Join(out, marker)); err == nil {
		t.Errorf("the marker is left in %s", out)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if e.Name() != "out" && e.Name() != ".out.lock" {
			t.Errorf("left beside %s: %s", out, e.Name())
		}
	}
}

func TestReplaceKeepsWhatItDoesNotWrite(t *testing.T) {
	out := setup(t)
	if err := Replace(out, newSet); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}
	intact(t, out)
}

// Where a file system refuses hard links, the files are copied for the
// swap, and the originals then moved back over the copies.
func TestReplaceWithoutHardLinks(t *testing.T) {
	out := setup(t)
	before, err := os.Stat(filepath.Join(out, "notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	link = func(string, string) error { return syscall.EPERM }
	defer func() { link = os.Link }()
	if err := Replace(out, newSet); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}
	intact(t, out)
	if after, err := os.Stat(filepath.Join(out, "notes.txt")); err != nil || !os.SameFile(before, after) {
		t.Errorf("notes.txt is not the user's file any more: %v", err)
	}
}

// steps lists the steps of one Replace over setup's directory.
func steps(t *testing.T) []string {
	t.Helper()
	out := setup(t)
	var seen []string
	Fault = func(s string) error { seen = append(seen, s); return nil }
	defer func() { Fault = nil }()
	if err := Replace(out, newSet); err != nil {
		t.Fatal(err)
	}
	return seen
}

// withoutExchange runs f as on a system without RENAME_EXCHANGE.
func withoutExchange(f func()) {
	exchange = func(a, b string) error { return errors.ErrUnsupported }
	defer func() { exchange = exchangeDirs }()
	f()
}

// A failure at any step of Replace leaves the old set or the new one, and
// the user's entries (moved back by the next run when the failure came
// between the swap and their return).
func TestReplaceFailsAtEachStep(t *testing.T) {
	for _, mode := range []string{"exchange", "two renames"} {
		run := func(f func()) { f() }
		if mode == "two renames" {
			run = withoutExchange
		}
		run(func() {
			all := steps(t)
			for _, want := range []string{"stage", "write a.csv", "carry notes.txt", "carry link", "mark", "swap", "restore sub", "trash", "clean"} {
				if !slices.Contains(all, want) {
					t.Fatalf("%s: no step %q in %q", mode, want, all)
				}
			}
			if mode == "two renames" && !slices.Contains(all, "swap-in") {
				t.Fatalf("no swap-in step in %q", all)
			}
			injected := errors.New("injected")
			for _, at := range all {
				out := setup(t)
				Fault = func(s string) error {
					if s == at {
						return injected
					}
					return nil
				}
				err := Replace(out, newSet)
				Fault = nil
				if !errors.Is(err, injected) {
					t.Fatalf("%s, fault at %q: got %v", mode, at, err)
				}
				recovers(t, out, outputs(t, out), fmt.Sprintf("%s, fault at %q", mode, at))
			}
		})
	}
}

// The subprocess of TestReplaceKilledAtEachStep: Replace that kills itself
// at a step.
func TestMain(m *testing.M) {
	if out := os.Getenv("OUTDIR_KILL_DIR"); out != "" {
		at, mode := os.Getenv("OUTDIR_KILL_AT"), os.Getenv("OUTDIR_KILL_MODE")
		Fault = func(s string) error {
			if s == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return nil
		}
		if mode == "two renames" {
			exchange = func(a, b string) error { return errors.ErrUnsupported }
		}
		if err := Replace(out, newSet); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A kill -9 at any step of Replace, or of the recovery after an earlier
// kill, leaves the old set or the new one; the next run finishes the
// recovery and the user's entries are all there.
func TestReplaceKilledAtEachStep(t *testing.T) {
	for _, mode := range []string{"exchange", "two renames"} {
		all := steps(t)
		if mode == "two renames" {
			withoutExchange(func() { all = steps(t) })
		}
		for _, at := range all {
			out := setup(t)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "OUTDIR_KILL_DIR="+out, "OUTDIR_KILL_AT="+at, "OUTDIR_KILL_MODE="+mode)
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("%s, kill at %q: the subprocess ended with %v", mode, at, err)
			}
			got := outputs(t, out)
			if got == "none" {
				// Only between the two renames: the next run puts the
				// old directory back.
				if at != "swap-in" {
					t.Fatalf("%s, kill at %q: no directory", mode, at)
				}
				got = "old"
			}
			recovers(t, out, got, fmt.Sprintf("%s, kill at %q", mode, at))
		}
	}
}

// recovers checks that Recover, after a Replace cut short, leaves out the
// set it held (got: "old" or "new") and every user entry; what says where
// Replace was cut.
func recovers(t *testing.T, out, got, what string) {
	t.Helper()
	if err := Recover(out); err != nil {
		t.Fatalf("%s: recover: %v", what, err)
	}
	if again := outputs(t, out); again != got {
		t.Errorf("%s: %s set, then %s after recovery", what, got, again)
	}
	intact(t, out)
}

func TestReplaceRefusesWhatIsNotItsFile(t *testing.T) {
	out := setup(t)
	if err := os.Mkdir(filepath.Join(out, "c.tex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Replace(out, newSet); !errors.Is(err, ErrNotFile) {
		t.Fatalf("got %v, want ErrNotFile", err)
	}
	if got := outputs(t, out); got != "old" {
		t.Fatalf("outputs %s", got)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "a\nb", marker} {
		if err := Replace(out, map[string][]byte{bad: nil}); !errors.Is(err, ErrBadName) {
			t.Errorf("%q: got %v, want ErrBadName", bad, err)
		}
	}
}

func TestReplaceIsExclusive(t *testing.T) {
	out := setup(t)
	l, err := open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if err := Replace(out, newSet); !errors.Is(err, ErrBusy) {
		t.Fatalf("got %v, want ErrBusy", err)
	}
}

// A new directory is made whole; a symbolic link to the directory stays a
// link, its target's files replaced.
func TestReplaceNewDirAndLink(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "deeper", "out")
	if err := Replace(out, newSet); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(link, oldSet); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "a.csv"))
	c, _ := os.ReadFile(filepath.Join(out, "c.tex"))
	if string(b) != "old a" || string(c) != "new c" {
		t.Fatalf("a.csv %q, c.tex %q", b, c)
	}
}
