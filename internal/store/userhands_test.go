package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/schema"
)

// The tests below are what a user's hands do in a run directory between
// commits (cp, mv, ln -s, rm, mkdir, chmod), each as a red-team pass
// reproduced it: datg must never remove what it did not make, and must
// read every table as committed or refuse it with an error naming it.

// tree records every entry under root: files by content hash, links by
// target, directories by name.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			out[rel] = "link " + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, _ := os.ReadFile(path)
			sum := sha256.Sum256(b)
			out[rel] = hex.EncodeToString(sum[:8])
		}
		return nil
	})
	return out
}

func quietWarnings(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	t.Cleanup(SetWarnings(&buf))
	return &buf
}

// Item 1: a user's folder named like a table (notes kept in
// data/run/annotations/) was removed by every commit of any stage.
func TestUsersFolderNamedLikeATableSurvivesCommits(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	folder := filepath.Join(dir, "answers") // answers is committed, as a file
	os.Mkdir(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "NOTES.txt"), []byte("my notes"), 0o644)
	os.WriteFile(filepath.Join(folder, "alice.jsonl"), []byte(`{"a":1}`+"\n"), 0o644)
	before := tree(t, folder)
	for v := 2; v <= 4; v++ {
		if err := commitVersion(dir, v); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(before, tree(t, folder)); diff != "" {
		t.Fatalf("the user's folder changed (-before +after):\n%s", diff)
	}
	if got := versionOf(t, dir); got != 4 {
		t.Fatalf("version %d, want 4", got)
	}
}

// Item 2: a table file put in the notebook link's place is refused by
// every reader, a pinned one included (sql, tables and explain read the
// generation past it), and no commit renames over it.
func TestHandPlacedTableFileIsRefusedAndKept(t *testing.T) {
	warned := quietWarnings(t)
	dir := newRun(t)
	path := FilePath(dir, schema.Nodes.Table)
	os.Remove(path)
	writeParquet(t, path, []schema.Node{{DagID: "user", NodeID: "user"}})
	mine, _ := os.ReadFile(path)

	if _, err := ReadAll(dir, schema.Nodes); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("reading the run: %v, want ErrStrayTable", err)
	}
	snap, err := Pin(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAll(snap.Dir, schema.Nodes); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("reading a pinned generation: %v, want ErrStrayTable", err)
	}
	if _, err := Inspect(snap.Dir, schema.Nodes.Table); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("inspecting a pinned generation (DuckDB's way in): %v, want ErrStrayTable", err)
	}
	snap.Close()
	// A stage that writes another table commits, and leaves the file.
	if err := WriteAll(dir, schema.Scores, Meta{Stage: "score"}, []schema.Score{{TraceID: "t", DagID: "d"}}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, mine) {
		t.Fatalf("the user's file was replaced (%v)", err)
	}
	if !strings.Contains(warned.String(), path) {
		t.Errorf("no warning names %s: %q", path, warned.String())
	}
}

// Item 3 and 16: a current that is not gen/<8 digits> (a mistyped
// rollback, a link through another link, a generation that is gone) is
// refused by readers and commits, with the way out, and nothing is
// collected.
func TestCurrentNotAGenerationIsRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(dir string)
	}{
		{"ln -sfn gen current", func(dir string) { relink(dir, "gen") }},
		{"through another link", func(dir string) {
			os.Symlink("gen", filepath.Join(dir, "gen2"))
			relink(dir, "gen2/"+genName(3))
		}},
		{"absolute", func(dir string) { relink(dir, filepath.Join(dir, "gen", genName(3))) }},
		{"deleted generation", func(dir string) { relink(dir, "gen/"+genName(99)) }},
		{"seven digits", func(dir string) { relink(dir, "gen/0000003") }},
		{"not a link", func(dir string) {
			os.Remove(filepath.Join(dir, currentLink))
			os.Mkdir(filepath.Join(dir, currentLink), 0o755)
		}},
		{"missing", func(dir string) { os.Remove(filepath.Join(dir, currentLink)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			quietWarnings(t)
			dir := newRun(t)
			if err := commitVersion(dir, 2); err != nil {
				t.Fatal(err)
			}
			c.damage(dir)
			gens := tree(t, filepath.Join(dir, genDir))
			if _, err := ReadAll(dir, schema.Nodes); !errors.Is(err, ErrBadRun) {
				t.Fatalf("read: %v, want ErrBadRun", err)
			} else if !strings.Contains(err.Error(), "datg doctor") {
				t.Errorf("the error gives no way out: %v", err)
			}
			if _, err := Pin(dir); !errors.Is(err, ErrBadRun) || strings.Contains(err.Error(), "keeps disappearing") {
				t.Fatalf("pin: %v, want ErrBadRun naming the cause", err)
			}
			if err := commitVersion(dir, 3); !errors.Is(err, ErrBadRun) {
				t.Fatalf("commit: %v, want ErrBadRun", err)
			}
			if diff := cmp.Diff(gens, tree(t, filepath.Join(dir, genDir))); diff != "" {
				t.Fatalf("generations changed (-before +after):\n%s", diff)
			}
			if c.name == "not a link" {
				return // a directory in current's place is the user's to move
			}
			var out bytes.Buffer
			if err := Doctor(dir, true, &out); err != nil {
				t.Fatalf("doctor --repair: %v\n%s", err, out.String())
			}
			if got := versionOf(t, dir); got != 2 {
				t.Fatalf("after repair: version %d, want 2", got)
			}
		})
	}
}

