package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/datg/datg/internal/atomicfile"
)

// Fault, when set (by tests), is called before each step of a commit and
// of a recovery with the step's name; an error stops there as a failure
// would.
var Fault func(step string) error

func step(name string) error {
	if Fault == nil {
		return nil
	}
	if err := Fault(name); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// maxConflicts is how many files in the way an error names one by one.
const maxConflicts = 20

// Report is what a commit (or the recovery before it) did that its caller
// should tell the user.
type Report struct {
	// Kept are outputs datg no longer writes that it left in place
	// because they changed since it wrote them (paths); they are the
	// user's from now on.
	Kept []string
}

// Batch is a set of outputs being made for one directory, under its lock.
type Batch struct {
	dir, state string
	lock       *os.File
	old        manifest
	report     Report

	stage string            // the staging directory, once a file is staged
	files map[string]string // every output added: name -> SHA-256
	write map[string]string // the staged ones: name -> SHA-256 of what they replace
	// conflicts are the outputs whose name is taken by what is not datg's.
	conflicts []error
	done      bool
}

// Replace makes files (name -> content) datg's outputs of those names in
// dir, as one set (see the package comment), and removes the outputs it
// wrote before that stale says are no longer written. dir is created when
// missing; a symbolic link to a directory is followed.
func Replace(dir string, files map[string][]byte, stale func(name string) bool) (Report, error) {
	b, err := Begin(dir)
	if err != nil {
		return Report{}, err
	}
	defer b.Close()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := b.Add(name, files[name]); err != nil {
			return b.report, err
		}
	}
	return b.Commit(stale)
}

// Recover finishes, under the lock, what a run killed after its commit
// point left in dir.
func Recover(dir string) (Report, error) {
	b, err := Begin(dir)
	if err != nil {
		return Report{}, err
	}
	b.Close()
	return b.report, nil
}

// Begin takes dir's lock, finishes what a killed run left and returns a
// batch to Add outputs to. Close releases it.
func Begin(dir string) (*Batch, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	state := filepath.Join(dir, stateDir)
	if err := os.Mkdir(state, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s: the output directory must be writable: %w", dir, err)
	}
	// A link here could send datg's deletions elsewhere.
	if fi, err := os.Lstat(state); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: %w", state, ErrBadState)
	}
	lockPath := filepath.Join(state, lockName)
	lock, err := atomicfile.TryLock(lockPath)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, fmt.Errorf("%s: %w (lock %s)", dir, ErrBusy, lockPath)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	b := &Batch{dir: dir, state: state, lock: lock, files: map[string]string{}, write: map[string]string{}}
	if err := b.recover(); err != nil {
		lock.Close()
		return nil, err
	}
	if b.old, err = readManifest(state); err != nil {
		lock.Close()
		return nil, err
	}
	return b, nil
}

// Add stages name's new content. A file of that name that datg did not
// write, or changed since, is a conflict, reported by Commit with every
// other (so that one run names them all).
func (b *Batch) Add(name string, data []byte) error {
	if b.done {
		return errors.New("outdir: Add after Commit or Close")
	}
	if err := validName(name); err != nil {
		return err
	}
	if _, dup := b.files[name]; dup {
		return fmt.Errorf("output %q added twice", name)
	}
	sum := hashOf(data)
	b.files[name] = sum
	path := filepath.Join(b.dir, name)
	cur, err := currentHash(path)
	switch {
	case errors.Is(err, ErrNotFile):
		b.conflicts = append(b.conflicts, err)
		return nil
	case err != nil:
		return err
	case cur == sum:
		return nil // already this content: nothing to write
	case cur != "" && b.old.Files[name] == "":
		b.conflicts = append(b.conflicts, fmt.Errorf("%s: %w", path, ErrNotOurs))
		return nil
	case cur != "" && b.old.Files[name] != cur:
		b.conflicts = append(b.conflicts, fmt.Errorf("%s: %w", path, ErrChanged))
		return nil
	}
	if b.stage == "" {
		if err := step("stage"); err != nil {
			return err
		}
		if b.stage, err = os.MkdirTemp(b.state, "stage-*"); err != nil {
			return err
		}
	}
	if err := step("write " + name); err != nil {
		return err
	}
	if err := atomicfile.WriteNew(filepath.Join(b.stage, name), data, 0o644); err != nil {
		return err
	}
	b.write[name] = cur
	return nil
}

// Commit makes the added outputs the directory's, at once, and removes the
// outputs of the previous set that stale says are no longer written (only
// those datg wrote and nobody changed since). On an error before the commit
// point nothing changed; after it, the next run finishes the commit.
func (b *Batch) Commit(stale func(name string) bool) (Report, error) {
	if b.done {
		return b.report, errors.New("outdir: Commit after Commit or Close")
	}
	b.done = true
	committed := false
	defer func() {
		if !committed {
			b.removeStage()
		}
		slices.Sort(b.report.Kept) // in place: the report returned shares it
	}()
	if n := len(b.conflicts); n > maxConflicts {
		b.conflicts = append(b.conflicts[:maxConflicts], fmt.Errorf("and %d more files in the way", n-maxConflicts))
	}
	if len(b.conflicts) > 0 && len(b.old.Files) == 0 {
		b.conflicts = append(b.conflicts, fmt.Errorf("%s has no record of datg's files yet: outputs of a datg from before it kept one (%s) are not known as datg's; delete them, or the directory, to write them anew",
			b.dir, filepath.Join(stateDir, manifestName)))
	}
	if len(b.conflicts) > 0 {
		return b.report, errors.Join(b.conflicts...)
	}
	c := commitRecord{Format: format, Files: maps.Clone(b.files), Write: b.write, Drop: map[string]string{}}
	for name, sum := range b.old.Files {
		if _, written := b.files[name]; written {
			continue
		}
		if stale == nil || !stale(name) {
			c.Files[name] = sum // kept as datg's
			continue
		}
		cur, err := currentHash(filepath.Join(b.dir, name))
		switch {
		case errors.Is(err, ErrNotFile):
			b.report.Kept = append(b.report.Kept, filepath.Join(b.dir, name))
		case err != nil:
			return b.report, err
		case cur == sum:
			c.Drop[name] = sum
		case cur != "":
			b.report.Kept = append(b.report.Kept, filepath.Join(b.dir, name))
		}
	}
	if len(c.Write) == 0 && len(c.Drop) == 0 && maps.Equal(c.Files, b.old.Files) {
		return b.report, nil
	}
	if b.stage != "" {
		c.Stage = filepath.Base(b.stage)
		if err := step("sync"); err != nil {
			return b.report, err
		}
		if err := atomicfile.SyncDir(b.stage); err != nil {
			return b.report, err
		}
	}
	if err := step("commit"); err != nil {
		return b.report, err
	}
	if err := writeRecord(b.state, commitName, c); err != nil {
		// Renamed in but not synced, the record stands: keep its stage.
		_, statErr := os.Lstat(filepath.Join(b.state, commitName))
		committed = statErr == nil
		return b.report, err
	}
	committed = true
	err := b.apply(c) // before reading b.report: apply adds to it
	return b.report, err
}

// Close releases the lock; what was staged and not committed is deleted.
func (b *Batch) Close() {
	if !b.done {
		b.done = true
		b.removeStage()
	}
	b.lock.Close()
}

func (b *Batch) removeStage() {
	if b.stage != "" {
		os.RemoveAll(b.stage)
	}
}
