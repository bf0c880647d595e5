package view

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// openLegacy is the index as it was before the row file, over the run's
// current generation.
func openLegacy(t testing.TB, dir string) *legacyDB {
	t.Helper()
	ctx := context.Background()
	db, err := duck.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	l := &legacyDB{db: db, ranks: map[string][]int32{}}
	if l.aligners, err = legacyBuildIndexTables(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := legacyLoadIndex(ctx, l); err != nil {
		t.Fatal(err)
	}
	if err := legacyLoadAnnotated(ctx, l); err != nil {
		t.Fatal(err)
	}
	return l
}

// randomQuery is a URL query of the index as a user could write it: any
// facet's values (present or not), ranges inside, across and outside
// [0, 1], every sort key either way, aligners, annotation layers, a
// problem, a search, pages.
func randomQuery(rng *rand.Rand, l *legacyDB) url.Values {
	q := url.Values{}
	for i, fc := range facets {
		if rng.IntN(4) > 0 {
			continue
		}
		var pool []string
		if i < len(facetCols) {
			pool = slices.Clone(l.dict[i])
		} else {
			pool = append(slices.Clone(l.aligners), notAligned)
		}
		pool = append(pool, "nosuch")
		for range 1 + rng.IntN(3) {
			q.Add(fc.Param, pool[rng.IntN(len(pool))])
		}
	}
	ends := []string{"-1", "0", "0.2", "0.35", "0.5", "0.6", "1", "1.5"}
	for _, m := range metrics {
		if rng.IntN(5) == 0 {
			if rng.IntN(3) > 0 {
				q.Set(m.Param+"_min", ends[rng.IntN(len(ends))])
			}
			if rng.IntN(3) > 0 {
				q.Set(m.Param+"_max", ends[rng.IntN(len(ends))])
			}
		}
	}
	if rng.IntN(8) == 0 {
		for range 1 + rng.IntN(2) {
			q.Add("aligned_by", append(slices.Clone(l.aligners), "nosuch")[rng.IntN(len(l.aligners)+1)])
		}
	}
	if rng.IntN(8) == 0 {
		q.Add("annotated", []string{"node", "edge", "any", "nosuch"}[rng.IntN(4)])
	}
	if rng.IntN(8) == 0 && len(l.rows) > 0 {
		q.Set("problem", []string{l.rows[rng.IntN(len(l.rows))].problemID, "nosuch"}[rng.IntN(2)])
	}
	if rng.IntN(8) == 0 {
		q.Set("q", []string{"apples", "ß", "nothing here", "zzz"}[rng.IntN(4)])
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range sortKeys {
			if !yield(k) {
				return
			}
		}
	})
	if s := keys[rng.IntN(len(keys))]; s != "" {
		q.Set("sort", s)
	}
	if rng.IntN(2) == 0 {
		q.Set("desc", "1")
	}
	q.Set("per", strconv.Itoa([]int{1, 7, 50, 500}[rng.IntN(4)]))
	q.Set("page", strconv.Itoa(1+rng.IntN(4)))
	return q
}

// TestRowFileIsTheIndexItReplaced: over generated runs of hostile values,
// for thousands of random filters, sorts and pages, the row file gives
// what the index in the Go heap gave: each facet's counts, the metrics'
// fifths, the matching traces in the same order, the same page of rows,
// the same summary (its means to the last few bits: a sum's order
// follows the rows', which was DuckDB's and is the ids' now), whether the
// row file was just built or mapped from the cache.
func TestRowFileIsTheIndexItReplaced(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	for _, size := range []int{0, 1, 300, 2500} {
		dir := writeIndexRun(t, size, uint64(size)+1)
		l := openLegacy(t, dir)
		cache := t.TempDir()
		for _, open := range []string{"built", "from the cache"} {
			r, err := openRunDB(context.Background(), dir, cache)
			if err != nil {
				t.Fatal(err)
			}
			compareIndexes(t, fmt.Sprintf("%d traces, %s", size, open), r, l, 1500)
			r.close()
		}
	}
}

