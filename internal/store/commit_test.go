package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/schema"
)

// The tests below commit "version v" of three tables at once (problems,
// nodes, edges: one row each, holding v) beside a table the commits never
// touch (answers), and check after every fault that the three hold one
// version and answers is as it was.

func TestMain(m *testing.M) {
	if os.Getenv("STORE_TEST_CHILD") != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

// child commits versions from $VERSION in $DIR: once, or forever with
// $LOOP; with $KILL_AT it kills itself (SIGKILL) at that commit step.
func child() int {
	dir := os.Getenv("DIR")
	v, _ := strconv.Atoi(os.Getenv("VERSION"))
	if at := os.Getenv("KILL_AT"); at != "" {
		SetFaultHook(func(step string) error {
			if step == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				time.Sleep(time.Second)
			}
			return nil
		})
	}
	for {
		if err := commitVersion(dir, v); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if os.Getenv("LOOP") == "" {
			return 0
		}
		v++
	}
}

func commitVersion(dir string, v int) error {
	_, err := commitGeneration(dir, v)
	return err
}

// commitGeneration commits version v and returns the generation it made.
func commitGeneration(dir string, v int) (int, error) {
	tx, err := Begin(dir, Meta{Stage: "test"})
	if err != nil {
		return 0, err
	}
	defer tx.Abort()
	s := strconv.Itoa(v)
	p, err := MergeIn(tx, schema.Problems)
	if err != nil {
		return 0, err
	}
	n, err := CreateIn(tx, schema.Nodes)
	if err != nil {
		return 0, err
	}
	e, err := CreateIn(tx, schema.Edges)
	if err != nil {
		return 0, err
	}
	// The merge replaces the one problem row: a version is one row in each.
	if err := errors.Join(p.Write(schema.Problem{ProblemID: "p", Lang: "en", Question: s}),
		n.Write(schema.Node{DagID: "d", NodeID: s}), e.Write(schema.Edge{DagID: "d", ParentID: s, ChildID: "c"})); err != nil {
		return 0, err
	}
	err = tx.Commit()
	return tx.Generation, err
}

// versionOf reads the three tables' version through dir (the run, or a
// snapshot) and fails the test unless they agree and answers is intact.
func versionOf(t *testing.T, dir string) int {
	t.Helper()
	p, err1 := ReadAll(dir, schema.Problems)
	n, err2 := ReadAll(dir, schema.Nodes)
	e, err3 := ReadAll(dir, schema.Edges)
	a, err4 := ReadAll(dir, schema.Answers)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatalf("reading the run: %v", err)
	}
	if len(p) != 1 || len(n) != 1 || len(e) != 1 {
		t.Fatalf("rows: %d problems, %d nodes, %d edges; want 1 each", len(p), len(n), len(e))
	}
	if p[0].Question != n[0].NodeID || n[0].NodeID != e[0].ParentID {
		t.Fatalf("torn commit: problems v%s, nodes v%s, edges v%s", p[0].Question, n[0].NodeID, e[0].ParentID)
	}
	if diff := cmp.Diff([]string{"untouched"}, traceIDs(a)); diff != "" {
		t.Fatalf("answers changed (-want +got):\n%s", diff)
	}
	v, _ := strconv.Atoi(p[0].Question)
	return v
}

// newRun makes a run at version 1 with the untouched answers table.
func newRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Answers, Meta{}, []schema.Answer{{TraceID: "untouched"}}); err != nil {
		t.Fatal(err)
	}
	if err := commitVersion(dir, 1); err != nil {
		t.Fatal(err)
	}
	return dir
}

// commitSteps records the fault-hook steps of one commit.
func commitSteps(t *testing.T) []string {
	t.Helper()
	dir := newRun(t)
	var steps []string
	restore := SetFaultHook(func(step string) error {
		steps = append(steps, step)
		return nil
	})
	defer restore()
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"finish problems", "sync nodes", "link", "sync generation", "rename generation", "sync generations", "swap current", "after swap"} {
		if !slices.Contains(steps, want) {
			t.Fatalf("steps %v lack %q", steps, want)
		}
	}
	return steps
}

func stagingLeft(t *testing.T, dir string) []string {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, genDir, txPrefix+"*"))
	return left
}

