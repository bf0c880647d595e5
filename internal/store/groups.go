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
// is replaced exactly when its group was given: the mergers keep one
// digest a group, where a merger of single rows keeps one a row and one a
// group per table (at 10x the paper's scale, 670,000 alignments of ten
// rows each, that was 350 MB of live heap for align's commit). A Groups is
// not safe for concurrent use: a group's rows are given between its Begin
// and the next.
type Groups struct {
	given   keySet
	current string
	serial  uint64 // counts the groups begun, so a merger knows a new one began
}

// NewGroups is an empty set of groups, to share between the mergers of
// one transaction.
func NewGroups() *Groups { return &Groups{given: keySet{}} }

// Begin starts giving the rows of group (its key columns joined by NUL,
// as schema.Def.KeyOf joins them): until the next Begin, the mergers
// sharing g take rows of this group only. A group given before is a
// duplicate key.
func (g *Groups) Begin(group string) error {
	if g.given.add(group) {
		return fmt.Errorf("%w: %s", ErrDuplicateKey, strings.ReplaceAll(group, "\x00", "/"))
	}
	g.current = group
	g.serial++
	return nil
}

// has reports whether group was given.
func (g *Groups) has(group string) bool { return g.given.has(group) }

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
