package view

import (
	"context"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"
)

// The filter's set of rows (rowsIn, part by part over the columns) holds
// exactly the rows the row-by-row test (matcher.fails) passes: over random
// filters of hostile values and filters of a single part (each facet, a
// metric's range, aligned_by, annotations, a problem, a search), with
// annotation layers of random traces.
func TestRowsInAreTheRowsThatPass(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	ctx := context.Background()
	dir, _ := writePageRun(t, 600, 29, true)
	r, err := openRunDB(ctx, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	l := openLegacy(t, dir)
	rng := rand.New(rand.NewPCG(29, 31))
	// Annotation layers over random rows (the run has none): the filter's
	// annotated rows are a set ANDed, not a column.
	r.annotated = map[string]bitmap{}
	for _, layer := range []string{"node", "edge", "any"} {
		b := newBitmap(r.rows.N)
		for j := range r.rows.N {
			if rng.IntN(3) == 0 {
				b.set(j)
			}
		}
		r.annotated[layer] = b
	}
	parts := map[string]int{}
	some := 0 // filters holding some rows but not all
	for i := range 400 {
		q := randomQuery(rng, l)
		if i%2 == 1 { // one part of it only
			var keys []string
			for k := range q {
				if k != "sort" && k != "desc" && k != "page" && k != "per" {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			if len(keys) > 0 {
				k := keys[rng.IntN(len(keys))]
				q = url.Values{k: q[k], "sort": q["sort"]}
				parts[k]++
			}
		}
		f, err := parseFilter(q)
		if err != nil {
			t.Fatal(err)
		}
		f = f.withAligner(r.aligners)
		var search bitmap
		if f.Q != "" {
			if search, err = r.searchRows(ctx, f.Q); err != nil {
				t.Fatal(err)
			}
		}
		m := r.compile(f, search)
		in := m.rowsIn()
		n := 0
		for j := range r.rows.N {
			if pass := m.fails(j) == 0; in.has(j) != pass {
				t.Fatalf("%s: row %d (%s) in the set %v, passes the filter %v", q.Encode(), j, r.rows.id(j), in.has(j), pass)
			}
			if in.has(j) {
				n++
			}
		}
		if in.count() != n {
			t.Fatalf("%s: the set counts %d rows, holds %d of the run's", q.Encode(), in.count(), n)
		}
		if n > 0 && n < r.rows.N {
			some++
		}
	}
	if some < 100 || len(parts) < 12 {
		t.Errorf("%d filters hold some rows but not all; single parts tried: %v: the test proves little", some, parts)
	}
}

// A full set holds rows 0..n-1 and none past them, at any n.
func TestFullBitmapHoldsTheRows(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 1000} {
		b := fullBitmap(n)
		if b.count() != n || len(b) != (n+63)/64 {
			t.Errorf("n=%d: %d rows in %d words", n, b.count(), len(b))
		}
		if n > 0 && !b.has(n-1) {
			t.Errorf("n=%d: the last row is out", n)
		}
	}
}

// inOrder gives the rows of a set in the order's walk (rowFile.walk),
// for every sort key either way, under each aligner and none, with sets
// of every row, of none, of random rows, of the first and of the last.
func TestInOrderIsTheWalk(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	dir, _ := writePageRun(t, 300, 37, true)
	r, err := openRunDB(context.Background(), dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	rf := r.rows
	rng := rand.New(rand.NewPCG(37, 41))
	sets := map[string]bitmap{"every row": fullBitmap(rf.N), "none": newBitmap(rf.N)}
	for _, name := range []string{"random", "sparse"} {
		b := newBitmap(rf.N)
		for j := range rf.N {
			if rng.IntN(map[string]int{"random": 2, "sparse": 40}[name]) == 0 {
				b.set(j)
			}
		}
		sets[name] = b
	}
	first, last := newBitmap(rf.N), newBitmap(rf.N)
	first.set(0)
	last.set(rf.N - 1)
	sets["first"], sets["last"] = first, last
	if len(r.aligners) == 0 {
		t.Fatal("the run has no aligner: the metric orders are not tried")
	}
	for sort := range sortKeys {
		for _, desc := range []bool{false, true} {
			for aligner := -1; aligner < len(r.aligners); aligner++ {
				for name, in := range sets {
					var want []int32
					rf.walk(sort, desc, aligner, func(j int) bool {
						if in.has(j) {
							want = append(want, int32(j))
						}
						return true
					})
					prefix := []int32{-7}
					got := rf.inOrder(sort, desc, aligner, in, prefix)
					if !slices.Equal(got[:1], prefix) || !slices.Equal(got[1:], want) {
						t.Fatalf("sort %q desc %v aligner %d, %s: %d rows %v, want %d %v", sort, desc, aligner, name, len(got)-1, got[1:min(len(got), 10)], len(want), want[:min(len(want), 9)])
					}
				}
			}
		}
	}
}
