package store

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// keyRuns finds a repeat exactly when a set of every key would, whether
// the two are held together, one was spilled, or both were, through
// merges of one level or several; and leaves no file behind.
func TestKeyRunsFindRepeatsAsASetDoes(t *testing.T) {
	for seed := range uint64(120) {
		rnd := rand.New(rand.NewPCG(seed, 17))
		dir := t.TempDir()
		k := newKeyRuns(dir, "answers")
		k.maxKeys, k.maxBytes, k.maxRuns = 1+rnd.IntN(40), 1+rnd.IntN(2000), 2+rnd.IntN(4)
		n := rnd.IntN(400)
		var keys []string
		for i := range n {
			// Keys of mixed lengths, with the \x00 a key's columns are
			// joined by, and the empty key.
			keys = append(keys, strings.Repeat("k", rnd.IntN(3))+fmt.Sprintf("%d\x00%x", i, rnd.IntN(1<<20)))
		}
		if n > 0 && rnd.IntN(3) > 0 { // plant a repeat
			i, j := rnd.IntN(n), rnd.IntN(n)
			keys[max(i, j)] = keys[min(i, j)]
		}
		if n > 0 && rnd.IntN(10) == 0 {
			keys[rnd.IntN(n)] = ""
		}
		want := map[string]bool{} // the keys given twice
		seen := map[string]bool{}
		for _, key := range keys {
			if seen[key] {
				want[key] = true
			}
			seen[key] = true
		}
		var got string
		found := false
		for _, key := range keys {
			dup, err := k.add(key)
			if err != nil {
				t.Fatal(err)
			}
			if dup {
				got, found = key, true
				break
			}
		}
		if !found {
			var err error
			if got, found, err = k.check(); err != nil {
				t.Fatal(err)
			}
		}
		k.remove()
		if found != (len(want) > 0) || found && !want[got] {
			t.Fatalf("seed %d (%d keys, spilled every %d keys or %d bytes, merged %d at once): found=%v %q, want the repeats %v",
				seed, n, k.maxKeys, k.maxBytes, k.maxRuns, found, got, want)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Fatalf("seed %d: %d run files left", seed, len(left))
		}
	}
}

// A damaged run is an error naming it, not a panic or a missed repeat.
func TestKeyRunsRefuseADamagedRun(t *testing.T) {
	dir := t.TempDir()
	k := newKeyRuns(dir, "answers")
	k.maxKeys = 2
	for _, key := range []string{"a", "b", "c", "d"} {
		if _, err := k.add(key); err != nil {
			t.Fatal(err)
		}
	}
	defer k.remove()
	if err := os.WriteFile(k.runs[1], []byte{5, 'c'}, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := k.check()
	if err == nil || !strings.Contains(err.Error(), k.runs[1]) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v, want an error naming %s", err, k.runs[1])
	}
}

// answerRows is n answers of distinct traces.
func answerRows(n int) []schema.Answer {
	rows := make([]schema.Answer, n)
	for i := range rows {
		rows[i] = schema.Answer{TraceID: fmt.Sprintf("t%016x", i), Extracted: "42", HasAnswer: true, Correct: i%3 == 0,
			Gold: "42", Reason: "exact", FoundIn: "boxed", Grader: "multilingual/v3", TextHash: fmt.Sprintf("%032x", i)}
	}
	return rows
}

// A repeat of a key spilled long before is still refused, with the same
// error, before anything is committed; the spilled keys are not left in
// the run.
func TestWriterRefusesARepeatAcrossSpills(t *testing.T) {
	rows := answerRows(2*spillKeys + 100)
	for _, at := range []int{0, spillKeys - 1, spillKeys, 2*spillKeys + 50} {
		dir := t.TempDir()
		w, err := Create(dir, schema.Answers, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		repeat := rows[at]
		repeat.Extracted = "7"
		if err := w.Write(rows...); err != nil {
			t.Fatal(err)
		}
		err = w.Write(repeat)
		if err == nil {
			err = w.Commit()
		}
		w.Abort()
		want := fmt.Sprintf("answers: %v: %s", ErrDuplicateKey, repeat.TraceID)
		if !errors.Is(err, ErrDuplicateKey) || err.Error() != want {
			t.Fatalf("repeating row %d: got %v, want %s", at, err, want)
		}
		if Exists(dir, schema.Answers.Table) {
			t.Fatal("a refused write left a table")
		}
		var left []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".lock") {
				left = append(left, path)
			}
			return nil
		})
		if len(left) > 0 {
			t.Fatalf("files left in the run: %v", left)
		}
	}
}

