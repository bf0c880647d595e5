package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/schema"
)

func TestGroupOf(t *testing.T) {
	for _, c := range []struct {
		key  string
		n    int
		want string
	}{
		{"t\x00d\x00a\x00n1\x000", 3, "t\x00d\x00a"},
		{"t\x00d\x00a", 3, "t\x00d\x00a"},
		{"t\x00d\x00a\x00n1\x000", 1, "t"},
		{"t\x00\x00a\x00n", 2, "t\x00"}, // an empty column is a column
	} {
		if got := groupOf(c.key, c.n); got != c.want {
			t.Errorf("groupOf(%q, %d) = %q, want %q", c.key, c.n, got, c.want)
		}
	}
}

// alignmentGroup is one generated alignment with its events.
type alignmentGroup struct {
	alignment schema.Alignment
	events    []schema.AlignmentEvent
}

func genAlignment(rnd *rand.Rand, trace, dag int, tag string) alignmentGroup {
	t, d := fmt.Sprintf("t%d", trace), fmt.Sprintf("d%d", dag)
	g := alignmentGroup{alignment: schema.Alignment{TraceID: t, DagID: d, Aligner: "symbolic", Raw: tag}}
	for n := range rnd.IntN(4) { // zero to three events: a group may have none
		g.events = append(g.events, schema.AlignmentEvent{TraceID: t, DagID: d, Aligner: "symbolic",
			NodeID: fmt.Sprintf("n%d", rnd.IntN(3)), Seq: int32(n), Evidence: tag})
	}
	return g
}

