package traceids

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// Collisions checks the numbered lines of an import (each a trace's id
// and identity) against the traces table as Index.Check does, without
// holding the table's index: Load held three maps of every trace's id,
// identity and source (about 150 bytes a trace) while a file was imported
// into a run that already had traces. The lines' ids and identities go to
// sorted runs (store.LineKeys, spilled in the import's staging directory);
// First adds the table's rows to the same runs and walks them once, each
// id and each identity's entries side by side.
type Collisions struct {
	byID, byKey *store.LineKeys
}

// NewCollisions checks lines through two empty sets of lines' keys from
// the import's merger (store.Merger.LineKeys).
func NewCollisions(byID, byKey *store.LineKeys) *Collisions {
	return &Collisions{byID: byID, byKey: byKey}
}

// An entry's key is its group (a trace id, or an identity), prefixed with
// its length so that one group's entries sort together, then a tag: the
// table's row (line 0) sorts before the lines of the group.
const (
	tagTable = 0
	tagLine  = 1
)

// entry is group, tag and rest as one key.
func entry(group string, tag byte, rest ...string) string {
	b := binary.AppendUvarint(nil, uint64(len(group)))
	b = append(b, group...)
	b = append(b, tag)
	for _, r := range rest {
		b = binary.AppendUvarint(b, uint64(len(r)))
		b = append(b, r...)
	}
	return string(b)
}

// parseEntry splits an entry into its group, tag and rest.
func parseEntry(s string) (group string, tag byte, rest []string, err error) {
	field := func() (string, bool) {
		n, k := binary.Uvarint([]byte(s[:min(len(s), binary.MaxVarintLen64)]))
		if k <= 0 || uint64(len(s)-k) < n {
			return "", false
		}
		f := s[k : k+int(n)]
		s = s[k+int(n):]
		return f, true
	}
	group, ok := field()
	if !ok || len(s) == 0 {
		return "", 0, nil, errors.New("traceids: a damaged entry in the sorted runs")
	}
	tag, s = s[0], s[1:]
	for len(s) > 0 {
		f, ok := field()
		if !ok {
			return "", 0, nil, errors.New("traceids: a damaged entry in the sorted runs")
		}
		rest = append(rest, f)
	}
	return group, tag, rest, nil
}

// Add adds a line (numbered from 1) writing a trace of identity key under
// id.
func (c *Collisions) Add(id, key string, line int) error {
	if err := c.byID.Add(entry(id, tagLine, key), line); err != nil {
		return err
	}
	return c.byKey.Add(entry(key, tagLine, id), line)
}

// First reads the traces table of the run in dir and returns the earliest
// line that Index.Check refuses, with its error (line 0: none). At one
// line, an id taken (ErrIDTaken) is reported before an identity held under
// another id (ErrHeldUnderAnotherID), as Check reports them.
func (c *Collisions) First(dir string) (line int, err error) {
	err = store.ScanProjection(dir, schema.Traces.Table, func(r *keyColumns) error {
		key := r.key()
		if err := c.byID.Add(entry(r.TraceID, tagTable, key, r.Source), 0); err != nil {
			return err
		}
		return c.byKey.Add(entry(key, tagTable, r.TraceID, r.Source), 0)
	})
	if err != nil && !errors.Is(err, store.ErrNoTable) {
		return 0, err
	}
	first := func(lk *store.LineKeys, refuse func(group string, held [][]string, line []string) error) (int, error, error) {
		var (
			group  string
			held   [][]string // the table's rows of the group: their other side and source
			least  int
			reason error
		)
		err := lk.Each(func(k string, n int) error {
			g, tag, rest, err := parseEntry(k)
			if err != nil {
				return err
			}
			if g != group {
				group, held = g, held[:0]
			}
			if tag == tagTable {
				if len(rest) != 2 {
					return errors.New("traceids: a damaged table entry in the sorted runs")
				}
				held = append(held, rest)
				return nil
			}
			if len(rest) != 1 {
				return errors.New("traceids: a damaged line entry in the sorted runs")
			}
			if least != 0 && n >= least {
				return nil
			}
			if e := refuse(g, held, rest); e != nil {
				least, reason = n, e
			}
			return nil
		})
		return least, reason, err
	}
	idLine, idErr, err := first(c.byID, func(id string, held [][]string, line []string) error {
		for _, h := range held {
			if h[0] != line[0] {
				return fmt.Errorf("%w: %s (from %s)", ErrIDTaken, id, h[1])
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	keyLine, keyErr, err := first(c.byKey, func(_ string, held [][]string, line []string) error {
		for _, h := range held {
			if h[0] != line[0] {
				return fmt.Errorf("%w: %s (from %s), not %s", ErrHeldUnderAnotherID, h[0], h[1], line[0])
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	switch {
	case idLine != 0 && (keyLine == 0 || idLine <= keyLine):
		return idLine, idErr
	case keyLine != 0:
		return keyLine, keyErr
	}
	return 0, nil
}