func relink(dir, target string) {
	os.Remove(filepath.Join(dir, currentLink))
	os.Symlink(target, filepath.Join(dir, currentLink))
}

// Item 4: gen/ linked to another run's gen/ made this run's commits
// that run's, and collected its current generation.
func TestGenLinkedToAnotherRunIsRefused(t *testing.T) {
	quietWarnings(t)
	a, b := newRun(t), newRun(t)
	for v := 2; v <= 5; v++ {
		if err := commitVersion(b, v); err != nil {
			t.Fatal(err)
		}
	}
	os.Rename(filepath.Join(a, genDir), filepath.Join(a, "gen.bak"))
	os.Symlink(filepath.Join(b, genDir), filepath.Join(a, genDir))
	before := tree(t, b)
	for range 2 {
		if err := commitVersion(a, 7); !errors.Is(err, ErrBadRun) {
			t.Fatalf("commit into a: %v, want ErrBadRun", err)
		}
	}
	if _, err := ReadAll(a, schema.Nodes); !errors.Is(err, ErrBadRun) {
		t.Fatalf("reading a: %v, want ErrBadRun", err)
	}
	after := tree(t, b)
	delete(before, ".commit.lock")
	delete(after, ".commit.lock")
	if diff := cmp.Diff(before, after); diff != "" {
		t.Fatalf("run b changed (-before +after):\n%s", diff)
	}
	if got := versionOf(t, b); got != 5 {
		t.Fatalf("b reads version %d, want 5", got)
	}
}

// Item 5: a table file of a generation replaced by a symlink was read
// through it, and the next commit dropped the table.
func TestSymlinkInAGenerationIsRefused(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	other := filepath.Join(t.TempDir(), "other.parquet")
	writeParquet(t, other, []schema.Answer{{TraceID: "user"}})
	cur, _ := filepath.EvalSymlinks(filepath.Join(dir, currentLink))
	committed := filepath.Join(cur, "answers.parquet")
	os.Remove(committed)
	os.Symlink(other, committed)
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("read: %v, want ErrTableChanged", err)
	}
	if err := commitVersion(dir, 2); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("commit: %v, want ErrTableChanged", err)
	}
	// The commit failed whole: the run is at version 1 with its answers
	// still listed (refused until repaired), never silently empty.
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("after the refused commit: %v, want ErrTableChanged", err)
	}
}

