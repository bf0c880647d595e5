package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// Writer writes a new version of a table to a temporary file; Commit makes
// it the table, Abort discards it. Rows sharing a key are refused.
type Writer[T any] struct {
	def      schema.Def[T]
	dir      string
	lock     *os.File // held from Create to Commit or Abort
	tmp      *os.File
	w        *parquet.GenericWriter[T]
	keys     map[string]struct{}
	rows     int
	finished bool
}

// Create starts a new version of the table in dir.
func Create[T any](dir string, def schema.Def[T], meta Meta) (*Writer[T], error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockTable(dir, def.Name)
	if err != nil {
		return nil, err
	}
	removeStaleTemps(dir, def.Name)
	tmp, err := os.CreateTemp(dir, tempPrefix(def.Name)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		lock.Close()
		return nil, err
	}
	// CreateTemp makes the file private; tables are for every reader.
	if err := tmp.Chmod(0o644); err != nil {
		lock.Close()
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	opts := append(meta.options(def.Name, time.Now()),
		parquet.Compression(&parquet.Zstd),
		parquet.MaxRowsPerRowGroup(int64(max(def.RowsPerGroup, 1))),
	)
	for _, c := range def.Columns() {
		if c.Blob {
			opts = append(opts, parquet.SkipPageBounds(c.Name))
		}
	}
	return &Writer[T]{
		def:  def,
		dir:  dir,
		lock: lock,
		tmp:  tmp,
		w:    parquet.NewGenericWriter[T](tmp, opts...),
		keys: map[string]struct{}{},
	}, nil
}

// Write appends rows.
func (w *Writer[T]) Write(rows ...T) error {
	for i := range rows {
		k := w.def.KeyOf(&rows[i])
		if _, dup := w.keys[k]; dup {
			return fmt.Errorf("%s: %w: %s", w.def.Name, ErrDuplicateKey, strings.ReplaceAll(k, "\x00", "/"))
		}
		w.keys[k] = struct{}{}
	}
	if _, err := w.w.Write(rows); err != nil {
		return fmt.Errorf("writing %s: %w", w.def.Name, err)
	}
	w.rows += len(rows)
	return nil
}

// Has reports whether a row with this key was written.
func (w *Writer[T]) Has(key string) bool {
	_, ok := w.keys[key]
	return ok
}

// Rows is the number of rows written so far.
func (w *Writer[T]) Rows() int { return w.rows }

// Commit finishes the file, syncs it and renames it over the table.
func (w *Writer[T]) Commit() error {
	if w.finished {
		return errors.New("store: commit after commit or abort")
	}
	w.finished = true
	defer w.lock.Close()
	err := w.w.Close()
	if err == nil {
		err = w.tmp.Sync()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.tmp.Name())
		return fmt.Errorf("writing %s: %w", w.def.Name, err)
	}
	final := FilePath(w.dir, w.def.Table)
	if err := os.Rename(w.tmp.Name(), final); err != nil {
		os.Remove(w.tmp.Name())
		return err
	}
	syncDir(w.dir)
	// The folder form, if any, is now superseded by the file.
	if folder := FolderPath(w.dir, w.def.Table); isDir(folder) {
		old := filepath.Join(w.dir, "."+w.def.Name+".replaced-"+strconv.Itoa(os.Getpid()))
		if err := os.Rename(folder, old); err != nil {
			return fmt.Errorf("%s written, but the superseded folder %s remains: %w", final, folder, err)
		}
		os.RemoveAll(old)
	}
	return nil
}

// Abort discards the new version; the table is left as it was. It is safe to
// call after Commit.
func (w *Writer[T]) Abort() {
	if w.finished {
		return
	}
	w.finished = true
	w.w.Close()
	w.tmp.Close()
	os.Remove(w.tmp.Name())
	w.lock.Close()
}

// lockTable takes the table's writer lock, so two processes never rewrite
// one table at once (the second would drop the first's rows). Closing the
// file releases it.
func lockTable(dir, table string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "."+table+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", table, ErrTableBusy)
		}
		return nil, err
	}
	return f, nil
}

// WriteAll replaces the table with rows.
func WriteAll[T any](dir string, def schema.Def[T], meta Meta, rows []T) error {
	w, err := Create(dir, def, meta)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := w.Write(rows...); err != nil {
		return err
	}
	return w.Commit()
}

func tempPrefix(table string) string { return "." + table + ".parquet.tmp-" }

// removeStaleTemps deletes temporary files left by writers that were killed
// (their pid is no longer running).
func removeStaleTemps(dir, table string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPrefix(table)+"*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), tempPrefix(table))
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || !processAlive(pid) {
			os.Remove(m)
		}
	}
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