// The keys spilled while a table is written are removed at the commit: the
// generation holds the table alone.
func TestWriterCommitsNoSpilledKeys(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Answers, Meta{}, answerRows(3*spillKeys+7)); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(dir, schema.Answers)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3*spillKeys+7 {
		t.Fatalf("read %d rows back", len(got))
	}
	var keys []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".keys") {
			keys = append(keys, path)
		}
		return nil
	})
	if len(keys) > 0 {
		t.Fatalf("spilled keys left in the run: %v", keys)
	}
}

// maxKeyHeapPerRow bounds the live heap a writer of a narrow table (a
// footer entry every 20,000 rows) holds per row written: a digest of every
// key kept to the commit was 29 bytes a row and more.
const maxKeyHeapPerRow = 4

// TestWriterKeysHeapFlat writes answers tables of n rows and measures the
// live heap before the commit: the keys of the rows written may not be
// held.
func TestWriterKeysHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 240,000 answers")
	}
	per := testenv.HeapPer(t, "row", 40_000, 200_000, func(n int) int64 {
		rows := answerRows(n)
		w, err := Create(t.TempDir(), schema.Answers, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		before := testenv.LiveHeap()
		for i := range rows {
			if err := w.Write(rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(w)
		runtime.KeepAlive(rows)
		return held
	})
	if per > maxKeyHeapPerRow {
		t.Errorf("the writer holds %d bytes of live heap per row written (at most %d): its keys grow with the table", per, maxKeyHeapPerRow)
	}
}

// A merger whose given keys were spilled finds the current rows they
// replace, and carries over the others, as one that held every key:
// random current tables and given rows overlapping them, spilled every
// few keys and merged a few runs at a time.
func TestMergerReplacesAsASetDoesWhenSpilled(t *testing.T) {
	for seed := range uint64(20) {
		rnd := rand.New(rand.NewPCG(seed, 23))
		dir := t.TempDir()
		var current []schema.Answer
		for i := range rnd.IntN(1500) { // more than a batch of rows carried over (256)
			current = append(current, schema.Answer{TraceID: fmt.Sprintf("t%04d", i*3), Extracted: "old"})
		}
		rnd.Shuffle(len(current), func(i, j int) { current[i], current[j] = current[j], current[i] })
		if len(current) > 0 {
			if err := WriteAll(dir, schema.Answers, Meta{}, current); err != nil {
				t.Fatal(err)
			}
		}
		// Given rows that are spilled, or held while the current rows
		// carried over are spilled (references' few traces into a run).
		maxKeys := 3 + rnd.IntN(30)
		nGiven := rnd.IntN(400)
		if seed%2 == 0 {
			nGiven = rnd.IntN(maxKeys)
		}
		var given []schema.Answer
		for _, i := range rnd.Perm(4500)[:nGiven] {
			given = append(given, schema.Answer{TraceID: fmt.Sprintf("t%04d", i), Extracted: "new"})
		}
		m, err := NewMerger(dir, schema.Answers, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		m.runs.maxKeys, m.runs.maxRuns = maxKeys, 2+rnd.IntN(3)
		var replacedRows []string
		m.OnReplace = func(old *schema.Answer) { replacedRows = append(replacedRows, old.TraceID) }
		if err := writeInBatches(rnd, given, m.Write); err != nil {
			t.Fatal(err)
		}
		if err := m.Commit(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// What a set of every given key gives.
		want := map[string]string{}
		isGiven := map[string]bool{}
		for _, g := range given {
			want[g.TraceID], isGiven[g.TraceID] = "new", true
		}
		wantReplaced, wantKept := 0, 0
		for _, c := range current {
			if isGiven[c.TraceID] {
				wantReplaced++
			} else {
				want[c.TraceID] = "old"
				wantKept++
			}
		}
		got, err := ReadAll(dir, schema.Answers)
		if err != nil && !errors.Is(err, ErrNoTable) {
			t.Fatal(err)
		}
		gotRows := map[string]string{}
		for _, r := range got {
			gotRows[r.TraceID] = r.Extracted
		}
		if len(got) != len(want) || !reflect.DeepEqual(gotRows, want) || m.Replaced != wantReplaced || m.Kept != wantKept || len(replacedRows) != wantReplaced {
			t.Fatalf("seed %d: %d rows, replaced %d (%d calls), kept %d; want %d rows, replaced %d, kept %d",
				seed, len(got), m.Replaced, len(replacedRows), m.Kept, len(want), wantReplaced, wantKept)
		}
		for _, id := range replacedRows {
			if !isGiven[id] {
				t.Fatalf("seed %d: %s reported replaced, not given", seed, id)
			}
		}
		var left []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && (strings.Contains(d.Name(), ".keys") || strings.Contains(d.Name(), ".current")) {
				left = append(left, path)
			}
			return nil
		})
		if len(left) > 0 {
			t.Fatalf("seed %d: spilled keys left in the run: %v", seed, left)
		}
	}
}

// A merger refuses a key given twice, across spills, as it did holding
// every key.
func TestMergerRefusesARepeatAcrossSpills(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Answers, Meta{}, answerRows(50)); err != nil {
		t.Fatal(err)
	}
	m, err := NewMerger(dir, schema.Answers, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Abort()
	m.runs.maxKeys = 7
	rows := answerRows(100)
	if err := m.Write(rows...); err != nil {
		t.Fatal(err)
	}
	err = m.Write(rows[3])
	if err == nil {
		err = m.Commit()
	}
	if want := fmt.Sprintf("answers: %v: %s", ErrDuplicateKey, rows[3].TraceID); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	got, _ := ReadAll(dir, schema.Answers)
	if len(got) != 50 {
		t.Fatalf("the refused merge changed the table: %d rows", len(got))
	}
}

// LineKeys finds the line a check line by line stops at: the earliest
// second line of any key, and the first line of that key.
func TestLineKeysFindTheFirstRepeat(t *testing.T) {
	for seed := range uint64(60) {
		rnd := rand.New(rand.NewPCG(seed, 29))
		dir := t.TempDir()
		m, err := NewMerger(dir, schema.Answers, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		l := m.LineKeys("ids")
		l.runs.maxKeys, l.runs.maxRuns = 1+rnd.IntN(20), 2+rnd.IntN(3)
		seen := map[string]int{}
		wantLine, wantFirst, wantKey := 0, 0, ""
		for line := 1; line <= rnd.IntN(300); line++ {
			key := fmt.Sprint(rnd.IntN(40 + rnd.IntN(2000)))
			if err := l.Add(key, line); err != nil {
				t.Fatal(err)
			}
			if first, ok := seen[key]; ok && wantLine == 0 {
				wantLine, wantFirst, wantKey = line, first, key
			}
			if _, ok := seen[key]; !ok {
				seen[key] = line
			}
		}
		key, line, first, found, err := l.FirstRepeat()
		if err != nil {
			t.Fatal(err)
		}
		if found != (wantLine != 0) || line != wantLine || first != wantFirst || key != wantKey {
			t.Fatalf("seed %d: got %q at line %d (first %d, found %v), want %q at %d (first %d)", seed, key, line, first, found, wantKey, wantLine, wantFirst)
		}
		m.Abort()
	}
}

// TestMergerKeysHeapFlat merges answers into an empty table (as a first
// import does) and measures the live heap before the commit: the keys
// given may not be held.
func TestMergerKeysHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 240,000 answers")
	}
	per := testenv.HeapPer(t, "row", 40_000, 200_000, func(n int) int64 {
		rows := answerRows(n)
		m, err := NewMerger(t.TempDir(), schema.Answers, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Abort()
		before := testenv.LiveHeap()
		for i := range rows {
			if err := m.Write(rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(m)
		runtime.KeepAlive(rows)
		return held
	})
	if per > maxKeyHeapPerRow {
		t.Errorf("the merger holds %d bytes of live heap per row given (at most %d): its keys grow with the table", per, maxKeyHeapPerRow)
	}
}

// TestGroupsHeapFlat begins n groups (alignments) of a merge and measures
// the live heap: the groups begun may not be held.
func TestGroupsHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("begins 240,000 groups")
	}
	per := testenv.HeapPer(t, "group", 40_000, 200_000, func(n int) int64 {
		tx, err := Begin(t.TempDir(), Meta{})
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Abort()
		g := NewGroups()
		if _, err := MergeGroupsIn(tx, schema.AlignmentEvents, g, 3); err != nil {
			t.Fatal(err)
		}
		before := testenv.LiveHeap()
		for i := range n {
			if err := g.Begin(fmt.Sprintf("t%016x\x00p%d/r%d\x00symbolic", i/5, i%375, i%5)); err != nil {
				t.Fatal(err)
			}
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(g)
		return held
	})
	if per > maxKeyHeapPerRow {
		t.Errorf("the groups hold %d bytes of live heap per group begun (at most %d): they grow with the run", per, maxKeyHeapPerRow)
	}
}