func compareIndexes(t *testing.T, name string, r *runDB, l *legacyDB, filters int) {
	t.Helper()
	ctx := context.Background()
	if !slices.Equal(r.aligners, l.aligners) || r.rows.N != len(l.rows) {
		t.Fatalf("%s: aligners %v and %d rows, want %v and %d", name, r.aligners, r.rows.N, l.aligners, len(l.rows))
	}
	for _, x := range l.rows {
		if j, ok := r.rows.find(x.id); !ok || r.rows.id(j) != x.id {
			t.Fatalf("%s: %q not found", name, x.id)
		}
	}
	for _, id := range []string{"", "nosuch", "\xff", "t"} {
		if _, ok := l.byID[id]; !ok {
			if _, ok := r.rows.find(id); ok {
				t.Errorf("%s: %q found", name, id)
			}
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(l.rows)), 3))
	differ := 0
	for range filters {
		q := randomQuery(rng, l)
		f, err := parseFilter(q)
		if err != nil {
			t.Fatalf("%s: %v: %v", name, q, err)
		}
		f = f.withAligner(r.aligners)
		var search bitmap
		var ids map[string]bool
		if f.Q != "" {
			if search, err = r.searchRows(ctx, f.Q); err != nil {
				t.Fatal(err)
			}
			ids = map[string]bool{}
			for j := range r.rows.N {
				if search.has(j) {
					ids[r.rows.id(j)] = true
				}
			}
		}
		got, want := r.query(f, search), l.query(f, ids)
		r.order(f, got.matched)
		l.order(f, want.matched)
		gotIDs, wantIDs := make([]string, 0, len(got.matched)), make([]string, 0, len(want.matched))
		for _, j := range got.matched {
			gotIDs = append(gotIDs, r.rows.id(j))
		}
		for _, j := range want.matched {
			wantIDs = append(wantIDs, l.rows[j].id)
		}
		gotSum, wantSum := summarize(r, f, indexResult{matched: got.matched}), legacySummarize(l, f, legacyResult{matched: want.matched})
		switch {
		case !reflect.DeepEqual(got.counts, want.counts):
			t.Errorf("%s: %s: counts\n%v\nwant\n%v", name, q.Encode(), got.counts, want.counts)
		case got.buckets != want.buckets:
			t.Errorf("%s: %s: buckets %v, want %v", name, q.Encode(), got.buckets, want.buckets)
		case !slices.Equal(gotIDs, wantIDs):
			t.Errorf("%s: %s: traces\n%q\nwant\n%q", name, q.Encode(), gotIDs, wantIDs)
		case !reflect.DeepEqual(rowsOf(r, f, got.matched), legacyRowsOf(l, f, want.matched)):
			t.Errorf("%s: %s: the page's rows differ", name, q.Encode())
		case !sameSummary(gotSum, wantSum):
			t.Errorf("%s: %s: summary\n%+v\nwant\n%+v", name, q.Encode(), gotSum, wantSum)
		}
		if len(wantIDs) > 0 && len(wantIDs) < len(l.rows) {
			differ++
		}
	}
	if len(l.rows) > 100 && differ < filters/4 {
		t.Errorf("%s: only %d filters keep some traces but not all: the test proves little", name, differ)
	}
}

// sameSummary compares summaries, the means to 1e-12.
func sameSummary(a, b summary) bool {
	close := func(x, y float64) bool { return x == y || math.Abs(x-y) <= 1e-12*math.Max(1, math.Abs(y)) }
	if len(a.ByAligner) != len(b.ByAligner) {
		return false
	}
	for k := range a.ByAligner {
		x, y := a.ByAligner[k], b.ByAligner[k]
		for _, p := range [][2]struct {
			v  float64
			ok bool
		}{{{x.CAR.Float64, x.CAR.Valid}, {y.CAR.Float64, y.CAR.Valid}}, {{x.PMF.Float64, x.PMF.Valid}, {y.PMF.Float64, y.PMF.Valid}}, {{x.HAR.Float64, x.HAR.Valid}, {y.HAR.Float64, y.HAR.Valid}}} {
			if p[0].ok != p[1].ok || !close(p[0].v, p[1].v) {
				return false
			}
		}
		if x.Aligner != y.Aligner || x.Scored != y.Scored || x.Coverage != y.Coverage {
			return false
		}
	}
	a.ByAligner, b.ByAligner = nil, nil
	return reflect.DeepEqual(a, b)
}
