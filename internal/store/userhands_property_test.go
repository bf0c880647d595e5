package store

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/datg/datg/schema"
)

// TestUserHandsProperty drives random sequences of what a user does in a
// run directory (cp, mv, ln -s, rm, mkdir, chmod, and datg doctor
// --repair) between commits, and checks after every step that
//   - no file, folder or link the user made is removed or changed by datg;
//   - every table either reads as content datg committed (the three tables
//     a commit writes together at one version, the one the generation
//     current names holds, and never the user's rows) or is refused with an
//     error.
//
// Each seed is one sequence; a failure names the seed and the steps, so it
// replays exactly. DATG_USERHANDS_SEEDS runs more.
func TestUserHandsProperty(t *testing.T) {
	seeds := 25
	if s, err := strconv.Atoi(os.Getenv("DATG_USERHANDS_SEEDS")); err == nil {
		seeds = s
	}
	for seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			quietWarnings(t)
			h := newHands(t, uint64(seed))
			for step := range 30 {
				h.act(step)
				h.check()
				if t.Failed() {
					t.Fatalf("steps:\n  %s", strings.Join(h.log, "\n  "))
				}
			}
		})
	}
}

type hands struct {
	t   *testing.T
	rnd *rand.Rand
	dir string
	// mine are the user's entries: path -> what tree records of it.
	mine map[string]string
	// versions maps each generation a test commit made to its version.
	versions map[int]int
	// committed are the versions datg committed.
	committed map[int]bool
	next      int // the next version to commit
	userFile  string
	oldFile   string // a datg file of an older version, kept aside
	log       []string
}

func newHands(t *testing.T, seed uint64) *hands {
	h := &hands{t: t, rnd: rand.New(rand.NewPCG(seed, 19)), mine: map[string]string{},
		versions: map[int]int{}, committed: map[int]bool{}, next: 1}
	h.dir = t.TempDir()
	if err := WriteAll(h.dir, schema.Answers, Meta{}, []schema.Answer{{TraceID: "untouched"}}); err != nil {
		t.Fatal(err)
	}
	h.commit()
	h.commit()
	aside := t.TempDir()
	h.userFile = filepath.Join(aside, "user.parquet")
	writeParquet(t, h.userFile, []schema.Node{{DagID: "user", NodeID: "user"}})
	h.oldFile = filepath.Join(aside, "old-nodes.parquet")
	b, err := os.ReadFile(FilePath(h.dir, schema.Nodes.Table))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(h.oldFile, b, 0o644)
	return h
}

func (h *hands) commit() {
	v := h.next
	n, err := commitGeneration(h.dir, v)
	if err == nil {
		h.versions[n] = v
		h.committed[v] = true
		h.next++
	}
	h.log = append(h.log, fmt.Sprintf("commit v%d: gen %d, %v", v, n, err))
}

// targets are the paths a user's hands reach for.
func (h *hands) targets() []string {
	out := []string{
		"nodes.parquet", "answers.parquet", "problems.parquet", "current", "nodes", "answers",
		"notes.txt", "tables", "gen2", "recovered",
	}
	for _, n := range generations(h.dir) {
		g := filepath.Join(genDir, genName(n))
		out = append(out, g, filepath.Join(g, "nodes.parquet"), filepath.Join(g, "answers.parquet"),
			filepath.Join(g, "scores.parquet"), filepath.Join(g, "NOTES.txt"))
	}
	return out
}

func (h *hands) act(step int) {
	targets := h.targets()
	rel := targets[h.rnd.IntN(len(targets))]
	path := filepath.Join(h.dir, rel)
	var what string
	switch h.rnd.IntN(10) {
	case 0, 1:
		what = h.commitStep()
	case 2:
		src := h.userFile
		if h.rnd.IntN(2) == 0 {
			src = h.oldFile
		}
		what = h.cp(src, path)
	case 3:
		what = h.mv(path, step)
	case 4:
		what = h.ln(path)
	case 5:
		what = h.rm(path)
	case 6:
		what = h.mkdir(path)
	case 7:
		mode := []os.FileMode{0o644, 0o600, 0o444}[h.rnd.IntN(3)]
		err := os.Chmod(path, mode)
		what = fmt.Sprintf("chmod %o %s: %v", mode, rel, err)
	case 8:
		done, err := Repair(h.dir)
		what = fmt.Sprintf("datg doctor --repair: %v %v", done, err)
	default:
		what = h.commitStep()
	}
	h.log = append(h.log, what)
}

func (h *hands) commitStep() string {
	h.commit()
	return "(committed)"
}

// cp writes src's bytes at path as cp does: through a link, over a
// file's content, or as a new file.
func (h *hands) cp(src, path string) string {
	b, _ := os.ReadFile(src)
	_, lerr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err == nil {
		f.Write(b)
		f.Close()
		h.remember(path)
		if errors.Is(lerr, fs.ErrNotExist) {
			// A new file, or a new file where a dangling link pointed.
			if real, err := filepath.EvalSymlinks(path); err == nil {
				h.claim(real)
			}
		}
	}
	return fmt.Sprintf("cp %s %s: %v", filepath.Base(src), h.rel(path), err)
}

// mv moves a new file of the user's onto path.
func (h *hands) mv(path string, step int) string {
	src := filepath.Join(h.dir, ".user-"+strconv.Itoa(step))
	b, _ := os.ReadFile(h.userFile)
	os.WriteFile(src, b, 0o644)
	err := os.Rename(src, path)
	if err != nil {
		os.Remove(src)
	} else {
		h.forgetUnder(path)
		h.claim(path)
	}
	return fmt.Sprintf("mv user.parquet %s: %v", h.rel(path), err)
}

