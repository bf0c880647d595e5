package store

import (
	"errors"
	"fmt"
	"strings"

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

	// A merger of whole groups (MergeGroupsIn) keeps the groups given in
	// shared, and of its rows' keys only those of the group being given
	// (groupKeys, of the group numbered serial).
	shared    *Groups
	groupCols int
	groupKeys keySet
	serial    uint64
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
	w.keys = keySet{} // Has asks whether a key was given
	m := &Merger[T]{Writer: w}
	tx.members = append(tx.members, m)
	return m, nil
}

// MergeGroupsIn starts a merge into the table, as part of tx, that
// replaces whole groups: a group is a value of the table's first cols key
// columns, begun in groups (shared by the transaction's mergers of the
// same groups) before its rows are given. A current row is replaced when
// its group was given, whether or not a row with its key was; Group and
// ReplaceGroup are not used.
func MergeGroupsIn[T any](tx *Tx, def schema.Def[T], groups *Groups, cols int) (*Merger[T], error) {
	if cols < 1 || cols > len(def.Table.Key) {
		return nil, fmt.Errorf("store: %s: a group of %d of its %d key columns", def.Name, cols, len(def.Table.Key))
	}
	m, err := MergeIn(tx, def)
	if err != nil {
		return nil, err
	}
	m.shared, m.groupCols, m.groupKeys = groups, cols, keySet{}
	return m, nil
}

// Write adds given rows.
func (m *Merger[T]) Write(rows ...T) error {
	if m.shared != nil {
		return m.writeInGroup(rows)
	}
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

// writeInGroup adds rows of the group being given: a key can only have
// been given before among that group's rows.
func (m *Merger[T]) writeInGroup(rows []T) error {
	if m.serial != m.shared.serial {
		clear(m.groupKeys)
		m.serial = m.shared.serial
	}
	for i := range rows {
		k := m.def.KeyOf(&rows[i])
		if g := groupOf(k, m.groupCols); m.shared.serial == 0 || g != m.shared.current {
			return fmt.Errorf("%s: %w: %s while %s is written", m.def.Name, ErrOutsideGroup,
				strings.ReplaceAll(k, "\x00", "/"), strings.ReplaceAll(m.shared.current, "\x00", "/"))
		}
		if m.groupKeys.add(k) {
			return m.duplicate(k)
		}
	}
	return m.append(rows)
}

// Has reports whether a row with this key was given. A merger of whole
// groups keeps no key past its group's rows: it reports whether the key's
// group was given (a current row with the key is then replaced).
func (m *Merger[T]) Has(key string) bool {
	if m.shared != nil {
		return m.shared.has(groupOf(key, m.groupCols))
	}
	return m.keys.has(key)
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
		if !replaced && m.Group != nil && m.shared == nil {
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
