package store

import (
	"fmt"
	"strings"
)

// Groups are the groups of rows that the mergers of a transaction replace
// whole (MergeGroupsIn): a group is a value of the first columns of each
// table's key (an alignment's trace, DAG and aligner, in the alignments
// table and in its events', harmful actions' and errors'), and all its
// rows, in every table, are given together, once. So a duplicate row key
// can only be among the rows of the group being given, and a current row
// is replaced exactly when its group was given. The groups begun are kept
// as a writer keeps its keys (keyRuns): the latest held, the others
// spilled to sorted runs in the transaction's staging directory (a digest
// a group held to the commit was 24 bytes an alignment, 16 MB at 10x the
// paper's scale). A group begun twice is refused by Begin while both are
// held, else by the first merger's finish. A Groups is not safe for
// concurrent use: a group's rows are given between its Begin and the next.
type Groups struct {
	given   *keyRuns
	checked bool  // whether the spilled groups were checked for repeats
	repeat  error // what that check found
	current string
	serial  uint64 // counts the groups begun, so a merger knows a new one began
}

// NewGroups is an empty set of groups, to share between the mergers of
// one transaction.
func NewGroups() *Groups { return &Groups{given: newKeyRuns("", "groups")} }

// attach lets the groups spill into tx's staging directory, from the
// first merger made with them (groups begun before any are held).
func (g *Groups) attach(tx *Tx) {
	if g.given.dir == "" && tx.staging != "" {
		g.given.dir = tx.staging
		tx.spills = append(tx.spills, &g.given.sortedRuns)
	}
}

// Begin starts giving the rows of group (its key columns joined by NUL,
// as schema.Def.KeyOf joins them): until the next Begin, the mergers
// sharing g take rows of this group only. A group given before is a
// duplicate key.
func (g *Groups) Begin(group string) error {
	dup, err := g.given.add(group)
	if err != nil {
		return err
	}
	if dup {
		return g.duplicate(group)
	}
	g.current = group
	g.serial++
	return nil
}

func (g *Groups) duplicate(group string) error {
	return fmt.Errorf("%w: %s", ErrDuplicateKey, strings.ReplaceAll(group, "\x00", "/"))
}

// check finds a group begun twice among the spilled ones, once.
func (g *Groups) check() error {
	if !g.checked {
		g.checked = true
		dup, found, err := g.given.check()
		if err == nil && found {
			err = g.duplicate(dup)
		}
		g.repeat = err
	}
	return g.repeat
}

// groupOf is the group of a row key: its first n columns.
func groupOf(key string, n int) string {
	end := 0
	for range n {
		i := strings.IndexByte(key[end:], 0)
		if i < 0 {
			return key
		}
		end += i + 1
	}
	return key[:end-1]
}
