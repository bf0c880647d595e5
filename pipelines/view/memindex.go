package view

import (
	"math"
	"slices"
)

// The index's facets, counts, summary, order and pages are computed in Go
// over the generation's row file (rowfile.go): a filter change is a pass
// over its columns (milliseconds at tens of thousands of traces), where
// each DuckDB query has a fixed cost of its own. The columns are mapped,
// not loaded: the Go heap holds their dictionaries, and a request's own
// list of the rows it matched.

// facetCols are view_traces' columns of the facets, in facets' order
// (the aligner facet, a list, is the row file's sets of aligners).
var facetCols = [...]string{"model", "level", "direction", "lang", "input_lang", "reasoning_lang", "method", "seed_s", "scope",
	"verdict_mv", "verdict_ml", "comp_ld", "comp_lg", "resource_group"}

// matcher is a filter compiled for the row file.
type matcher struct {
	f         Filter
	rf        *rowFile
	sets      [][]bool // per facet (facets' order), by value code; nil: no filter
	alset     []bool   // per set of aligners: in the aligner facet's values (nil: no filter)
	alignedBy []bool   // per set of aligners: holds every aligned_by (nil: no filter)
	search    bitmap   // nil: no search
	// annotated are the traces of the filter's annotation layers (nil:
	// no such filter).
	annotated bitmap
	problem   int32 // the problem's code; -1: no filter; -2: a problem the run lacks
	metricK   int   // the shown aligner's index (-1: none)
}

func (r *runDB) compile(f Filter, search bitmap) *matcher {
	rf := r.rows
	m := &matcher{f: f, rf: rf, sets: make([][]bool, len(facetCols)), search: search, metricK: f.alignerIdx, problem: -1}
	if len(f.Annotated) > 0 {
		m.annotated = newBitmap(rf.N)
		for _, layer := range f.Annotated {
			if b := r.annotated[layer]; b != nil { // a layer nobody annotated: no trace
				m.annotated.or(b)
			}
		}
	}
	for i, fc := range facets {
		vs := f.Values[fc.Param]
		if len(vs) == 0 {
			continue
		}
		if i >= len(facetCols) {
			m.alset = make([]bool, len(rf.AlignerSets))
			for code, set := range rf.AlignerSets {
				ok := len(set) == 0 && slices.Contains(vs, notAligned)
				for _, a := range set {
					ok = ok || slices.Contains(vs, a)
				}
				m.alset[code] = ok
			}
			continue
		}
		m.sets[i] = make([]bool, len(rf.Dict[i]))
		for _, v := range vs {
			if code, ok := rf.codes[i][v]; ok {
				m.sets[i][code] = true
			}
		}
	}
	if len(f.AlignedBy) > 0 {
		m.alignedBy = make([]bool, len(rf.AlignerSets))
		for code, set := range rf.AlignerSets {
			ok := true
			for _, a := range f.AlignedBy {
				ok = ok && slices.Contains(set, a)
			}
			m.alignedBy[code] = ok
		}
	}
	if f.Problem != "" {
		m.problem = -2
		if code, ok := rf.problemCode[f.Problem]; ok {
			m.problem = code
		}
	}
	return m
}

// all says the filter holds every row (it tests nothing).
func (m *matcher) all() bool {
	for _, set := range m.sets {
		if set != nil {
			return false
		}
	}
	for _, mt := range metrics {
		if _, ok := m.f.Ranges[mt.Param]; ok {
			return false
		}
	}
	return m.alset == nil && m.alignedBy == nil && m.annotated == nil && m.problem == -1 && m.search == nil
}

// metricOf is row j's score of metric k (0 CAR, 1 PMF, 2 HAR) under the
// shown aligner (NaN: none).
func (m *matcher) metricOf(j, k int) float64 {
	if m.metricK < 0 {
		return math.NaN()
	}
	return m.rf.score(k, m.metricK, j)
}

// fails is the set of the filter's parts row j fails: bit i for facet i,
// bit len(facets)+k for metric k, and the last bit for the search and the
// problem (which no facet counts without).
func (m *matcher) fails(j int) uint64 {
	rf := m.rf
	var mask uint64
	for i, set := range m.sets {
		if set != nil && !set[rf.code(i, j)] {
			mask |= 1 << i
		}
	}
	if m.alset != nil && !m.alset[rf.alsetOf(j)] {
		mask |= 1 << len(facetCols)
	}
	for k, mt := range metrics {
		r, ok := m.f.Ranges[mt.Param]
		if !ok {
			continue
		}
		if !r.holds(m.metricOf(j, k)) {
			mask |= 1 << (len(facets) + k)
		}
	}
	if m.alignedBy != nil && !m.alignedBy[rf.alsetOf(j)] {
		mask |= 1 << 63
	}
	if m.annotated != nil && !m.annotated.has(j) {
		mask |= 1 << 63
	}
	if m.problem != -1 && int32(rf.u32(rf.problem, j)) != m.problem {
		mask |= 1 << 63
	}
	if m.search != nil && !m.search.has(j) {
		mask |= 1 << 63
	}
	return mask
}

