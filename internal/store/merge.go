package store

import (
	"errors"

	"github.com/datg/datg/schema"
)

// Merger writes a new version of a table made of the rows it is given plus
// the current version's rows whose keys were not given: given rows replace
// rows with the same key. New rows stream straight to disk, so memory holds
// only their keys. The current rows are read when the transaction commits,
// under the table's lock, so none written meanwhile is lost.
type Merger[T any] struct {
	*Writer[T]
	Replaced int // current rows replaced by given rows (set at commit)
	Kept     int // current rows carried over (set at commit)

	// Group, when set, makes the given rows replace whole groups: a current
	// row is dropped when any given row has its group (all nodes of a DAG
	// are replaced by the DAG's new nodes, however many).
	Group  func(*T) string
	groups map[string]struct{}
	// OnReplace, when set, is called at commit with each current row that
	// a given row replaces.
	OnReplace func(old *T)
}

// NewMerger starts a merge into the table in a transaction of its own:
// Commit makes it the table.
func NewMerger[T any](dir string, def schema.Def[T], meta Meta) (*Merger[T], error) {
	return inOwnTx(dir, meta, func(tx *Tx) (*Merger[T], error) { return MergeIn(tx, def) })
}

// MergeIn starts a merge into the table as part of tx.
func MergeIn[T any](tx *Tx, def schema.Def[T]) (*Merger[T], error) {
	w, err := newWriter(tx, def)
	if err != nil {
		return nil, err
	}
	m := &Merger[T]{Writer: w}
	tx.members = append(tx.members, m)
	return m, nil
}

// Write adds given rows.
func (m *Merger[T]) Write(rows ...T) error {
	if m.Group != nil {
		if m.groups == nil {
			m.groups = map[string]struct{}{}
		}
		for i := range rows {
			m.groups[m.Group(&rows[i])] = struct{}{}
		}
	}
	return m.Writer.Write(rows...)
}

// ReplaceGroup marks a group replaced even if no row of it is given (a DAG
// re-imported as invalid has no nodes).
func (m *Merger[T]) ReplaceGroup(group string) {
	if m.groups == nil {
		m.groups = map[string]struct{}{}
	}
	m.groups[group] = struct{}{}
}

// finish carries over the current rows that were not replaced, then
// finishes the file.
func (m *Merger[T]) finish() error {
	if m.finished {
		return nil
	}
	m.Replaced, m.Kept = 0, 0
	var batch []T
	err := Scan(m.tx.dir, m.def, func(r *T) error {
		replaced := m.Has(m.def.KeyOf(r))
		if !replaced && m.Group != nil {
			_, replaced = m.groups[m.Group(r)]
		}
		if replaced {
			m.Replaced++
			if m.OnReplace != nil {
				m.OnReplace(r)
			}
			return nil
		}
		m.Kept++
		batch = append(batch, *r)
		if len(batch) == 256 {
			err := m.Writer.Write(batch...)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNoTable) {
		return err
	}
	if err := m.Writer.Write(batch...); err != nil {
		return err
	}
	return m.Writer.finish()
}