// A failure at any step before the swap (a failed fsync, a full disk)
// leaves every table as it was; at the swap and after, all are new.
func TestCommitFailsWhole(t *testing.T) {
	for _, step := range commitSteps(t) {
		t.Run(step, func(t *testing.T) {
			dir := newRun(t)
			injected := errors.New("injected fault")
			restore := SetFaultHook(func(s string) error {
				if s == step {
					return injected
				}
				return nil
			})
			err := commitVersion(dir, 2)
			restore()
			want := 1
			if step == "after swap" {
				want = 2
				if err != nil {
					t.Fatalf("a fault after the swap failed the commit: %v", err)
				}
			} else if !errors.Is(err, injected) {
				t.Fatalf("commit: %v, want the injected fault", err)
			}
			if got := versionOf(t, dir); got != want {
				t.Fatalf("version %d after a fault at %q, want %d", got, step, want)
			}
			if left := stagingLeft(t, dir); len(left) != 0 {
				t.Fatalf("staging left after a failed commit: %v", left)
			}
			if err := commitVersion(dir, 3); err != nil {
				t.Fatalf("commit after the fault: %v", err)
			}
			if got := versionOf(t, dir); got != 3 {
				t.Fatalf("version %d after recovery, want 3", got)
			}
		})
	}
}

func runChild(t *testing.T, dir string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"STORE_TEST_CHILD=1", "DIR=" + dir}, env...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if stderr.Len() > 0 {
			t.Logf("child stderr: %s", stderr.String())
		}
	})
	return cmd
}

// A process killed (SIGKILL) at any step of a commit leaves every table
// all old or all new, and the next commit cleans up after it.
func TestKillAtEveryStep(t *testing.T) {
	for _, step := range commitSteps(t) {
		t.Run(step, func(t *testing.T) {
			dir := newRun(t)
			cmd := runChild(t, dir, "VERSION=2", "KILL_AT="+step)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child was not killed at %q: %v", step, err)
			}
			// Each step's hook runs before the step: until the swap the
			// old version stands.
			want := 1
			if step == "after swap" {
				want = 2
			}
			if got := versionOf(t, dir); got != want {
				t.Fatalf("killed at %q: version %d, want %d", step, got, want)
			}
			if err := commitVersion(dir, 3); err != nil {
				t.Fatalf("commit after the kill: %v", err)
			}
			if got := versionOf(t, dir); got != 3 {
				t.Fatalf("version %d after recovery, want 3", got)
			}
			if left := stagingLeft(t, dir); len(left) != 0 {
				t.Fatalf("a killed commit's staging was not collected: %v", left)
			}
			gens, _ := filepath.Glob(filepath.Join(dir, genDir, "0*"))
			if len(gens) > 2 {
				t.Fatalf("generations kept: %v, want the current and the previous", gens)
			}
		})
	}
}