// bucket is a score's fifth of [0, 1] (0..4).
func bucket(v float64) int {
	switch {
	case v < 0.2:
		return 0
	case v < 0.4:
		return 1
	case v < 0.6:
		return 2
	case v < 0.8:
		return 3
	}
	return 4
}

// indexResult is one pass over the rows: each facet's counts under the
// other parts of the filter, the rows that pass it all, the summary.
type indexResult struct {
	counts  []map[string]int // per facet (filled from codes at the end)
	buckets [3][5]int        // per metric
	matched []int            // rows of the row file
}

func (r *runDB) query(f Filter, search bitmap) indexResult {
	rf := r.rows
	m := r.compile(f, search)
	res := indexResult{counts: make([]map[string]int, len(facets))}
	for i := range res.counts {
		res.counts[i] = map[string]int{}
	}
	byCode := make([][]int, len(facetCols))
	for i := range byCode {
		byCode[i] = make([]int, len(rf.Dict[i]))
	}
	bySet := make([]int, len(rf.AlignerSets))
	alignerFacet := len(facets) - 1
	count := func(i, j int) {
		if i == alignerFacet {
			bySet[rf.alsetOf(j)]++
			return
		}
		if i < len(facets) {
			byCode[i][rf.code(i, j)]++
			return
		}
		k := i - len(facets)
		if v := m.metricOf(j, k); !math.IsNaN(v) {
			res.buckets[k][bucket(v)]++
		}
	}
	for j := range rf.N {
		mask := m.fails(j)
		switch {
		case mask == 0:
			res.matched = append(res.matched, j)
			for i := range len(facets) + len(metrics) {
				count(i, j)
			}
		case mask&(mask-1) == 0 && mask != 1<<63:
			// Fails one facet only: it counts under that facet.
			i := 0
			for mask>>i != 1 {
				i++
			}
			count(i, j)
		}
	}
	for i, cs := range byCode {
		for code, n := range cs {
			if n > 0 {
				res.counts[i][rf.Dict[i][code]] = n
			}
		}
	}
	for code, n := range bySet {
		if n == 0 {
			continue
		}
		set := rf.AlignerSets[code]
		if len(set) == 0 {
			res.counts[alignerFacet][notAligned] += n
		}
		for _, a := range set {
			res.counts[alignerFacet][a] += n
		}
	}
	return res
}

// order sorts matched rows (each once) as the filter asks: a walk of the
// order's column in the row file, keeping the matched rows, so no sort is
// made per request.
func (r *runDB) order(f Filter, matched []int) {
	if len(matched) < 2 {
		return
	}
	in := newBitmap(r.rows.N)
	for _, j := range matched {
		in.set(j)
	}
	k := 0
	r.rows.walk(f.Sort, f.Desc, f.alignerIdx, func(j int) bool {
		if in.has(j) {
			matched[k] = j
			k++
		}
		return k < len(matched)
	})
}

// filteredRows are the rows the filter (compiled as m) holds, in its
// order: kept per generation (placecache.go), else the filter's set of
// rows (rowsIn) and one walk of the order up to its last.
func (r *runDB) filteredRows(f Filter, m *matcher) []int32 {
	key := placeKey(f)
	if rows, ok := r.places.get(key); ok {
		return rows
	}
	// filterrows.go: no row tested in the order's walk.
	in := m.rowsIn()
	rows := r.rows.inOrder(f.Sort, f.Desc, f.alignerIdx, in, make([]int32, 0, in.count()))
	r.places.put(key, rows)
	return rows
}

// keepOrdered keeps an index page's rows, ordered, as its filter's (a
// trace opened from the page finds its place in them), unless the filter
// holds every row (a trace page walks none then) or they are kept.
func (r *runDB) keepOrdered(f Filter, search bitmap, ordered []int) {
	key := placeKey(f)
	if _, ok := r.places.get(key); ok || r.compile(f, search).all() {
		return
	}
	rows := make([]int32, len(ordered))
	for i, j := range ordered {
		rows[i] = int32(j)
	}
	r.places.put(key, rows)
}

// placeAmong is row self's place among the filter's rows in its order
// (nil: not among them).
func (r *runDB) placeAmong(f Filter, rows []int32, self int) *place {
	i := slices.Index(rows, int32(self))
	if i < 0 {
		return nil
	}
	nav := &place{pos: i + 1, total: len(rows)}
	if i > 0 {
		nav.prev = f.Trace(r.rows.id(int(rows[i-1])))
	}
	if i+1 < len(rows) {
		nav.next = f.Trace(r.rows.id(int(rows[i+1])))
	}
	return nav
}
