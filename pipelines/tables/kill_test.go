package tables

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/datg/datg/internal/outdir"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// killedTables are the tables the killed runs write (a few, for speed; the
// others' outputs, written before, are carried over by each run).
var killedTables = []string{"compliance", "direction_accuracy", "datg_main"}

// TestMain runs the subprocess of TestKilledTablesLeaveOneSet when asked:
// datg tables over TABLES_CHILD_DATA into TABLES_CHILD_OUT, killing itself
// (SIGKILL) at the commit step TABLES_CHILD_KILL_AT when it is set. After
// the tests, it removes the directories they shared (sharedTempDir).
func TestMain(m *testing.M) {
	if data := os.Getenv("TABLES_CHILD_DATA"); data != "" {
		if at := os.Getenv("TABLES_CHILD_KILL_AT"); at != "" {
			outdir.Fault = func(step string) error {
				if step == at {
					syscall.Kill(os.Getpid(), syscall.SIGKILL)
					select {}
				}
				return nil
			}
		}
		cfg := Config{Data: data, Out: os.Getenv("TABLES_CHILD_OUT"), Only: killedTables}
		if _, err := Run(context.Background(), cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	code := m.Run()
	removeSharedTempDirs()
	os.Exit(code)
}

// fileSet is the outputs of one datg tables run: name -> SHA-256.
type fileSet map[string][32]byte

func outputsOf(t *testing.T, data, out string, only []string) fileSet {
	t.Helper()
	sum, err := Run(context.Background(), Config{Data: data, Out: out, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	set := fileSet{}
	for _, path := range sum.Written {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		set[filepath.Base(path)] = sha256.Sum256(b)
	}
	return set
}

// holds says whether dir holds exactly set's files (beside others).
func (set fileSet) heldBy(dir string, other fileSet) bool {
	for name := range other {
		if _, ok := set[name]; !ok {
			if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
				return false
			}
		}
	}
	for name, sum := range set {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || sha256.Sum256(b) != sum {
			return false
		}
	}
	return true
}

// SIGKILL a datg tables subprocess at varied instants, again and again,
// alternating between two runs' outputs: after every kill the output
// directory holds entirely the outputs of one run or of the other, or the
// committed outputs of the killed run with their commit record, which the
// next run finishes first; the user's files, and the directory's owner,
// group and mode, stay. The subprocess kills itself at each commit step
// that matters, or is killed from outside after a random delay.
func TestKilledTablesLeaveOneSet(t *testing.T) {
	runs := [2]string{fixtureRun(t, nil), fixtureRun(t, map[string]string{"Qwen/Qwen3-8B": "Qwen/Qwen3-14B"})}
	// A shared directory of a paper, with the user's files, then every
	// table of the first run.
	out := filepath.Join(t.TempDir(), "tables")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(out, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(out, 0o777|os.ModeSetgid|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	dirWas := ownershipOf(t, out)
	mine := map[string]string{"NOTES.md": "mine", "main.tex": `\input{datg_main}`, "keep/inner.txt": "kept"}
	for name, data := range mine {
		os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755)
		if err := os.WriteFile(filepath.Join(out, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rest := outputsOf(t, runs[0], out, nil)
	sets := [2]fileSet{{}, outputsOf(t, runs[1], t.TempDir(), killedTables)}
	// paper.tex and index.md name the tables, not their numbers: the same
	// for both runs, they cannot tell which run the directory holds.
	for _, same := range []string{paperTeX, indexMD} {
		delete(sets[1], same)
		delete(rest, same)
	}
	for name, sum := range sets[1] {
		if rest[name] == sum {
			t.Fatalf("%s does not tell the two runs apart", name)
		}
		sets[0][name] = rest[name]
		delete(rest, name)
	}
	// held says which run's outputs the directory holds; -1 for a mix,
	// each file of one run or the other, under a commit record.
	held := func() int {
		t.Helper()
		for i, set := range sets {
			if set.heldBy(out, sets[1-i]) {
				return i
			}
		}
		if _, err := os.Lstat(filepath.Join(out, ".datg", "commit.json")); err != nil {
			t.Fatalf("%s holds a mix of two runs' outputs and no commit record", out)
		}
		for name := range sets[1] {
			b, err := os.ReadFile(filepath.Join(out, name))
			if sum := sha256.Sum256(b); err != nil || (sum != sets[0][name] && sum != sets[1][name]) {
				t.Fatalf("%s is of neither run: %v", name, err)
			}
		}
		return -1
	}
	kept := func() {
		t.Helper()
		if !rest.heldBy(out, nil) {
			t.Fatal("the other tables' outputs changed")
		}
		for name, data := range mine {
			if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != data {
				t.Fatalf("%s: %q, %v", name, b, err)
			}
		}
		if got := ownershipOf(t, out); got != dirWas {
			t.Fatalf("the directory was %+v, is %+v", dirWas, got)
		}
	}
	child := func(data, killAt string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "TABLES_CHILD_DATA="+data, "TABLES_CHILD_OUT="+out, "TABLES_CHILD_KILL_AT="+killAt)
		return cmd
	}

	// A whole run, timed, for the range of the random kills.
	start := time.Now()
	if b, err := child(runs[1], "").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	whole := time.Since(start)
	if held() != 1 {
		t.Fatal("a whole run did not replace the outputs")
	}

	// Kills before the commit point leave the previous set; at a rename,
	// a mix under the commit record; then the next run, cut while it
	// finishes that commit (rename) or at its own end.
	steps := []string{"write direction_accuracy.md", "commit", "rename direction_accuracy.md", "rename datg_main.tex", "manifest", "clean"}
	rng := rand.New(rand.NewPCG(1, 2))
	kills, mixes := 0, 0
	last := 1 // the run whose outputs are committed
	for i := range 2 * len(steps) {
		next := 1 - last
		var err error
		if i%2 == 0 {
			err = child(runs[next], steps[i/2]).Run()
		} else {
			cmd := child(runs[next], "")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Int64N(int64(whole))))
			cmd.Process.Signal(syscall.SIGKILL)
			err = cmd.Wait()
		}
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL:
			kills++
		case err != nil:
			t.Fatalf("kill %d: %v", i, err)
		}
		switch h := held(); h {
		case -1:
			mixes++
			// Committed: what the next run first does gives the
			// killed run's outputs.
			if _, err := outdir.Recover(out); err != nil {
				t.Fatal(err)
			}
			if held() != next {
				t.Fatalf("kill %d: the recovery did not finish the killed run's commit", i)
			}
			last = next
		default:
			last = h
		}
		kept()
	}
	if kills < len(steps) || mixes < 2 {
		t.Errorf("only %d of %d runs were killed, %d in their renames", kills, 2*len(steps), mixes)
	}

	// The next whole run finishes every killed one's work.
	if b, err := child(runs[1-last], "").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if held() != 1-last {
		t.Fatal("the last run did not replace the outputs")
	}
	kept()
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if e.Name() != "tables" {
			t.Errorf("left beside the outputs: %s", e.Name())
		}
	}
	entries, _ = os.ReadDir(filepath.Join(out, ".datg"))
	for _, e := range entries {
		if e.Name() != "lock" && e.Name() != "manifest.json" {
			t.Errorf("left in .datg: %s", e.Name())
		}
	}
}

// A commit that fails leaves the previous tables and says where.
func TestFailedCommitKeepsThePreviousTables(t *testing.T) {
	dir := writeRun(t, true)
	before := outputsOf(t, dir, filepath.Join(dir, "tables"), nil)
	// A change the tables show: trace b is now right.
	if err := store.WriteAll(dir, schema.Answers, store.Meta{}, []schema.Answer{
		{TraceID: "a", Correct: true}, {TraceID: "b", Correct: true}, {TraceID: "c", Correct: true}, {TraceID: "d", Correct: true}}); err != nil {
		t.Fatal(err)
	}
	injected := errors.New("injected")
	for _, at := range []string{"write direction_accuracy.csv", "sync", "commit"} {
		outdir.Fault = func(step string) error {
			if step == at {
				return injected
			}
			return nil
		}
		_, err := Run(context.Background(), Config{Data: dir})
		outdir.Fault = nil
		wantRefusal(t, err, injected, filepath.Join(dir, "tables"))

		if !before.heldBy(filepath.Join(dir, "tables"), nil) {
			t.Fatalf("fault at %s: the tables changed", at)
		}
	}
	after := outputsOf(t, dir, filepath.Join(dir, "tables"), nil)
	if after["direction_accuracy.csv"] == before["direction_accuracy.csv"] {
		t.Fatal("the change does not show in direction_accuracy.csv")
	}
}
