package store

import (
	"errors"
	"fmt"
	"strings"

	"github.com/datg/datg/schema"
)

// Merger writes a new version of a table made of the rows it is given plus
// the current version's rows whose keys were not given: given rows replace
// rows with the same key. New rows stream straight to disk, and their keys
// to sorted runs beside them (keyRuns). The current rows are read when the
// transaction commits, under the table's lock, so none written meanwhile
// is lost; when the keys given were spilled, the current rows' keys are
// read first and sorted with them, to find the rows replaced.
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
	groupKeys map[string]struct{}
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
	groups.attach(tx)
	m.shared, m.groupCols, m.groupKeys = groups, cols, map[string]struct{}{}
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
		if _, dup := m.groupKeys[k]; dup {
			return m.duplicate(k)
		}
		m.groupKeys[k] = struct{}{}
	}
	return m.append(rows)
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
	given, err := m.givenKeys()
	if err != nil {
		return err
	}
	var batch []T
	row := 0
	err = Scan(m.tx.dir, m.def, func(r *T) error {
		replaced := given(m.def.KeyOf(r), row)
		row++
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

// givenKeys says of the current table's row numbered row, with key,
// whether a given row replaces it. A merger of whole groups asks whether
// the key's group was given. Otherwise, while every key given is held, the
// held keys are asked; once they were spilled, the current rows' keys are
// read first and sorted with the given ones, and the rows whose key was
// given are marked in a bit a row.
func (m *Merger[T]) givenKeys() (func(key string, row int) bool, error) {
	if m.shared != nil {
		if err := m.shared.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", m.def.Name, err)
		}
		if !m.shared.given.spilled() {
			given := m.shared.given.recent // every group begun; none is begun past the commit
			return func(key string, _ int) bool { _, ok := given[groupOf(key, m.groupCols)]; return ok }, nil
		}
		replaced, err := m.replacedRows(&m.shared.given.sortedRuns, func(r *T) string { return groupOf(m.def.KeyOf(r), m.groupCols) })
		if err != nil {
			return nil, err
		}
		return inBits(replaced), nil
	}
	if !m.runs.spilled() {
		// The held keys are every key given. They are taken from the
		// writer, which holds the current rows' keys as they are carried
		// over (and forgets them when it spills); it still checks all of
		// them at the finish.
		given := m.runs.recent
		m.runs.recent = map[string]struct{}{}
		return func(key string, _ int) bool { _, ok := given[key]; return ok }, nil
	}
	replaced, err := m.replacedRows(&m.runs.sortedRuns, func(r *T) string { return m.def.KeyOf(r) })
	if err != nil {
		return nil, err
	}
	return inBits(replaced), nil
}

// inBits asks of a row whether its bit is set.
func inBits(bits []uint64) func(string, int) bool {
	return func(_ string, row int) bool { return row < len(bits)*64 && bits[row/64]&(1<<(row%64)) != 0 }
}

// replacedRows reads the current rows' keys (keyOf: their key, or their
// group) and sorts them with the keys given (a given key numbered 0, the
// current row numbered n as n+1): a current row is replaced when its key
// sorts beside a given one.
func (m *Merger[T]) replacedRows(given *sortedRuns, keyOf func(*T) string) ([]uint64, error) {
	both := newSortedRuns(m.tx.staging, "."+m.def.Name+".current")
	defer both.remove()
	err := given.each(func(key string, _ uint64) error {
		_, err := both.add(key, 0)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", m.def.Name, err)
	}
	rows := 0
	err = Scan(m.tx.dir, m.def, func(r *T) error {
		_, err := both.add(keyOf(r), uint64(rows)+1)
		rows++
		return err
	})
	if errors.Is(err, ErrNoTable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	replaced := make([]uint64, (rows+63)/64)
	var key string
	wasGiven, began := false, false
	var current []uint64 // the current rows with key
	mark := func() {
		if wasGiven {
			for _, n := range current {
				replaced[n/64] |= 1 << (n % 64)
			}
		}
	}
	err = both.each(func(k string, n uint64) error {
		if !began || k != key {
			mark()
			key, wasGiven, began, current = k, false, true, current[:0]
		}
		if n == 0 {
			wasGiven = true
		} else {
			current = append(current, n-1)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", m.def.Name, err)
	}
	mark()
	return replaced, nil
}
