package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// sortedScores is n scores of n/5 traces, in trace order, each trace's
// five in a random order of DAG and aligner.
func sortedScores(rnd *rand.Rand, n int) []schema.Score {
	var rows []schema.Score
	for t := 0; len(rows) < n; t++ {
		var trace []schema.Score
		for d := range 5 {
			trace = append(trace, schema.Score{TraceID: fmt.Sprintf("t%07d", t), DagID: fmt.Sprintf("p%d/r%d", t%375, d),
				Aligner: []string{"llm", "symbolic"}[rnd.IntN(2)], CAR: rnd.Float64(), NodeCount: int32(5 + rnd.IntN(6))})
		}
		rnd.Shuffle(len(trace), func(i, j int) { trace[i], trace[j] = trace[j], trace[i] })
		rows = append(rows, trace...)
	}
	return rows[:n]
}

// writeInBatches gives rows to write in batches of random sizes.
func writeInBatches[T any](rnd *rand.Rand, rows []T, write func(...T) error) error {
	for len(rows) > 0 {
		n := min(len(rows), 1+rnd.IntN(700))
		if err := write(rows[:n]...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// A sorted writer writes the table a Writer writes from the same rows.
func TestSortedWriterWritesAsWriterDoes(t *testing.T) {
	for seed := range uint64(5) {
		rnd := rand.New(rand.NewPCG(seed, 9))
		rows := sortedScores(rnd, 1+rnd.IntN(45_000))
		plain, sorted := t.TempDir(), t.TempDir()
		if err := WriteAll(plain, schema.Scores, Meta{}, rows); err != nil {
			t.Fatal(err)
		}
		w, err := CreateSorted(sorted, schema.Scores, Meta{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeInBatches(rnd, rows, w.Write); err != nil {
			t.Fatal(err)
		}
		if w.Rows() != len(rows) {
			t.Fatalf("Rows() = %d, wrote %d", w.Rows(), len(rows))
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		want, err := ReadAll(plain, schema.Scores)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadAll(sorted, schema.Scores)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: the sorted writer's %d rows differ from the writer's %d", seed, len(got), len(want))
		}
	}
}

// A sorted writer refuses a key given twice within a group, in one batch
// or two, and a group given after a later one (it may repeat a key the
// writer no longer holds), and leaves no table.
func TestSortedWriterRefuses(t *testing.T) {
	score := func(trace, dag, aligner string) schema.Score {
		return schema.Score{TraceID: trace, DagID: dag, Aligner: aligner}
	}
	for _, c := range []struct {
		name    string
		batches [][]schema.Score
		want    error
	}{
		{"twice in a batch", [][]schema.Score{{score("t1", "d1", "a"), score("t1", "d2", "a"), score("t1", "d1", "a")}}, ErrDuplicateKey},
		{"twice across batches", [][]schema.Score{{score("t1", "d1", "a"), score("t1", "d2", "a")}, {score("t1", "d2", "a")}}, ErrDuplicateKey},
		{"a group again after another", [][]schema.Score{{score("t1", "d1", "a"), score("t2", "d1", "a")}, {score("t1", "d1", "a")}}, ErrUnsorted},
		{"a group again, a new key", [][]schema.Score{{score("t1", "d1", "a"), score("t2", "d1", "a"), score("t1", "d2", "a")}}, ErrUnsorted},
		{"a group before the first", [][]schema.Score{{score("t2", "d1", "a")}, {score("t1", "d1", "a")}}, ErrUnsorted},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := CreateSorted(dir, schema.Scores, Meta{}, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Abort()
			for _, b := range c.batches {
				if err = w.Write(b...); err != nil {
					break
				}
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			w.Abort()
			if Exists(dir, schema.Scores.Table) {
				t.Fatal("a refused write left a table")
			}
		})
	}
	// The same DAG and aligner in other traces, a key's group of two columns.
	w, err := CreateSorted(t.TempDir(), schema.Scores, Meta{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Write(score("t1", "d1", "a"), score("t1", "d1", "b"), score("t1", "d2", "a"), score("t2", "d1", "a")); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(score("t2", "d0", "a")); !errors.Is(err, ErrUnsorted) {
		t.Fatalf("a group of (trace, DAG) before the last: got %v, want ErrUnsorted", err)
	}
	for _, cols := range []int{0, 4} {
		if _, err := CreateSorted(t.TempDir(), schema.Scores, Meta{}, cols); err == nil {
			t.Errorf("a group of %d key columns of 3 was accepted", cols)
		}
	}
}

// TestSortedWriterHeapFlat writes scores tables of n rows with a sorted
// writer and measures the live heap before the commit: it holds one
// group's keys, not a digest a row (a Writer holds about 20 bytes a row).
func TestSortedWriterHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 240,000 scores")
	}
	rows := sortedScores(rand.New(rand.NewPCG(1, 2)), 200_000)
	// Whole row groups of 20,000 at both sizes: the group being filled
	// holds the same.
	per := testenv.HeapPer(t, "row", 40_000, 200_000, func(n int) int64 {
		w, err := CreateSorted(t.TempDir(), schema.Scores, Meta{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		before := testenv.LiveHeap()
		if err := writeInBatches(rand.New(rand.NewPCG(3, 4)), rows[:n], w.Write); err != nil {
			t.Fatal(err)
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(w)
		runtime.KeepAlive(rows)
		return held
	})
	if per > 4 {
		t.Errorf("the sorted writer holds %d bytes of live heap per row written (at most 4): its memory grows with the table", per)
	}
}
