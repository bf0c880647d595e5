package store

import (
	"errors"

	"github.com/datg/datg/schema"
)

// Merger writes a new version of a table made of the rows it is given plus
// the current version's rows whose keys were not given: given rows replace
// rows with the same key. New rows stream straight to disk, so memory holds
// only their keys.
type Merger[T any] struct {
	*Writer[T]
	Replaced int // current rows replaced by given rows (set by Commit)
	Kept     int // current rows carried over (set by Commit)
}

// NewMerger starts a merge into the table.
func NewMerger[T any](dir string, def schema.Def[T], meta Meta) (*Merger[T], error) {
	w, err := Create(dir, def, meta)
	if err != nil {
		return nil, err
	}
	return &Merger[T]{Writer: w}, nil
}

// Commit carries over the current rows that were not replaced, then commits.
func (m *Merger[T]) Commit() error {
	var batch []T
	err := Scan(m.dir, m.def, func(r *T) error {
		if m.Has(m.def.KeyOf(r)) {
			m.Replaced++
			return nil
		}
		m.Kept++
		batch = append(batch, *r)
		if len(batch) == 256 {
			err := m.Write(batch...)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNoTable) {
		m.Abort()
		return err
	}
	if err := m.Write(batch...); err != nil {
		m.Abort()
		return err
	}
	return m.Writer.Commit()
}
