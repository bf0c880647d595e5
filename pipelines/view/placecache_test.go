package view

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// A trace's place in a filter is the same whether the filter's rows are
// walked, kept from an earlier trace page or kept by the index page it
// was opened from: each compared with the old place (the index's query
// and order, legacyPlaceOf) over random filters of hostile values, every
// sort, each trace in the filter or not, at its ends too.
func TestPlaceFromKeptRowsIsTheWalk(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	ctx := context.Background()
	dir, _ := writePageRun(t, 600, 17, true)
	r, err := openRunDB(ctx, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	l := openLegacy(t, dir)
	rng := rand.New(rand.NewPCG(17, 23))
	walked, kept, fromIndex, ends := 0, 0, 0, 0
	for i := range 240 {
		q := randomQuery(rng, l)
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
		res := r.query(f, search)
		r.order(f, res.matched)
		if i%2 == 0 { // opened from the index page: it kept the rows
			r.keepOrdered(f, search, res.matched)
			if !r.compile(f, search).all() {
				fromIndex++
			}
		}
		var ids []string
		for range 3 {
			ids = append(ids, r.rows.id(rng.IntN(r.rows.N)))
		}
		if n := len(res.matched); n > 0 {
			ids = append(ids, r.rows.id(res.matched[0]), r.rows.id(res.matched[n-1]), r.rows.id(res.matched[rng.IntN(n)]))
			ends++
		}
		for k, id := range ids {
			_, wasKept := r.places.get(placeKey(f))
			got, err := placeOf(ctx, r, f, id)
			if err != nil {
				t.Fatal(err)
			}
			// Another page of the same filter, another per: the same rows.
			other := f.clone()
			other.Page, other.Per = 1+k, 1+rng.IntN(500)
			again, err := placeOf(ctx, r, other, id)
			if err != nil {
				t.Fatal(err)
			}
			want, err := legacyPlaceOf(ctx, r, f, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the place of %q (rows kept before: %v) is %+v, want %+v", q.Encode(), id, wasKept, got, want)
			}
			if wantOther, _ := legacyPlaceOf(ctx, r, other, id); !reflect.DeepEqual(again, wantOther) {
				t.Fatalf("%s, page %d per %d: the place of %q is %+v, want %+v", q.Encode(), other.Page, other.Per, id, again, wantOther)
			}
			if wasKept {
				kept++
			} else {
				walked++
			}
		}
	}
	if walked < 100 || kept < 300 || fromIndex < 50 || ends < 40 {
		t.Errorf("places walked %d, from kept rows %d, filters kept by the index %d, with an end %d: the test proves little", walked, kept, fromIndex, ends)
	}
}

// The kept filters are bounded: the last maxPlaceFilters used, and no
// more than maxPlaceBytes of rows (a filter's rows larger than that are
// not kept).
func TestPlaceCacheIsBounded(t *testing.T) {
	var c placeCache
	for i := range maxPlaceFilters + 4 {
		c.put(fmt.Sprint(i), []int32{int32(i)})
		if i == maxPlaceFilters-1 {
			c.get("0") // used last before the bound is reached: kept over 1-4
		}
	}
	for i := range maxPlaceFilters + 4 {
		rows, ok := c.get(fmt.Sprint(i))
		if want := i == 0 || i > 4; ok != want || (ok && rows[0] != int32(i)) {
			t.Errorf("filter %d: kept %v (%v), want %v", i, ok, rows, want)
		}
	}
	if c.lru.Len() != maxPlaceFilters || len(c.byKey) != maxPlaceFilters || c.bytes != 4*maxPlaceFilters {
		t.Errorf("%d filters, %d keys, %d bytes", c.lru.Len(), len(c.byKey), c.bytes)
	}
	big := make([]int32, maxPlaceBytes/4/3+1)
	for i := range 3 {
		c.put(fmt.Sprint("big", i), big)
	}
	if c.bytes > maxPlaceBytes {
		t.Errorf("%d bytes kept (at most %d)", c.bytes, maxPlaceBytes)
	}
	if _, ok := c.get("big0"); ok {
		t.Errorf("the oldest large filter is kept past the bound")
	}
	if _, ok := c.get("big2"); !ok {
		t.Errorf("the newest large filter is not kept")
	}
	c.put("huge", make([]int32, maxPlaceBytes/4+1))
	if _, ok := c.get("huge"); ok {
		t.Errorf("rows larger than the bound are kept")
	}
}

// A filter's key holds every part of it but its page: filters that
// differ in any part are kept apart.
func TestPlaceKeyTellsFiltersApart(t *testing.T) {
	base := "model=a&level=low&car_min=0.2&sort=har&desc=1&q=x&problem=p&aligned_by=s&annotated=node"
	keys := map[string]string{}
	for _, raw := range []string{base, "model=a", "model=b", "model=a&model=b", "level=low", "car_min=0.2", "car_min=0.20001", "car_max=0.2",
		"sort=har", "sort=har&desc=1", "q=x", "q=X", "problem=p", "aligned_by=s", "annotated=node", "annotated=any", "aligner=s", "aligner=-", ""} {
		q, _ := url.ParseQuery(raw)
		f, err := parseFilter(q)
		if err != nil {
			t.Fatal(err)
		}
		k := placeKey(f.withAligner([]string{"r", "s"}))
		if prev, ok := keys[k]; ok {
			t.Errorf("%q and %q have one key", raw, prev)
		}
		keys[k] = raw
		for _, page := range []string{"&page=3", "&per=7"} {
			q2, _ := url.ParseQuery(raw + page)
			g, _ := parseFilter(q2)
			if placeKey(g.withAligner([]string{"r", "s"})) != k {
				t.Errorf("%q: the page changes the key", raw+page)
			}
		}
	}
}

// clear drops every kept filter (a benchmark's walk each time).
func (c *placeCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	c.byKey, c.bytes = nil, 0
}

// BenchmarkTracePlace is a trace page's place in a filter (placeOf) over
// the run in $DATG_BENCH_RUN (else benchRunAligned's 38,250 traces):
// walked (nothing kept: the first page of a filter) and from the kept
// rows (the next pages, or a trace opened from the index page). The trace
// is the filter's middle one. cpu-ns/op is the process's CPU a place.
//
//	DATG_BENCH_RUN=DIR go test -run '^$' -bench BenchmarkTracePlace -benchtime 50x ./pipelines/view
func BenchmarkTracePlace(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		dir, _ = benchRunAligned(b, 125, 0, true)
	}
	ctx := context.Background()
	s, err := newServer(ctx, dir, b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	<-s.cur.indexDone
	r := s.cur
	for _, raw := range []string{"direction=en-en", "direction=en-x&level=high&mv=incorrect&sort=har&desc=1"} {
		q, _ := url.ParseQuery(raw)
		f, err := parseFilter(q)
		if err != nil {
			b.Fatal(err)
		}
		f = f.withAligner(r.aligners)
		res := r.query(f, nil)
		r.order(f, res.matched)
		if len(res.matched) == 0 {
			b.Fatalf("%s holds no trace", raw)
		}
		id := r.rows.id(res.matched[len(res.matched)/2])
		b.Run(fmt.Sprintf("traces=%d/%s/before", r.rows.N, raw), func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				if nav := walkPlaceBefore(r, f, id); nav == nil {
					b.Fatalf("%s: not in the filter", id)
				}
			}
			testenv.ReportCPU(b, cpu, 0)
		})
		for _, kept := range []bool{false, true} {
			b.Run(fmt.Sprintf("traces=%d/%s/kept=%v", r.rows.N, raw, kept), func(b *testing.B) {
				cpu := testenv.CPUTime()
				for b.Loop() {
					if !kept {
						r.places.clear()
					}
					if nav, err := placeOf(ctx, r, f, id); err != nil || nav == nil {
						b.Fatalf("%s: %v %v", id, nav, err)
					}
				}
				testenv.ReportCPU(b, cpu, 0)
			})
		}
	}
}