// ln makes path a link (ln -sfn), unless a real directory is there.
func (h *hands) ln(path string) string {
	targets := []string{"gen", "gen/" + genName(1), "../elsewhere", h.userFile, h.oldFile,
		"current/nodes.parquet", "current/answers.parquet"}
	if gens := generations(h.dir); len(gens) > 0 {
		targets = append(targets, "gen/"+genName(gens[0]), "gen/"+genName(gens[len(gens)-1]))
	}
	target := targets[h.rnd.IntN(len(targets))]
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return "ln -sfn over a directory: skipped"
	}
	os.Remove(path)
	h.forgetUnder(path)
	err := os.Symlink(target, path)
	if err == nil && filepath.Base(path) != currentLink && target != filepath.Join(currentLink, filepath.Base(path)) {
		// current is datg's: a user's link there is a damaged current, for
		// datg doctor --repair to point at a generation again; and a link
		// current/<its name> is datg's notebook link, whoever made it.
		h.claim(path)
	}
	return fmt.Sprintf("ln -sfn %s %s: %v", target, h.rel(path), err)
}

func (h *hands) rm(path string) string {
	err := os.RemoveAll(path)
	h.forgetUnder(path)
	return fmt.Sprintf("rm -rf %s: %v", h.rel(path), err)
}

func (h *hands) mkdir(path string) string {
	err := os.MkdirAll(path, 0o755)
	if err == nil {
		notes := filepath.Join(path, "NOTES-"+strconv.Itoa(h.rnd.IntN(100))+".txt")
		if werr := os.WriteFile(notes, []byte("mine"), 0o644); werr == nil {
			// Where the file is: through current, in a generation.
			real, _ := filepath.EvalSymlinks(notes)
			h.claim(real)
			if fi, _ := os.Lstat(path); fi != nil && fi.IsDir() && !strings.HasPrefix(h.rel(path), "gen") {
				h.claim(path)
			}
		}
	}
	return fmt.Sprintf("mkdir -p %s (with notes): %v", h.rel(path), err)
}

func (h *hands) rel(path string) string {
	r, _ := filepath.Rel(h.dir, path)
	return r
}

// claim records path as the user's, as it is now.
func (h *hands) claim(path string) {
	h.mine[path] = h.describe(path)
}

// remember updates the record of a user's entry the user just changed
// (writing through a link changes the file it points at).
func (h *hands) remember(path string) {
	for p := range h.mine {
		if same(p, path) {
			h.mine[p] = h.describe(p)
		}
	}
}

func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// forgetUnder drops the user's entries at or under path (the user removed
// or replaced them), and the generations there.
func (h *hands) forgetUnder(path string) {
	for n := range h.versions {
		g := filepath.Join(h.dir, genDir, genName(n))
		if g == path || strings.HasPrefix(g, path+string(filepath.Separator)) {
			delete(h.versions, n)
		}
	}
	for p := range h.mine {
		if p == path || strings.HasPrefix(p, path+string(filepath.Separator)) {
			delete(h.mine, p)
		}
	}
}

func (h *hands) describe(path string) string {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return "missing"
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return "link " + target
	case fi.IsDir():
		return "dir"
	}
	b, _ := os.ReadFile(path)
	return fmt.Sprintf("file %x", b)
}

func (h *hands) check() {
	t := h.t
	t.Helper()
	for path, was := range h.mine {
		if now := h.describe(path); now != was {
			t.Errorf("the user's %s changed: %.40s -> %.40s", h.rel(path), was, now)
		}
	}
	h.checkReads(h.dir, "run")
	if snap, err := Pin(h.dir); err == nil {
		h.checkReads(snap.Dir, "pinned")
		snap.Close()
	}
}

// checkReads reads the tables through dir: each reads as committed or is
// refused.
func (h *hands) checkReads(dir, how string) {
	t := h.t
	t.Helper()
	p, errP := ReadAll(dir, schema.Problems)
	n, errN := ReadAll(dir, schema.Nodes)
	e, errE := ReadAll(dir, schema.Edges)
	a, errA := ReadAll(dir, schema.Answers)
	var read []int
	if errP == nil {
		read = append(read, h.version(how, "problems", len(p), func() string { return p[0].Question }))
	}
	if errN == nil {
		read = append(read, h.version(how, "nodes", len(n), func() string { return n[0].NodeID }))
	}
	if errE == nil {
		read = append(read, h.version(how, "edges", len(e), func() string { return e[0].ParentID }))
	}
	if errA == nil && (len(a) != 1 || a[0].TraceID != "untouched") {
		t.Errorf("%s: answers read as %+v", how, a)
	}
	for _, v := range read {
		if v != read[0] {
			t.Errorf("%s: torn read: versions %v", how, read)
		}
	}
	if len(read) == 0 {
		return
	}
	// The generation current names, if a commit of this test made it,
	// holds one known version.
	target, err := os.Readlink(filepath.Join(h.dir, currentLink))
	if gen, ok := currentTarget(target); err == nil && ok {
		if want, made := h.versions[gen]; made && read[0] != want {
			t.Errorf("%s: read version %d, but current names gen %d of version %d", how, read[0], gen, want)
		}
	}
}

func (h *hands) version(how, table string, rows int, value func() string) int {
	if rows != 1 {
		h.t.Errorf("%s: %s read %d rows, want 1", how, table, rows)
		return -1
	}
	v, err := strconv.Atoi(value())
	if err != nil || !h.committed[v] {
		h.t.Errorf("%s: %s read %q, which datg never committed", how, table, value())
	}
	return v
}
