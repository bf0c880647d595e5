package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// Writer writes a new version of a table inside a transaction. Rows sharing
// a key are refused.
type Writer[T any] struct {
	def   schema.Def[T]
	tx    *Tx
	own   bool // made by Create: Commit and Abort end its transaction
	file  *os.File
	hash  *hashingWriter
	w     *parquet.GenericWriter[T]
	entry ManifestFile // the file's manifest entry, once finished
	// The keys of the rows written, for refusing a repeat, spilled to
	// sorted runs (keyRuns); a sorted writer keeps none.
	runs *keyRuns
	rows int
	// The row group being written: its rows, and the writer's Size when
	// it began (Size less that is what the group holds in memory).
	groupRows  int
	groupStart int64
	finished   bool
}

// Create starts a new version of the table in dir, in a transaction of its
// own: Commit makes it the table.
func Create[T any](dir string, def schema.Def[T], meta Meta) (*Writer[T], error) {
	return inOwnTx(dir, meta, func(tx *Tx) (*Writer[T], error) { return CreateIn(tx, def) })
}

// txOwner is a writer (or merger) that can be made to end the transaction
// it was started in.
type txOwner interface{ ownTx() }

func (w *Writer[T]) ownTx() { w.own = true }

// inOwnTx begins a transaction in dir for one writer, which start makes
// in it: the writer's Commit and Abort end it. A failed start aborts it.
func inOwnTx[W txOwner](dir string, meta Meta, start func(*Tx) (W, error)) (W, error) {
	var none W
	tx, err := Begin(dir, meta)
	if err != nil {
		return none, err
	}
	w, err := start(tx)
	if err != nil {
		tx.Abort()
		return none, err
	}
	w.ownTx()
	return w, nil
}

// CreateIn starts a new version of the table as part of tx: it replaces the
// table when tx commits.
func CreateIn[T any](tx *Tx, def schema.Def[T]) (*Writer[T], error) {
	w, err := newWriter(tx, def)
	if err != nil {
		return nil, err
	}
	tx.members = append(tx.members, w)
	return w, nil
}

func newWriter[T any](tx *Tx, def schema.Def[T]) (*Writer[T], error) {
	path, err := tx.add(def.Name)
	if err != nil {
		return nil, err
	}
	var out io.Writer = io.Discard // a dry run's rows go nowhere
	var f *os.File
	if !tx.meta.DryRun {
		if f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err != nil {
			return nil, err
		}
		out = f
	}
	opts := append(tx.meta.options(def.Name, tx.id, time.Now()),
		parquet.Compression(writerCodec),
		parquet.MaxRowsPerRowGroup(int64(rowsPerGroup(def.Table))),
	)
	for _, c := range def.Columns() {
		if c.Blob {
			opts = append(opts, parquet.SkipPageBounds(c.Name), parquet.SkipPageStatistics(c.Name))
		}
	}
	hw := newHashingWriter(out)
	return &Writer[T]{
		def:  def,
		tx:   tx,
		file: f,
		hash: hw,
		w:    parquet.NewGenericWriter[T](hw, opts...),
		runs: newKeyRuns(tx.staging, def.Name),
	}, nil
}

// Write appends rows.
func (w *Writer[T]) Write(rows ...T) error {
	for i := range rows {
		k := w.def.KeyOf(&rows[i])
		if w.runs == nil {
			continue
		}
		dup, err := w.runs.add(k)
		if err != nil {
			return fmt.Errorf("writing %s: %w", w.def.Name, err)
		}
		if dup {
			return w.duplicate(k)
		}
	}
	return w.append(rows)
}

// duplicate is the error for a row whose key was written before.
func (w *Writer[T]) duplicate(key string) error {
	return fmt.Errorf("%s: %w: %s", w.def.Name, ErrDuplicateKey, strings.ReplaceAll(key, "\x00", "/"))
}

// append writes rows whose keys were checked.
func (w *Writer[T]) append(rows []T) error {
	for len(rows) > 0 {
		n := min(len(rows), rowsPerGroup(w.def.Table)-w.groupRows, writeChunk)
		if _, err := w.w.Write(rows[:n]); err != nil {
			return fmt.Errorf("writing %s: %w", w.def.Name, err)
		}
		rows = rows[n:]
		w.rows += n
		w.groupRows += n
		if w.groupRows >= rowsPerGroup(w.def.Table) || w.w.Size()-w.groupStart >= maxGroupBytes {
			if err := w.w.Flush(); err != nil {
				return fmt.Errorf("writing %s: %w", w.def.Name, err)
			}
			w.groupRows, w.groupStart = 0, w.w.Size()
		}
	}
	return nil
}

// A row group ends at the table's RowsPerGroup rows or once it holds
// maxGroupBytes (its compressed pages and the page being filled), whichever
// comes first. The writer holds the group in memory until it ends, and
// keeps a footer entry (about 1 KB a column) for every group until the
// file is closed: the byte bound keeps the first flat for long texts, and
// groups of many rows keep the second small (at 128 traces a group, the
// footer of 382,500 traces was 70 MB, held by the writer and by every
// reader of the file).
const maxGroupBytes = 16 << 20

func rowsPerGroup(t *schema.Table) int { return max(t.RowsPerGroup, 1) }

// writeChunk is the most rows handed to the Parquet writer at once, so
// that the group's size is checked at least that often.
const writeChunk = 64

// Rows is the number of rows written so far.
func (w *Writer[T]) Rows() int { return w.rows }

// Commit makes the new version the table. Only a writer made by Create
// commits; one made in a transaction is committed by the transaction.
func (w *Writer[T]) Commit() error {
	if !w.own {
		return errors.New("store: commit the transaction, not one of its tables")
	}
	return w.tx.Commit()
}

// Abort discards the new version and, since tables of a transaction are
// committed together or not at all, the whole transaction. It is safe to
// call after Commit.
func (w *Writer[T]) Abort() { w.tx.Abort() }

func (w *Writer[T]) tableName() string { return w.def.Name }

// finish writes the footer, syncs the file, makes it read-only (a
// generation never changes) and records its manifest entry.
func (w *Writer[T]) finish() error {
	if w.finished || w.file == nil {
		return nil
	}
	if w.runs != nil {
		// A repeat of a key spilled before is found now, before the
		// table is finished: the commit fails and nothing changes.
		dup, found, err := w.runs.check()
		w.runs.remove()
		if err != nil {
			return fmt.Errorf("writing %s: %w", w.def.Name, err)
		}
		if found {
			return w.duplicate(dup)
		}
	}
	w.finished = true
	err := w.w.Close()
	if err == nil {
		err = fault("sync " + w.def.Name)
	}
	if err == nil {
		err = w.file.Chmod(readOnly)
	}
	if err == nil {
		err = w.file.Sync()
	}
	var fi os.FileInfo
	if err == nil {
		fi, err = w.file.Stat()
	}
	if cerr := w.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.def.Name, err)
	}
	w.entry = ManifestFile{
		Path: w.def.Name + ".parquet", Table: w.def.Name,
		Size: fi.Size(), SHA256: w.hash.sum(),
		Commit: w.tx.id, Stage: w.tx.meta.Stage,
		MtimeNs: fi.ModTime().UnixNano(),
	}
	return nil
}

func (w *Writer[T]) manifestEntry() ManifestFile { return w.entry }

func (w *Writer[T]) abort() {
	if w.runs != nil {
		w.runs.remove()
	}
	if w.finished {
		return
	}
	w.finished = true
	w.w.Close()
	if w.file != nil {
		w.file.Close()
	}
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