// walkPlaceBefore is placeOf's walk before the rows were kept (at
// 4a8dc71, for a filter that tests rows; no search): the benchmark's
// before.
func walkPlaceBefore(r *runDB, f Filter, id string) *place {
	self, ok := r.rows.find(id)
	if !ok {
		return nil
	}
	m := r.compile(f, nil)
	prev, next, pos, total := -1, -1, 0, 0
	r.rows.walk(f.Sort, f.Desc, f.alignerIdx, func(j int) bool {
		if m.fails(j) != 0 {
			return true
		}
		total++
		switch {
		case j == self:
			pos = total
		case pos == 0:
			prev = j
		case next < 0:
			next = j
		}
		return true
	})
	if pos == 0 {
		return nil
	}
	nav := &place{pos: pos, total: total}
	if prev >= 0 {
		nav.prev = f.Trace(r.rows.id(prev))
	}
	if next >= 0 {
		nav.next = f.Trace(r.rows.id(next))
	}
	return nav
}

// Over HTTP: the index page keeps its filter's rows, a trace page opened
// from it finds them (nothing walked, nothing added), and a trace page of
// another filter keeps that one's.
func TestTracePagesKeepTheirFiltersRows(t *testing.T) {
	s, ts := serveWith(t, writeRun(t, 8), t.TempDir())
	kept := func() int {
		s.cur.places.mu.Lock()
		defer s.cur.places.mu.Unlock()
		return s.cur.places.lru.Len()
	}
	if status, body, _ := get(t, ts, "/?direction=en-x&sort=car&desc=1&page=2&per=3"); status != 200 || kept() != 1 {
		t.Fatalf("the index page: %d, %d filters kept\n%s", status, kept(), heading(body))
	}
	if status, body, _ := get(t, ts, "/trace?id=p003&direction=en-x&sort=car&desc=1"); status != 200 || kept() != 1 || !strings.Contains(body, "in the filter") {
		t.Fatalf("a trace page of the index's filter: %d, %d filters kept", status, kept())
	}
	if _, _, _ = get(t, ts, "/trace?id=p003&level=low"); kept() != 2 {
		t.Errorf("a trace page of another filter: %d filters kept", kept())
	}
	if _, _, _ = get(t, ts, "/trace?id=p003"); kept() != 2 {
		t.Errorf("a trace page without a filter kept one: %d", kept())
	}
}
