package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/schema"
)

// Tx is one stage's commit: the tables it writes become the run's tables
// together, at Commit, or not at all.
type Tx struct {
	dir     string // the run directory
	meta    Meta
	id      string
	staging string // DIR/gen/.tx-<id>: the new tables, then the new generation
	members []member
	held    *os.File // the staging directory's lock: no commit collects it while held
	// madeRun says Begin made the run directory: an aborted first
	// transaction removes it again (with the lock files and gen/ it made),
	// so a failed first import leaves no directory that looks like a run.
	madeRun bool
	locks   []*os.File
	spills  []*sortedRuns // files of the stage's own in the staging directory (LineKeys)
	done    bool
	// Generation is the generation Commit made (0 before).
	Generation int
}

// member is a table written in a transaction.
type member interface {
	tableName() string
	// finish completes the table's file in the staging directory (carrying
	// over rows, writing the footer) and syncs it.
	finish() error
	// abort stops writing; the staging directory is removed afterwards.
	abort()
	// manifestEntry describes the finished file.
	manifestEntry() ManifestFile
}

// Begin starts a transaction over the run in dir.
func Begin(dir string, meta Meta) (*Tx, error) {
	if err := checkWritableRun(dir); err != nil {
		return nil, err
	}
	if meta.DryRun {
		return &Tx{dir: dir, meta: meta, id: "dry-run"}, nil
	}
	_, statErr := os.Stat(dir)
	madeRun := errors.Is(statErr, fs.ErrNotExist)
	gens := filepath.Join(dir, genDir)
	if err := os.MkdirAll(gens, 0o755); err != nil {
		return nil, err
	}
	if err := realDir(gens); err != nil {
		return nil, err
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(b[:])
	staging, held, err := makeStaging(dir, txPrefix+id)
	if err != nil {
		return nil, err
	}
	return &Tx{dir: dir, meta: meta, id: id, staging: staging, held: held, madeRun: madeRun}, nil
}

// makeStaging makes a staging directory and takes its lock, under the
// commit lock so no commit's collection sees it between the two. The lock,
// not a process id, says the commit is alive: a process in another PID
// namespace, or on another machine sharing the run, holds it just as well,
// and a killed commit's lock is gone with it.
func makeStaging(dir, name string) (string, *os.File, error) {
	unlock, err := lockCommits(dir)
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	staging := filepath.Join(dir, genDir, name)
	if err := os.Mkdir(staging, 0o755); err != nil {
		return "", nil, err
	}
	held, ok := tryLockDir(staging)
	if !ok {
		os.Remove(staging)
		return "", nil, fmt.Errorf("locking %s: %w", staging, ErrTableBusy)
	}
	return staging, held, nil
}

// checkWritableRun refuses to write into a generation (a snapshot's Dir,
// RUN/current, or a link to either, passed where the run directory
// belongs): generations never change, and a commit there would nest a run
// inside a generation of another.
func checkWritableRun(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		// A new run, unless it would be made where a generation was.
		real, err = filepath.Abs(dir)
	}
	if err != nil {
		return err
	}
	if isGeneration(real) {
		return fmt.Errorf("%s is a generation of a run, not a run directory (give the run's directory, the one holding current): %w", dir, ErrBadRun)
	}
	return nil
}

// isGeneration reports whether the directory (symlinks resolved) is a
// generation: gen/<N> beside a run's current link.
func isGeneration(real string) bool {
	parent := filepath.Dir(real)
	if _, ok := genNumber(filepath.Base(real)); !ok || filepath.Base(parent) != genDir {
		return false
	}
	_, err := os.Lstat(filepath.Join(filepath.Dir(parent), currentLink))
	return err == nil
}

// add registers a table writer, taking the table's lock so no other process
// writes the table until this transaction ends.
func (tx *Tx) add(name string) (path string, err error) {
	if tx.done {
		return "", errors.New("store: transaction already ended")
	}
	for _, m := range tx.members {
		if m.tableName() == name {
			return "", fmt.Errorf("store: %s written twice in one transaction", name)
		}
	}
	if tx.meta.DryRun {
		return "", nil
	}
	lock, err := lockTable(tx.dir, name)
	if err != nil {
		return "", err
	}
	tx.locks = append(tx.locks, lock)
	return filepath.Join(tx.staging, name+".parquet"), nil
}

// Commit finishes every table and makes them the run's tables at once.
// On error nothing changed: the run keeps its previous tables.
func (tx *Tx) Commit() error {
	if tx.done {
		return errors.New("store: commit after commit or abort")
	}
	err := tx.commit()
	if err != nil {
		tx.Abort()
		return err
	}
	tx.release()
	return nil
}

func (tx *Tx) commit() error {
	if tx.meta.DryRun {
		return ErrDryRun
	}
	for _, m := range tx.members {
		if err := fault("finish " + m.tableName()); err != nil {
			return err
		}
		if err := m.finish(); err != nil {
			return err
		}
	}
	for _, s := range tx.spills {
		s.remove() // the generation holds the tables alone
	}
	var written []ManifestFile
	for _, m := range tx.members {
		written = append(written, m.manifestEntry())
	}
	head := Manifest{Commit: tx.id, Stage: tx.meta.Stage, CreatedAt: now()}
	n, err := publish(tx.dir, tx.staging, head, written)
	if err != nil {
		return err
	}
	tx.Generation = n
	return nil
}

// Abort discards every table of the transaction; the run is unchanged. It
// is safe to call after Commit.
func (tx *Tx) Abort() {
	if tx.done {
		return
	}
	for _, m := range tx.members {
		m.abort()
	}
	if tx.staging != "" {
		os.RemoveAll(tx.staging)
	}
	tx.release()
	if tx.madeRun {
		removeUnusedRun(tx.dir)
	}
}

// removeUnusedRun removes a run directory an aborted first transaction
// made, when it holds nothing but what datg made for it: an empty gen/ and
// lock files.
func removeUnusedRun(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == genDir && e.IsDir():
			if left, _ := os.ReadDir(filepath.Join(dir, genDir)); len(left) > 0 {
				return
			}
		case strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".lock") && e.Type().IsRegular():
		default:
			return
		}
	}
	for _, e := range entries {
		os.Remove(filepath.Join(dir, e.Name()))
	}
	os.Remove(dir)
}

func (tx *Tx) release() {
	tx.done = true
	if tx.held != nil {
		tx.held.Close()
		tx.held = nil
	}
	for _, l := range tx.locks {
		l.Close()
	}
	tx.locks = nil
}

// lockTable takes the table's writer lock, so two processes never rewrite
// one table at once (the second would drop the first's rows). Closing the
// file releases it.
func lockTable(dir, table string) (*os.File, error) {
	f, err := atomicfile.TryLock(filepath.Join(dir, "."+table+".lock"))
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, fmt.Errorf("%s: %w", table, ErrTableBusy)
	}
	return f, err
}

// tableNames is every declared table's name.
func tableNames() map[string]bool {
	out := map[string]bool{}
	for _, t := range schema.All() {
		out[t.Name] = true
	}
	return out
}