// A writer committing in a loop, killed at random instants: the run always
// reads as one whole version, never going back.
func TestRandomKills(t *testing.T) {
	dir := newRun(t)
	rng := rand.New(rand.NewPCG(1, 2))
	last, v := 1, 2
	for i := 0; i < 25; i++ {
		cmd := runChild(t, dir, "VERSION="+strconv.Itoa(v), "LOOP=1")
		time.Sleep(time.Duration(rng.IntN(40_000)) * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		got := versionOf(t, dir)
		if got < last {
			t.Fatalf("kill %d: version went back from %d to %d", i, last, got)
		}
		last, v = got, got+1000
	}
	if err := commitVersion(dir, v); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != v {
		t.Fatalf("after the kills: version %d, want %d", got, v)
	}
}

// Two processes committing different tables at once lose neither's.
func TestConcurrentCommitsKeepBoth(t *testing.T) {
	dir := newRun(t)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				var err error
				if g == 0 {
					err = commitVersion(dir, 10+i)
				} else {
					err = WriteAll(dir, schema.Compliances, Meta{}, []schema.Compliance{{TraceID: strconv.Itoa(i)}})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != 29 {
		t.Fatalf("version %d, want 29", got)
	}
	c, err := ReadAll(dir, schema.Compliances)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(c))
	for i, r := range c {
		ids[i] = r.TraceID
	}
	if diff := cmp.Diff([]string{"19"}, ids); diff != "" {
		t.Fatalf("compliance rows, want the last commit's (-want +got):\n%s", diff)
	}
}

func traceIDs(answers []schema.Answer) []string {
	ids := make([]string, len(answers))
	for i, a := range answers {
		ids[i] = a.TraceID
	}
	return ids
}

// A snapshot reads one generation however many commits follow, and keeps
// it from being collected until it is closed.
func TestSnapshotHoldsItsGeneration(t *testing.T) {
	dir := newRun(t)
	snap, err := Pin(dir)
	if err != nil {
		t.Fatal(err)
	}
	for v := 2; v <= 5; v++ {
		if err := commitVersion(dir, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := versionOf(t, snap.Dir); got != 1 {
		t.Fatalf("snapshot reads version %d, want 1", got)
	}
	if got := versionOf(t, dir); got != 5 {
		t.Fatalf("run reads version %d, want 5", got)
	}
	held := snap.Dir
	snap.Close()
	if err := commitVersion(dir, 6); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(held); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("released generation %s not collected: %v", held, err)
	}
	if err := WriteAll(snap.Dir, schema.Compliances, Meta{}, nil); !errors.Is(err, ErrBadRun) {
		t.Fatalf("writing into a generation: %v, want ErrBadRun", err)
	}
}

// A run from before generations keeps reading as it was; its first commit
// moves its tables into generation 1 and links them for notebooks, leaving
// what is not a table alone.
func TestLegacyRunMigrates(t *testing.T) {
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "answers.parquet"), []schema.Answer{{TraceID: "untouched"}})
	os.Mkdir(filepath.Join(dir, "problems"), 0o755)
	writeParquet(t, filepath.Join(dir, "problems", "part-0.parquet"), []schema.Problem{{ProblemID: "p", Lang: "en", Question: "1"}})
	writeParquet(t, filepath.Join(dir, "nodes.parquet"), []schema.Node{{DagID: "d", NodeID: "1"}})
	writeParquet(t, filepath.Join(dir, "edges.parquet"), []schema.Edge{{DagID: "d", ParentID: "1"}})
	os.MkdirAll(filepath.Join(dir, "journal", "llm"), 0o755)
	os.WriteFile(filepath.Join(dir, "journal", "llm", "x.jsonl"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.parquet"), []byte("a user's file"), 0o644)
	if got := versionOf(t, dir); got != 1 {
		t.Fatalf("legacy run reads version %d", got)
	}
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != 2 {
		t.Fatalf("after the first commit: version %d", got)
	}
	for _, name := range []string{"answers.parquet", "problems.parquet", "nodes.parquet", "edges.parquet"} {
		if target, err := os.Readlink(filepath.Join(dir, name)); err != nil || target != "current/"+name {
			t.Errorf("%s: link %q, %v; want current/%s", name, target, err, name)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "problems")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the superseded folder table is still there: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.parquet")); err != nil || string(b) != "a user's file" {
		t.Errorf("a user's file changed: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "journal", "llm", "x.jsonl")); err != nil {
		t.Errorf("journal: %v", err)
	}
}

// Killed while moving a legacy run into generations, the run still reads
// whole, and the next commit completes the move.
func TestLegacyMigrationKilled(t *testing.T) {
	for _, step := range []string{"sync generation", "rename generation", "swap current", "migrated", "link", "after swap"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			writeParquet(t, filepath.Join(dir, "answers.parquet"), []schema.Answer{{TraceID: "untouched"}})
			writeParquet(t, filepath.Join(dir, "problems.parquet"), []schema.Problem{{ProblemID: "p", Lang: "en", Question: "1"}})
			writeParquet(t, filepath.Join(dir, "nodes.parquet"), []schema.Node{{DagID: "d", NodeID: "1"}})
			writeParquet(t, filepath.Join(dir, "edges.parquet"), []schema.Edge{{DagID: "d", ParentID: "1"}})
			runChild(t, dir, "VERSION=2", "KILL_AT="+step).Wait()
			if got := versionOf(t, dir); got != 1 && got != 2 {
				t.Fatalf("version %d", got)
			}
			if err := commitVersion(dir, 3); err != nil {
				t.Fatal(err)
			}
			if got := versionOf(t, dir); got != 3 {
				t.Fatalf("version %d after recovery, want 3", got)
			}
		})
	}
}

// A table file put in the run directory by hand, outside the committed
// generations, is refused rather than silently ignored.
func TestStrayTableRefused(t *testing.T) {
	dir := newRun(t)
	link := FilePath(dir, schema.Nodes.Table)
	os.Remove(link)
	writeParquet(t, link, []schema.Node{{DagID: "d", NodeID: "9"}})
	if _, err := ReadAll(dir, schema.Nodes); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("stray file: %v, want ErrStrayTable", err)
	}
	os.Remove(link)
	os.Symlink("current/nodes.parquet", link)
	folder := FolderPath(dir, schema.Nodes.Table)
	os.Mkdir(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "NOTES.txt"), []byte("mine"), 0o644)
	if _, err := ReadAll(dir, schema.Nodes); err != nil {
		t.Fatalf("a folder of notes named like a table: %v", err)
	}
	writeParquet(t, filepath.Join(folder, "part-0.parquet"), []schema.Node{{DagID: "d", NodeID: "9"}})
	if _, err := ReadAll(dir, schema.Nodes); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("stray folder: %v, want ErrStrayTable", err)
	}
}