// Item 6: cp over the notebook link writes through it into the file every
// generation shares. The files are read-only, so a user who is not root
// cannot; root's write is found by the manifest, refused, and repaired
// without losing the changed file.
func TestWriteThroughTheNotebookLinkIsRefused(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	link := FilePath(dir, schema.Answers.Table)
	fi, err := os.Stat(link)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o444 {
		t.Fatalf("committed file mode %v, want 0444", fi.Mode().Perm())
	}
	other := filepath.Join(t.TempDir(), "other.parquet")
	writeParquet(t, other, []schema.Answer{{TraceID: "user"}})
	mine, _ := os.ReadFile(other)
	f, err := os.OpenFile(link, os.O_WRONLY|os.O_TRUNC, 0) // cp's open, as root
	if err != nil {
		t.Skipf("cannot write through the read-only link (not root): %v", err)
	}
	f.Write(mine)
	f.Close()

	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("read: %v, want ErrTableChanged", err)
	}
	snap, err := Pin(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(snap.Dir, schema.Answers.Table); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("inspect a pinned generation: %v, want ErrTableChanged", err)
	}
	snap.Close()
	if err := commitVersion(dir, 3); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("commit: %v, want ErrTableChanged", err)
	}
	var out bytes.Buffer
	if err := Doctor(dir, false, &out); !errors.Is(err, ErrUnhealthy) {
		t.Fatalf("doctor: %v, want ErrUnhealthy", err)
	}
	if !strings.Contains(out.String(), "answers") {
		t.Errorf("the diagnosis does not name the table:\n%s", out.String())
	}
	out.Reset()
	if err := Doctor(dir, true, &out); err != nil {
		t.Fatalf("doctor --repair: %v\n%s", err, out.String())
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "recovered", "*answers.parquet"))
	if len(kept) != 1 {
		t.Fatalf("recovered/ holds %v, want the changed file", kept)
	}
	if got, _ := os.ReadFile(kept[0]); !bytes.Equal(got, mine) {
		t.Fatal("the changed file was not kept as it was")
	}
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrNoTable) {
		t.Fatalf("answers after repair: %v, want ErrNoTable (to be written again)", err)
	}
	// The stage that wrote the table runs again; the run is whole.
	if err := WriteAll(dir, schema.Answers, Meta{}, []schema.Answer{{TraceID: "untouched"}}); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != 2 {
		t.Fatalf("version %d, want 2", got)
	}
}

// A file of a generation edited with its size kept is found by its hash
// (its time changed), and one whose time alone changed is accepted.
func TestEditInPlaceFoundByHash(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	cur, _ := filepath.EvalSymlinks(filepath.Join(dir, currentLink))
	path := filepath.Join(cur, "answers.parquet")
	b, _ := os.ReadFile(path)
	os.Chtimes(path, fi(t, path).ModTime(), fi(t, path).ModTime().Add(1))
	if _, err := ReadAll(dir, schema.Answers); err != nil {
		t.Fatalf("touched, same content: %v", err)
	}
	flipped := slices.Clone(b)
	i := bytes.Index(flipped, []byte("untouched"))
	flipped[i] = 'U'
	os.Chmod(path, 0o644)
	os.WriteFile(path, flipped, 0o644)
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("one byte changed: %v, want ErrTableChanged", err)
	}
}

func fi(t *testing.T, path string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A file put into a generation by hand, named like a table the manifest
// does not list, is refused rather than read as committed.
func TestUnlistedFileInAGenerationIsRefused(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	cur, _ := filepath.EvalSymlinks(filepath.Join(dir, currentLink))
	writeParquet(t, filepath.Join(cur, "scores.parquet"), []schema.Score{{TraceID: "user"}})
	if _, err := ReadAll(dir, schema.Scores); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("read: %v, want ErrTableChanged", err)
	}
	// Once the current generation moves on and this one is collected, the
	// user's file and so the directory stay.
	for v := 2; v <= 4; v++ {
		if err := commitVersion(dir, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(cur, "scores.parquet")); err != nil {
		t.Fatalf("the user's file in an old generation was removed: %v", err)
	}
}

// Item 13: a staging directory is alive while its commit holds its lock,
// whatever process id its name holds (another PID namespace, another
// machine on a shared volume, a reused PID).
func TestStagingHeldByALockNotAPID(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	gens := filepath.Join(dir, genDir)
	// A live commit of a process whose PID means nothing here.
	live := filepath.Join(gens, txPrefix+"999999999-live")
	os.Mkdir(live, 0o755)
	os.WriteFile(filepath.Join(live, "traces.parquet"), []byte("being written"), 0o644)
	held, ok := tryLockDir(live)
	if !ok {
		t.Fatal("cannot lock")
	}
	defer held.Close()
	// A killed commit whose PID is now another live process's.
	dead := filepath.Join(gens, txPrefix+strconv.Itoa(os.Getpid())+"-dead")
	os.Mkdir(dead, 0o755)
	os.WriteFile(filepath.Join(dead, "traces.parquet"), []byte("half"), 0o644)
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(live, "traces.parquet")); err != nil {
		t.Fatalf("a live commit's staging was removed: %v", err)
	}
	if _, err := os.Stat(dead); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a killed commit's staging is still there: %v", err)
	}
}

