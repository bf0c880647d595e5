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
	"strings"
	"syscall"
	"testing"
)

// The outputs of two runs. gone.csv is an output the new run no longer
// writes (stale says so: it is removed); other.csv one it does not write
// this time but still owns (kept, as a --only run keeps other tables').
var (
	oldSet = map[string][]byte{"a.csv": []byte("old a"), "b.md": []byte("old b"), "gone.csv": []byte("old gone"), "other.csv": []byte("other")}
	newSet = map[string][]byte{"a.csv": []byte("new a"), "b.md": []byte("new b"), "c.tex": []byte("new c")}
)

func stale(name string) bool { return name != "other.csv" }

// userFiles are what a user keeps in the output directory (a paper's).
var userFiles = map[string]string{"NOTES.md": "mine", "main.tex": `\input{a.csv}`, "sub/deep.txt": "deep"}

// setup makes parent/out holding the old set and the user's files, a
// subdirectory and a symbolic link.
func setup(t *testing.T) (out string) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "out")
	if _, err := Replace(out, oldSet, stale); err != nil {
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
	if err := os.Symlink("NOTES.md", filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	return out
}

// outputs says whether out holds entirely the old set or the new one, or
// "mix": a commit whose renames are not all done, which pending tells.
func outputs(t *testing.T, out string) string {
	t.Helper()
	got := map[string]string{}
	for _, name := range []string{"a.csv", "b.md", "c.tex", "gone.csv", "other.csv"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err == nil {
			got[name] = string(b)
		}
	}
	want := func(set map[string][]byte) map[string]string {
		m := map[string]string{"other.csv": "other"}
		for name, b := range set {
			m[name] = string(b)
		}
		return m
	}
	switch {
	case maps.Equal(got, want(oldSet)):
		return "old"
	case maps.Equal(got, want(newSet)):
		return "new"
	}
	// Each file is the old one or the new one (or gone, while dropped).
	for name, data := range got {
		if data != string(oldSet[name]) && data != string(newSet[name]) && name != "other.csv" {
			t.Fatalf("%s holds %s = %q, of neither set", out, name, data)
		}
	}
	return "mix"
}

// pending says whether a commit record waits in out.
func pending(out string) bool {
	_, err := os.Lstat(filepath.Join(out, stateDir, commitName))
	return err == nil
}

// intact checks that the user's entries are in out as they were, and that
// datg left nothing but its lock and manifest, in out/.datg, and nothing
// beside out.
func intact(t *testing.T, out string) {
	t.Helper()
	for name, data := range userFiles {
		path := filepath.Join(out, name)
		if b, err := os.ReadFile(path); err != nil || string(b) != data {
			t.Errorf("%s: %q, %v", name, b, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s lost its mode: %v %v", name, fi.Mode(), err)
		}
	}
	if target, err := os.Readlink(filepath.Join(out, "link")); err != nil || target != "NOTES.md" {
		t.Errorf("link: %q, %v", target, err)
	}
	entries, _ := os.ReadDir(filepath.Join(out, stateDir))
	for _, e := range entries {
		if e.Name() != lockName && e.Name() != manifestName {
			t.Errorf("left in %s: %s", stateDir, e.Name())
		}
	}
	entries, _ = os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if e.Name() != "out" {
			t.Errorf("left beside %s: %s", out, e.Name())
		}
	}
}

func TestReplaceKeepsWhatItDoesNotWrite(t *testing.T) {
	out := setup(t)
	before, err := os.Stat(filepath.Join(out, "NOTES.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replace(out, newSet, stale); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}
	intact(t, out)
	if after, err := os.Stat(filepath.Join(out, "NOTES.md")); err != nil || !os.SameFile(before, after) {
		t.Errorf("NOTES.md is not the user's file any more: %v", err)
	}
}

// ownership is what a directory must keep across runs.
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

// nobody is the nobody:nogroup of Debian and most Linux systems.
const nobody = 65534

// A shared directory (drwxrwsrwt nobody:nogroup) keeps its inode, owner,
// group, setgid and sticky bits, and datg's files in it take its group as
// setgid says.
func TestReplaceKeepsTheDirectoryItself(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	out := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(out, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(out, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o777|fs.ModeSetgid|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	want := ownershipOf(t, out)
	if want.mode.String() != "dgtrwxrwxrwx" {
		t.Fatalf("setup: %v", want.mode)
	}
	for _, set := range []map[string][]byte{oldSet, newSet} {
		if _, err := Replace(out, set, stale); err != nil {
			t.Fatal(err)
		}
		if got := ownershipOf(t, out); got != want {
			t.Fatalf("the directory was %+v, is %+v", want, got)
		}
	}
	if got := ownershipOf(t, filepath.Join(out, "c.tex")); got.gid != nobody {
		t.Errorf("c.tex has group %d, not the setgid directory's", got.gid)
	}
}

// A directory datg creates in a setgid directory (a project's) inherits
// setgid and the group, as any mkdir there, and keeps them.
func TestReplaceInSetgidParent(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to nogroup needs root")
	}
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
	for _, set := range []map[string][]byte{oldSet, newSet} {
		if _, err := Replace(out, set, stale); err != nil {
			t.Fatal(err)
		}
		got := ownershipOf(t, out)
		if got.mode&fs.ModeSetgid == 0 || got.gid != nobody {
			t.Fatalf("%s is %v group %d", out, got.mode, got.gid)
		}
	}
}

// A file of an output's name that datg did not write, or changed since, is
// refused, named, and left as it is; so is a directory or a link of that
// name. One run names every such file.
func TestReplaceRefusesWhatIsNotItsFile(t *testing.T) {
	out := setup(t)
	mine := filepath.Join(out, "c.tex")
	if err := os.WriteFile(mine, []byte("my own c.tex"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(out, "b.md")
	if err := os.WriteFile(edited, []byte("old b, edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Replace(out, newSet, stale)
	if !errors.Is(err, ErrNotOurs) || !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), mine) || !strings.Contains(err.Error(), edited) {
		t.Fatalf("got %v, want ErrNotOurs for %s and ErrChanged for %s", err, mine, edited)
	}
	for path, want := range map[string]string{mine: "my own c.tex", edited: "old b, edited", filepath.Join(out, "a.csv"): "old a"} {
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("%s: %q, want %q", path, b, want)
		}
	}
	// Moved away, datg writes its own.
	os.Remove(mine)
	os.Remove(edited)
	if _, err := Replace(out, newSet, stale); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}

	for _, mk := range []func(string) error{
		func(p string) error { return os.Mkdir(p, 0o755) },
		func(p string) error { return os.Symlink("NOTES.md", p) },
	} {
		d := filepath.Join(out, "d.tex")
		if err := mk(d); err != nil {
			t.Fatal(err)
		}
		if _, err := Replace(out, map[string][]byte{"d.tex": nil}, nil); !errors.Is(err, ErrNotFile) {
			t.Fatalf("got %v, want ErrNotFile", err)
		}
		os.Remove(d)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "a\nb", stateDir} {
		if _, err := Replace(out, map[string][]byte{bad: nil}, nil); !errors.Is(err, ErrBadName) {
			t.Errorf("%q: got %v, want ErrBadName", bad, err)
		}
	}
	if got := outputs(t, out); got != "new" {
		t.Fatalf("outputs %s", got)
	}
	intact(t, out)
}

// An output no longer written is removed while it holds what datg wrote;
// changed since, it is left, reported, and no longer datg's.
func TestReplaceRemovesOnlyWhatItWrote(t *testing.T) {
	out := setup(t)
	if _, err := Replace(out, newSet, stale); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(out, "gone.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("gone.csv is still there: %v", err)
	}

	out = setup(t)
	gone := filepath.Join(out, "gone.csv")
	if err := os.WriteFile(gone, []byte("old gone, annotated"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Replace(out, newSet, stale)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Kept, []string{gone}) {
		t.Errorf("kept %q, want %s", rep.Kept, gone)
	}
	if b, _ := os.ReadFile(gone); string(b) != "old gone, annotated" {
		t.Fatalf("gone.csv: %q", b)
	}
	if _, err := Replace(out, map[string][]byte{"gone.csv": []byte("x")}, stale); !errors.Is(err, ErrNotOurs) {
		t.Fatalf("gone.csv is still datg's: %v", err)
	}
}

// An output whose content does not change is not rewritten: same inode,
// same mtime (a LaTeX build does not see it change). A user's file that
// holds exactly the output is taken as datg's.
func TestReplaceLeavesUnchangedOutputs(t *testing.T) {
	out := setup(t)
	before, err := os.Stat(filepath.Join(out, "a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	same := maps.Clone(oldSet)
	same["b.md"] = []byte("b, changed")
	if err := os.WriteFile(filepath.Join(out, "e.md"), []byte("as datg would"), 0o644); err != nil {
		t.Fatal(err)
	}
	same["e.md"] = []byte("as datg would")
	if _, err := Replace(out, same, stale); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(out, "a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Error("a.csv was rewritten with the same content")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "b.md")); string(b) != "b, changed" {
		t.Errorf("b.md: %q", b)
	}
	delete(same, "e.md")
	if _, err := Replace(out, same, stale); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(out, "e.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("e.md, adopted, was not removed once stale: %v", err)
	}
}

// steps lists the steps of one Replace over setup's directory.
func steps(t *testing.T) []string {
	t.Helper()
	out := setup(t)
	var seen []string
	Fault = func(s string) error { seen = append(seen, s); return nil }
	defer func() { Fault = nil }()
	if _, err := Replace(out, newSet, stale); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stage", "write a.csv", "write c.tex", "sync", "commit", "rename a.csv", "rename c.tex", "drop gone.csv", "manifest", "clean"} {
		if !slices.Contains(seen, want) {
			t.Fatalf("no step %q in %q", want, seen)
		}
	}
	return seen
}

// settled checks what a Replace cut at a step left: the old set or the new
// one, or a mix with the commit record, which Recover (as the next run
// does first) turns into the new set; then the user's entries, and
// nothing of datg's left over.
func settled(t *testing.T, out, what string) {
	t.Helper()
	got := outputs(t, out)
	if pending(out) {
		got = "new" // committed: recovery finishes it
	} else if got == "mix" {
		t.Fatalf("%s: a mix of old and new outputs and no commit record", what)
	}
	rep, err := Recover(out)
	if err != nil {
		t.Fatalf("%s: recover: %v", what, err)
	}
	if len(rep.Kept) > 0 {
		t.Errorf("%s: kept %q", what, rep.Kept)
	}
	if again := outputs(t, out); again != got {
		t.Errorf("%s: %s set, then %s after recovery", what, got, again)
	}
	intact(t, out)
	// The recovered directory takes the next run.
	if _, err := Replace(out, oldSet, stale); err != nil {
		t.Fatalf("%s: the next run: %v", what, err)
	}
	if got := outputs(t, out); got != "old" {
		t.Errorf("%s: the next run left %s", what, got)
	}
}

// A failure at any step leaves the old set, or the committed new one for
// the next run to finish.
func TestReplaceFailsAtEachStep(t *testing.T) {
	injected := errors.New("injected")
	for _, at := range steps(t) {
		out := setup(t)
		Fault = func(s string) error {
			if s == at {
				return injected
			}
			return nil
		}
		_, err := Replace(out, newSet, stale)
		Fault = nil
		if !errors.Is(err, injected) {
			t.Fatalf("fault at %q: got %v", at, err)
		}
		settled(t, out, fmt.Sprintf("fault at %q", at))
	}
}

// The subprocess of TestReplaceKilledAtEachStep: Replace, or Recover, that
// kills itself at a step.
func TestMain(m *testing.M) {
	if out := os.Getenv("OUTDIR_KILL_DIR"); out != "" {
		at := os.Getenv("OUTDIR_KILL_AT")
		Fault = func(s string) error {
			if s == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			return nil
		}
		var err error
		if os.Getenv("OUTDIR_KILL_RECOVER") != "" {
			_, err = Recover(out)
		} else {
			_, err = Replace(out, newSet, stale)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A kill -9 at any step of Replace leaves the old set, or the committed
// new one with its record; a recovery killed at the same step again (the
// renames are redone from where they stopped) leaves the same; the next
// run finishes, and the user's entries are all there.
func TestReplaceKilledAtEachStep(t *testing.T) {
	kill := func(out, at string, recover bool) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "OUTDIR_KILL_DIR="+out, "OUTDIR_KILL_AT="+at)
		if recover {
			cmd.Env = append(cmd.Env, "OUTDIR_KILL_RECOVER=1")
		}
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("kill at %q (recovering: %v): the subprocess ended with %v", at, recover, err)
		}
	}
	for _, at := range steps(t) {
		out := setup(t)
		kill(out, at, false)
		if pending(out) {
			outputs(t, out) // each file old or new
			kill(out, "recover", true)
			kill(out, at, true)
		}
		settled(t, out, fmt.Sprintf("kill at %q", at))
	}
}

func TestReplaceIsExclusive(t *testing.T) {
	out := setup(t)
	b, err := Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := Replace(out, newSet, stale); !errors.Is(err, ErrBusy) {
		t.Fatalf("got %v, want ErrBusy", err)
	}
}

// A new directory is made; a symbolic link to the directory stays a link,
// its target's files replaced.
func TestReplaceNewDirAndLink(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "deeper", "out")
	if _, err := Replace(out, oldSet, stale); err != nil {
		t.Fatal(err)
	}
	if got := outputs(t, out); got != "old" {
		t.Fatalf("outputs %s", got)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Replace(link, map[string][]byte{"a.csv": []byte("new a"), "c.tex": []byte("new c")}, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "a.csv"))
	c, _ := os.ReadFile(filepath.Join(out, "c.tex"))
	if g, _ := os.ReadFile(filepath.Join(out, "gone.csv")); string(b) != "new a" || string(c) != "new c" || string(g) != "old gone" {
		t.Fatalf("a.csv %q, c.tex %q", b, c)
	}
}

// A record under .datg that datg did not write is refused, named, and
// nothing is written or removed by it.
func TestReplaceRefusesABadRecord(t *testing.T) {
	for _, c := range []struct{ name, record string }{
		{manifestName, `{"format": "datg-outdir/1", "files": {"../NOTES.md": "00"}}`},
		{manifestName, `{"format": "datg-outdir/1", "files": {"a.csv": "not a hash"}}`},
		{manifestName, `{"format": "datg-outdir/2", "files": {}}`},
		{manifestName, `{"format": "datg-outdir/1", "files": {}`},
		{commitName, `{"format": "datg-outdir/1", "stage": "../..", "files": {}, "write": {}, "drop": {}}`},
		{commitName, `{"format": "datg-outdir/1", "stage": "stage-1", "files": {}, "write": {"a.csv": ""}, "drop": {}}`},
	} {
		out := setup(t)
		name, path := c.name, filepath.Join(out, stateDir, c.name)
		if err := os.WriteFile(path, []byte(c.record), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Replace(out, newSet, stale); !errors.Is(err, ErrBadState) || !strings.Contains(err.Error(), path) {
			t.Fatalf("%s: got %v, want ErrBadState naming %s", name, err, path)
		}
		if got := outputs(t, out); got != "old" {
			t.Fatalf("%s: outputs %s", name, got)
		}
	}
}

// Records are read from a file anyone can edit: any content is an error
// or a record whose names stay in the directory, never a panic.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"format": "datg-outdir/1", "files": {"a.csv": "` + strings.Repeat("0", 64) + `"}}`))
	f.Add([]byte(`{"format": "datg-outdir/1", "stage": "stage-1", "files": {}, "write": {}, "drop": {}}`))
	f.Add([]byte(`{"format": "datg-outdir/1", "stage": "", "files": {"..": ""}, "write": {}, "drop": {"x": ""}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := parseManifest("manifest.json", b); err == nil {
			for name, sum := range m.Files {
				if validName(name) != nil || !isHash(sum) {
					t.Fatalf("manifest entry %q: %q", name, sum)
				}
			}
		}
		if c, err := parseCommit("commit.json", b); err == nil {
			if c.Stage != "" && !stagePattern.MatchString(c.Stage) {
				t.Fatalf("stage %q", c.Stage)
			}
			for _, set := range []map[string]string{c.Files, c.Write, c.Drop} {
				for name := range set {
					if validName(name) != nil {
						t.Fatalf("name %q", name)
					}
				}
			}
		}
	})
}

// A directory of outputs from a datg that kept no manifest: the refusal
// names every file in the way (up to maxConflicts, then how many more) and
// says why.
func TestReplaceBeforeAnyManifest(t *testing.T) {
	out := t.TempDir()
	files := map[string][]byte{}
	for i := range maxConflicts + 3 {
		name := fmt.Sprintf("t%02d.csv", i)
		if err := os.WriteFile(filepath.Join(out, name), []byte("by an older datg"), 0o644); err != nil {
			t.Fatal(err)
		}
		files[name] = []byte("new")
	}
	_, err := Replace(out, files, nil)
	if !errors.Is(err, ErrNotOurs) {
		t.Fatalf("got %v, want ErrNotOurs", err)
	}
	for _, want := range []string{filepath.Join(out, "t00.csv"), "and 3 more files in the way", "no record of datg's files yet"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
}