// TestMergeGroupsMatchesMergeByRows merges generated alignments and their
// events into generated current tables twice: as align did (a merger of
// single rows per table, its groups by Group and ReplaceGroup) and by
// whole groups (MergeGroupsIn). The tables and the counts must be the same.
func TestMergeGroupsMatchesMergeByRows(t *testing.T) {
	for seed := range uint64(40) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		var current []alignmentGroup
		for trace := range 6 {
			for dag := range 3 {
				if rnd.IntN(2) == 0 {
					current = append(current, genAlignment(rnd, trace, dag, "old"))
				}
			}
		}
		var given []alignmentGroup
		for _, i := range rnd.Perm(24) { // some of them current: replaced
			given = append(given, genAlignment(rnd, i/3, i%3, "new"))
			if rnd.IntN(3) == 0 {
				break
			}
		}
		byRows, byGroups := t.TempDir(), t.TempDir()
		for _, dir := range []string{byRows, byGroups} {
			writeAlignmentGroups(t, dir, current)
		}

		tx, err := Begin(byRows, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		oldAligns, _ := MergeIn(tx, schema.Alignments)
		oldEvents, _ := MergeIn(tx, schema.AlignmentEvents)
		oldEvents.Group = func(e *schema.AlignmentEvent) string { return e.TraceID + "\x00" + e.DagID + "\x00" + e.Aligner }
		for _, g := range given {
			oldEvents.ReplaceGroup(g.alignment.TraceID + "\x00" + g.alignment.DagID + "\x00" + g.alignment.Aligner)
			if err := errors.Join(oldAligns.Write(g.alignment), oldEvents.Write(g.events...)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}

		// The groups and the keys carried over spilled every 1, 2 or 5,
		// or held (the merge by rows, the reference, holds them).
		restore := SetSpillKeys([]int{1, 2, 5, 0}[seed%4])
		tx, err = Begin(byGroups, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		groups := NewGroups()
		aligns, err := MergeGroupsIn(tx, schema.Alignments, groups, 3)
		if err != nil {
			t.Fatal(err)
		}
		events, err := MergeGroupsIn(tx, schema.AlignmentEvents, groups, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range given {
			if err := groups.Begin(schema.Alignments.KeyOf(&g.alignment)); err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(aligns.Write(g.alignment), events.Write(g.events...)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		restore()

		for _, c := range []struct {
			table      string
			byRows, by [2]int
		}{
			{"alignments", [2]int{oldAligns.Replaced, oldAligns.Kept}, [2]int{aligns.Replaced, aligns.Kept}},
			{"alignment_events", [2]int{oldEvents.Replaced, oldEvents.Kept}, [2]int{events.Replaced, events.Kept}},
		} {
			if c.byRows != c.by {
				t.Fatalf("seed %d: %s: replaced, kept %v by groups, %v by rows", seed, c.table, c.by, c.byRows)
			}
		}
		wantA, _ := ReadAll(byRows, schema.Alignments)
		gotA, _ := ReadAll(byGroups, schema.Alignments)
		if diff := cmp.Diff(wantA, gotA); diff != "" {
			t.Fatalf("seed %d: alignments (-by rows +by groups):\n%s", seed, diff)
		}
		wantE, _ := ReadAll(byRows, schema.AlignmentEvents)
		gotE, _ := ReadAll(byGroups, schema.AlignmentEvents)
		if diff := cmp.Diff(wantE, gotE); diff != "" {
			t.Fatalf("seed %d: events (-by rows +by groups):\n%s", seed, diff)
		}
	}
}

func writeAlignmentGroups(t *testing.T, dir string, groups []alignmentGroup) {
	t.Helper()
	var aligns []schema.Alignment
	var events []schema.AlignmentEvent
	for _, g := range groups {
		aligns = append(aligns, g.alignment)
		events = append(events, g.events...)
	}
	if err := WriteAll(dir, schema.Alignments, Meta{}, aligns); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(dir, schema.AlignmentEvents, Meta{}, events); err != nil {
		t.Fatal(err)
	}
}

// A merger of whole groups still refuses a duplicate row key, within a
// write or across two, and a group given twice; a row of another group
// than the one begun is refused, not written where no commit replaces its
// group's rows.
func TestMergeGroupsRefuses(t *testing.T) {
	ev := func(trace, node string, seq int32) schema.AlignmentEvent {
		return schema.AlignmentEvent{TraceID: trace, DagID: "d", Aligner: "symbolic", NodeID: node, Seq: seq}
	}
	for _, c := range []struct {
		name string
		give func(g *Groups, m *Merger[schema.AlignmentEvent]) error
		want error
	}{
		{"duplicate in one write", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			g.Begin("t1\x00d\x00symbolic")
			return m.Write(ev("t1", "n1", 0), ev("t1", "n1", 0))
		}, ErrDuplicateKey},
		{"duplicate across writes", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			g.Begin("t1\x00d\x00symbolic")
			if err := m.Write(ev("t1", "n1", 0), ev("t1", "n2", 0)); err != nil {
				return err
			}
			return m.Write(ev("t1", "n2", 0))
		}, ErrDuplicateKey},
		{"group given twice", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			g.Begin("t1\x00d\x00symbolic")
			m.Write(ev("t1", "n1", 0))
			g.Begin("t2\x00d\x00symbolic")
			return g.Begin("t1\x00d\x00symbolic")
		}, ErrDuplicateKey},
		{"row of another group", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			g.Begin("t1\x00d\x00symbolic")
			return m.Write(ev("t1", "n1", 0), ev("t2", "n1", 0))
		}, ErrOutsideGroup},
		{"row of an earlier group", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			g.Begin("t1\x00d\x00symbolic")
			m.Write(ev("t1", "n1", 0))
			g.Begin("t2\x00d\x00symbolic")
			return m.Write(ev("t1", "n2", 0))
		}, ErrOutsideGroup},
		{"row before any group", func(g *Groups, m *Merger[schema.AlignmentEvent]) error {
			return m.Write(ev("", "n1", 0))
		}, ErrOutsideGroup},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			tx, err := Begin(dir, Meta{})
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Abort()
			g := NewGroups()
			m, err := MergeGroupsIn(tx, schema.AlignmentEvents, g, 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.give(g, m); !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
	// A group given twice, the first spilled, is refused at the commit.
	t.Run("group given twice, spilled", func(t *testing.T) {
		dir := t.TempDir()
		tx, err := Begin(dir, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Abort()
		g := NewGroups()
		m, err := MergeGroupsIn(tx, schema.AlignmentEvents, g, 3)
		if err != nil {
			t.Fatal(err)
		}
		g.given.maxKeys = 2
		for _, trace := range []string{"t1", "t2", "t3", "t1"} {
			if err := g.Begin(trace + "\x00d\x00symbolic"); err != nil {
				t.Fatal(err)
			}
			if err := m.Write(ev(trace, "n1", 0)); err != nil {
				t.Fatal(err)
			}
		}
		err = tx.Commit()
		if want := "alignment_events: duplicate row key: t1/d/symbolic"; err == nil || err.Error() != want || !errors.Is(err, ErrDuplicateKey) {
			t.Fatalf("got %v, want %s", err, want)
		}
		if Exists(dir, schema.AlignmentEvents.Table) {
			t.Fatal("a refused merge left a table")
		}
	})
	tx, err := Begin(t.TempDir(), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Abort()
	for _, cols := range []int{0, 6} {
		if _, err := MergeGroupsIn(tx, schema.AlignmentEvents, NewGroups(), cols); err == nil {
			t.Errorf("a group of %d of alignment_events' 5 key columns was accepted", cols)
		}
	}
}