// Killed at any step of a commit, datg still never touches the user's
// entries: a folder named like a table, a file in a table link's place,
// files of their own beside the tables.
func TestKillAtEveryStepLeavesUsersFiles(t *testing.T) {
	for _, step := range commitSteps(t) {
		t.Run(step, func(t *testing.T) {
			quietWarnings(t)
			dir := newRun(t)
			os.Mkdir(filepath.Join(dir, "answers"), 0o755)
			os.WriteFile(filepath.Join(dir, "answers", "NOTES.txt"), []byte("mine"), 0o644)
			os.WriteFile(filepath.Join(dir, "scores.parquet"), []byte("not a table of datg's"), 0o644)
			os.WriteFile(filepath.Join(dir, "analysis.ipynb"), []byte("{}"), 0o644)
			mine := func() map[string]string {
				all := tree(t, dir)
				for k := range all {
					if k != "analysis.ipynb" && k != "scores.parquet" && !strings.HasPrefix(k, "answers") {
						delete(all, k)
					}
				}
				return all
			}
			before := mine()
			runChild(t, dir, "VERSION=2", "KILL_AT="+step).Wait()
			if err := commitVersion(dir, 3); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, mine()); diff != "" {
				t.Fatalf("the user's entries changed (-before +after):\n%s", diff)
			}
			if got := versionOf(t, dir); got != 3 {
				t.Fatalf("version %d, want 3", got)
			}
		})
	}
}

// Repair's relink of current, killed at any instant, leaves a run that
// reads one committed version or is refused, and a second repair ends it.
func TestRepairIsSafeToRepeat(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	relink(dir, "gen")
	for range 2 {
		if _, err := Repair(dir); err != nil {
			t.Fatal(err)
		}
	}
	if got := versionOf(t, dir); got != 2 {
		t.Fatalf("version %d, want 2", got)
	}
	var out bytes.Buffer
	if err := Doctor(dir, false, &out); err != nil {
		t.Fatalf("doctor after repair: %v\n%s", err, out.String())
	}
}

// A run made by datg before manifests (generations without manifest.json,
// files 0644) reads as it is; its next commit hashes the tables it carries
// into the new generation's manifest, and from then on they are checked.
func TestRunFromBeforeManifests(t *testing.T) {
	quietWarnings(t)
	dir := newRun(t)
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	for _, n := range generations(dir) {
		g := filepath.Join(dir, genDir, genName(n))
		os.Remove(filepath.Join(g, manifestName))
		files, _ := filepath.Glob(filepath.Join(g, "*.parquet"))
		for _, f := range files {
			os.Chmod(f, 0o644)
		}
	}
	if got := versionOf(t, dir); got != 2 {
		t.Fatalf("version %d, want 2", got)
	}
	if err := commitVersion(dir, 3); err != nil {
		t.Fatal(err)
	}
	cur, _ := filepath.EvalSymlinks(filepath.Join(dir, currentLink))
	m, err := ReadManifest(cur)
	if err != nil || m == nil {
		t.Fatalf("the first commit made no manifest: %v", err)
	}
	if diff := cmp.Diff([]string{"answers", "edges", "nodes", "problems"}, m.tables()); diff != "" {
		t.Fatalf("manifest tables (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	if err := Doctor(dir, false, &out); err != nil {
		t.Fatalf("doctor: %v\n%s", err, out.String())
	}
	// The carried answers are checked now: a write through the link is found.
	f, err := os.OpenFile(FilePath(dir, schema.Answers.Table), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Skipf("cannot write (not root): %v", err)
	}
	f.Write([]byte("x"))
	f.Close()
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrTableChanged) {
		t.Fatalf("after a write: %v, want ErrTableChanged", err)
	}
}

// A first transaction that fails (an import into a new directory that
// finds no problems) leaves no directory behind that looks like a run.
func TestAbortedFirstTransactionLeavesNoRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new-run")
	w, err := Create(dir, schema.Traces, Meta{Stage: "import traces"})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the aborted first transaction left %s: %v", dir, err)
	}
	// In a directory the user made, nothing of theirs is touched.
	mine := t.TempDir()
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644)
	if w, err = Create(mine, schema.Traces, Meta{}); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if _, err := os.Stat(filepath.Join(mine, "notes.txt")); err != nil {
		t.Fatal(err)
	}
}
