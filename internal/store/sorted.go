package store

import (
	"fmt"
	"strings"

	"github.com/datg/datg/schema"
)

// SortedWriter writes a new version of a table whose rows are given in
// ascending order of their first key columns (the group: a score's trace,
// for scores.sql sorts by trace first), each group's rows together. A
// duplicate key can then only be among the rows of the group being given,
// so the writer keeps only that group's keys, where a Writer keeps a
// digest of every row's key until the commit (675,000 scores at ten times
// the paper's design: about 20 MB of live heap, and twice that resident
// with the collector's headroom). A row whose group sorts before the
// group being given is refused with ErrUnsorted: it could repeat a key
// the writer no longer holds.
type SortedWriter[T any] struct {
	w         *Writer[T]
	cols      int
	group     string              // the group being given
	began     bool                // whether a group began
	groupKeys map[string]struct{} // the keys of the group being given
}

// CreateSorted starts a new version of the table in dir, in a transaction
// of its own, whose rows come sorted by their first cols key columns:
// Commit makes it the table.
func CreateSorted[T any](dir string, def schema.Def[T], meta Meta, cols int) (*SortedWriter[T], error) {
	if cols < 1 || cols > len(def.Table.Key) {
		return nil, fmt.Errorf("store: %s: a group of %d of its %d key columns", def.Name, cols, len(def.Table.Key))
	}
	return inOwnTx(dir, meta, func(tx *Tx) (*SortedWriter[T], error) {
		w, err := CreateIn(tx, def)
		if err != nil {
			return nil, err
		}
		w.runs = nil // the sorted writer checks the keys, a group at a time
		return &SortedWriter[T]{w: w, cols: cols, groupKeys: map[string]struct{}{}}, nil
	})
}

func (s *SortedWriter[T]) ownTx() { s.w.ownTx() }

// Write appends rows, which continue the group being given or begin a
// later one.
func (s *SortedWriter[T]) Write(rows ...T) error {
	for i := range rows {
		k := s.w.def.KeyOf(&rows[i])
		if g := groupOf(k, s.cols); !s.began || g != s.group {
			if s.began && g < s.group {
				return fmt.Errorf("%s: %w: %s after %s", s.w.def.Name, ErrUnsorted,
					strings.ReplaceAll(g, "\x00", "/"), strings.ReplaceAll(s.group, "\x00", "/"))
			}
			s.group, s.began = g, true
			clear(s.groupKeys)
		}
		if _, dup := s.groupKeys[k]; dup {
			return s.w.duplicate(k)
		}
		s.groupKeys[k] = struct{}{}
	}
	return s.w.append(rows)
}

// Rows is the number of rows written so far.
func (s *SortedWriter[T]) Rows() int { return s.w.Rows() }

// Commit makes the new version the table.
func (s *SortedWriter[T]) Commit() error { return s.w.Commit() }

// Abort discards the new version. It is safe to call after Commit.
func (s *SortedWriter[T]) Abort() { s.w.Abort() }