// Where the file system refuses hard links, commits copy the other tables.
func TestCommitWithoutHardLinks(t *testing.T) {
	dir := newRun(t)
	link = func(old, new string) error { return &os.LinkError{Op: "link", Old: old, New: new, Err: syscall.EPERM} }
	defer func() { link = os.Link }()
	for v := 2; v <= 3; v++ {
		if err := commitVersion(dir, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := versionOf(t, dir); got != 3 {
		t.Fatalf("version %d, want 3", got)
	}
}

// A run's current generation, or a link to it, given where the run belongs
// (README: notebooks resolve current) is refused for writing: committing
// there nested a run in the generation, and the next commit of the run
// then removed every table.
func TestWritingIntoAGenerationIsRefused(t *testing.T) {
	dir := newRun(t)
	link := filepath.Join(t.TempDir(), "gen-link")
	real, _ := filepath.EvalSymlinks(filepath.Join(dir, currentLink))
	os.Symlink(real, link)
	for _, into := range []string{filepath.Join(dir, currentLink), real, link} {
		if err := commitVersion(into, 9); !errors.Is(err, ErrBadRun) {
			t.Fatalf("commit into %s: %v, want ErrBadRun", into, err)
		}
	}
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != 2 {
		t.Fatalf("version %d, want 2", got)
	}
}

// A run from before generations whose table is a link to a file elsewhere
// keeps that table when it moves into generations.
func TestLegacyLinkedTableMigrates(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	writeParquet(t, filepath.Join(elsewhere, "answers.parquet"), []schema.Answer{{TraceID: "untouched"}})
	os.Symlink(filepath.Join(elsewhere, "answers.parquet"), filepath.Join(dir, "answers.parquet"))
	writeParquet(t, filepath.Join(dir, "problems.parquet"), []schema.Problem{{ProblemID: "p", Lang: "en", Question: "1"}})
	writeParquet(t, filepath.Join(dir, "nodes.parquet"), []schema.Node{{DagID: "d", NodeID: "1"}})
	writeParquet(t, filepath.Join(dir, "edges.parquet"), []schema.Edge{{DagID: "d", ParentID: "1"}})
	if got := versionOf(t, dir); got != 1 {
		t.Fatalf("legacy run reads version %d", got)
	}
	if err := commitVersion(dir, 2); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, dir); got != 2 { // answers read too
		t.Fatalf("version %d, want 2", got)
	}
	// A table link put in by hand later, to another file, is refused.
	writeParquet(t, filepath.Join(elsewhere, "other.parquet"), []schema.Answer{{TraceID: "other"}})
	os.Remove(filepath.Join(dir, "answers.parquet"))
	os.Symlink(filepath.Join(elsewhere, "other.parquet"), filepath.Join(dir, "answers.parquet"))
	if _, err := ReadAll(dir, schema.Answers); !errors.Is(err, ErrStrayTable) {
		t.Fatalf("a link elsewhere: %v, want ErrStrayTable", err)
	}
}
