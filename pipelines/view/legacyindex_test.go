package view

// The viewer's index as it was before the row file (memindex.go,
// index.go and rundb.go at 65bcc35): every trace a struct in the Go heap,
// each order's ranks computed on first use. Kept here, unchanged but for
// names, as the reference TestRowFileIsTheIndexItReplaced compares the
// row file with.

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/datg/datg/internal/duck"
)

// legacyDB is the part of the old runDB the index used.
type legacyDB struct {
	db        *duck.DB
	aligners  []string
	rows      []legacyRow
	byID      map[string]int32
	dict      [len(facetCols)][]string
	codes     [len(facetCols)]map[string]int32
	ranks     map[string][]int32
	annotated map[string]map[string]bool
	mu        sync.Mutex
}

// legacyRow is a trace as the index filters, counts and sorts it.
type legacyRow struct {
	id, problemID             string
	vals                      [len(facetCols)]string // the facets' values, in facetCols' order
	codes                     [len(facetCols)]int32  // each value's index in runDB.dict
	levelOrd, dirOrd, langOrd int
	problemK, seed, tokens    int64
	truncated                 bool
	aligners                  []string
	car, pmf, har             []float64 // per aligner of the run (NaN: not scored)
}

// legacyLoadIndex reads view_traces into rows.
func legacyLoadIndex(ctx context.Context, r *legacyDB) error {
	cols := append(append([]string{"trace_id", "problem_id"}, facetCols[:]...), "level_ord", "direction_ord", "lang_ord", "problem_k", "seed", "tokens", "truncated", "aligners")
	for k := range r.aligners {
		cols = append(cols, fmt.Sprintf("coalesce(car_%[1]d, 'NaN'), coalesce(pmf_%[1]d, 'NaN'), coalesce(har_%[1]d, 'NaN')", k))
	}
	rows, err := r.db.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM view_traces")
	if err != nil {
		return fmt.Errorf("loading the viewer's index: %w", err)
	}
	defer rows.Close()
	intern := map[string]string{}
	for i := range r.codes {
		r.codes[i] = map[string]int32{}
	}
	shared := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		intern[s] = s
		return s
	}
	for rows.Next() {
		var x legacyRow
		var als []any
		dest := []any{&x.id, &x.problemID}
		for i := range x.vals {
			dest = append(dest, &x.vals[i])
		}
		dest = append(dest, &x.levelOrd, &x.dirOrd, &x.langOrd, &x.problemK, &x.seed, &x.tokens, &x.truncated, &als)
		n := len(r.aligners)
		x.car, x.pmf, x.har = make([]float64, n), make([]float64, n), make([]float64, n)
		for k := range n {
			dest = append(dest, &x.car[k], &x.pmf[k], &x.har[k])
		}
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("loading the viewer's index: %w", err)
		}
		for i, v := range x.vals {
			code, ok := r.codes[i][v]
			if !ok {
				code = int32(len(r.dict[i]))
				r.dict[i] = append(r.dict[i], shared(v))
				r.codes[i][v] = code
			}
			x.vals[i], x.codes[i] = r.dict[i][code], code
		}
		x.problemID = shared(x.problemID)
		for _, a := range als {
			if s, ok := a.(string); ok {
				x.aligners = append(x.aligners, shared(s))
			}
		}
		r.rows = append(r.rows, x)
	}
	r.byID = make(map[string]int32, len(r.rows))
	for j, x := range r.rows {
		r.byID[x.id] = int32(j)
	}
	return rows.Err()
}

// legacyMatcher is a filter compiled for the rows.
type legacyMatcher struct {
	f       Filter
	sets    [][]bool        // per facet (facets' order), by value code; nil: no filter
	aligner map[string]bool // the aligner facet's values (nil: no filter)
	search  map[string]bool // nil: no search
	metricK int             // the shown aligner's index (-1: none)
	// annotated are the traces of the filter's annotation layers (nil:
	// no such filter).
	annotated []map[string]bool
}

func (r *legacyDB) compile(f Filter, search map[string]bool) *legacyMatcher {
	m := &legacyMatcher{f: f, sets: make([][]bool, len(facetCols)), search: search, metricK: f.alignerIdx}
	for _, layer := range f.Annotated {
		m.annotated = append(m.annotated, r.annotated[layer]) // a layer nobody annotated: nil, no trace
	}
	for i, fc := range facets {
		vs := f.Values[fc.Param]
		if len(vs) == 0 {
			continue
		}
		if i >= len(facetCols) {
			m.aligner = map[string]bool{}
			for _, v := range vs {
				m.aligner[v] = true
			}
			continue
		}
		m.sets[i] = make([]bool, len(r.dict[i]))
		for _, v := range vs {
			if code, ok := r.codes[i][v]; ok {
				m.sets[i][code] = true
			}
		}
	}
	return m
}

// metricOf is a row's score of metric k (0 CAR, 1 PMF, 2 HAR) under the
// shown aligner (NaN: none).
func (m *legacyMatcher) metricOf(x *legacyRow, k int) float64 {
	if m.metricK < 0 {
		return math.NaN()
	}
	switch k {
	case 0:
		return x.car[m.metricK]
	case 1:
		return x.pmf[m.metricK]
	}
	return x.har[m.metricK]
}

// fails is the set of the filter's parts a row fails: bit i for facet i,
// bit len(facets)+k for metric k, and the last bit for the search and the
// problem (which no facet counts without).
func (m *legacyMatcher) fails(x *legacyRow) uint64 {
	var mask uint64
	for i, set := range m.sets {
		if set != nil && !set[x.codes[i]] {
			mask |= 1 << i
		}
	}
	if m.aligner != nil {
		ok := len(x.aligners) == 0 && m.aligner[notAligned]
		for _, a := range x.aligners {
			ok = ok || m.aligner[a]
		}
		if !ok {
			mask |= 1 << len(facetCols)
		}
	}
	for k, mt := range metrics {
		r, ok := m.f.Ranges[mt.Param]
		if !ok {
			continue
		}
		v := m.metricOf(x, k)
		// Closed-open, closed at 1; a trace without the score is out.
		if math.IsNaN(v) || (r.Min != nil && v < *r.Min) || (r.Max != nil && !(v < *r.Max || (v <= *r.Max && *r.Max >= 1))) {
			mask |= 1 << (len(facets) + k)
		}
	}
	for _, a := range m.f.AlignedBy {
		if !slices.Contains(x.aligners, a) {
			mask |= 1 << 63
		}
	}
	if m.annotated != nil {
		in := false
		for _, ids := range m.annotated {
			in = in || ids[x.id]
		}
		if !in {
			mask |= 1 << 63
		}
	}
	if (m.f.Problem != "" && x.problemID != m.f.Problem) || (m.search != nil && !m.search[x.id]) {
		mask |= 1 << 63
	}
	return mask
}

func (x *legacyRow) problem() string { return x.problemID }

// legacyResult is one pass over the rows: each facet's counts under the
// other parts of the filter, the rows that pass it all, the summary.
type legacyResult struct {
	counts  []map[string]int // per facet (filled from codes at the end)
	buckets [3][5]int        // per metric
	matched []int            // indexes into rows
}

func (r *legacyDB) query(f Filter, search map[string]bool) legacyResult {
	m := r.compile(f, search)
	res := legacyResult{counts: make([]map[string]int, len(facets))}
	for i := range res.counts {
		res.counts[i] = map[string]int{}
	}
	byCode := make([][]int, len(facetCols))
	for i := range byCode {
		byCode[i] = make([]int, len(r.dict[i]))
	}
	alignerFacet := len(facets) - 1
	count := func(i int, x *legacyRow) {
		if i == alignerFacet {
			if len(x.aligners) == 0 {
				res.counts[i][notAligned]++
			}
			for _, a := range x.aligners {
				res.counts[i][a]++
			}
			return
		}
		if i < len(facets) {
			byCode[i][x.codes[i]]++
			return
		}
		k := i - len(facets)
		if v := m.metricOf(x, k); !math.IsNaN(v) {
			res.buckets[k][bucket(v)]++
		}
	}
	for j := range r.rows {
		x := &r.rows[j]
		mask := m.fails(x)
		switch {
		case mask == 0:
			res.matched = append(res.matched, j)
			for i := range len(facets) + len(metrics) {
				count(i, x)
			}
		case mask&(mask-1) == 0 && mask != 1<<63:
			// Fails one facet only: it counts under that facet.
			i := 0
			for mask>>i != 1 {
				i++
			}
			count(i, x)
		}
	}
	for i, cs := range byCode {
		for code, n := range cs {
			if n > 0 {
				res.counts[i][r.dict[i][code]] = n
			}
		}
	}
	return res
}

// order sorts matched rows as the filter asks, by each row's rank in the
// order of every row (computed once per order and kept).
func (r *legacyDB) order(f Filter, matched []int) {
	rank := r.rank(f)
	slices.SortFunc(matched, func(i, j int) int { return cmp.Compare(rank[i], rank[j]) })
}

// rank is each row's place in the filter's order of all rows: its keys
// ascending (or all descending), a missing score last either way, then by
// trace id. An order's ranks are computed on its first use.
func (r *legacyDB) rank(f Filter) []int32 {
	name := fmt.Sprintf("%s/%v/%d", f.Sort, f.Desc, f.alignerIdx)
	r.mu.Lock()
	rank, ok := r.ranks[name]
	r.mu.Unlock()
	if ok {
		return rank
	}
	all := make([]int, len(r.rows))
	for i := range all {
		all[i] = i
	}
	r.sortRows(f, all)
	rank = make([]int32, len(r.rows))
	for pos, j := range all {
		rank[j] = int32(pos)
	}
	r.mu.Lock()
	r.ranks[name] = rank
	r.mu.Unlock()
	return rank
}

// sortRows sorts rows by the filter's order.
func (r *legacyDB) sortRows(f Filter, matched []int) {
	m := r.compile(f, nil)
	metric := map[string]int{"car": 0, "pmf": 1, "har": 2}
	col := func(name string) int { return slices.Index(facetCols[:], name) }
	type key func(a, b *legacyRow) int
	str := func(i int) key { return func(a, b *legacyRow) int { return strings.Compare(a.vals[i], b.vals[i]) } }
	var keys []key
	switch f.Sort {
	case "":
		keys = []key{str(0), func(a, b *legacyRow) int { return cmp.Compare(a.levelOrd, b.levelOrd) },
			func(a, b *legacyRow) int {
				return cmp.Or(cmp.Compare(a.problemK, b.problemK), strings.Compare(a.problem(), b.problem()))
			},
			func(a, b *legacyRow) int { return cmp.Compare(a.dirOrd, b.dirOrd) }, func(a, b *legacyRow) int { return cmp.Compare(a.langOrd, b.langOrd) },
			func(a, b *legacyRow) int { return cmp.Compare(a.seed, b.seed) }, str(col("method"))}
	case "id":
	case "model", "method":
		keys = []key{str(col(f.Sort))}
	case "level":
		keys = []key{func(a, b *legacyRow) int {
			return cmp.Or(cmp.Compare(a.levelOrd, b.levelOrd), strings.Compare(a.vals[1], b.vals[1]))
		}}
	case "problem":
		keys = []key{func(a, b *legacyRow) int {
			return cmp.Or(cmp.Compare(a.levelOrd, b.levelOrd), cmp.Compare(a.problemK, b.problemK), strings.Compare(a.problem(), b.problem()))
		}}
	case "direction":
		keys = []key{func(a, b *legacyRow) int {
			return cmp.Or(cmp.Compare(a.dirOrd, b.dirOrd), strings.Compare(a.vals[2], b.vals[2]))
		}}
	case "lang":
		keys = []key{func(a, b *legacyRow) int {
			return cmp.Or(cmp.Compare(a.langOrd, b.langOrd), strings.Compare(a.vals[3], b.vals[3]))
		}}
	case "seed":
		keys = []key{func(a, b *legacyRow) int { return cmp.Compare(a.seed, b.seed) }}
	case "tokens":
		keys = []key{func(a, b *legacyRow) int { return cmp.Compare(a.tokens, b.tokens) }}
	case "mv":
		keys = []key{str(col("verdict_mv"))}
	case "ml":
		keys = []key{str(col("verdict_ml"))}
	}
	sign := 1
	if f.Desc {
		sign = -1
	}
	k, isMetric := metric[f.Sort]
	slices.SortFunc(matched, func(i, j int) int {
		a, b := &r.rows[i], &r.rows[j]
		if isMetric {
			va, vb := m.metricOf(a, k), m.metricOf(b, k)
			switch na, nb := math.IsNaN(va), math.IsNaN(vb); {
			case na && !nb:
				return 1
			case nb && !na:
				return -1
			case !na && !nb:
				if c := cmp.Compare(va, vb); c != 0 {
					return sign * c
				}
			}
		}
		for _, key := range keys {
			if c := key(a, b); c != 0 {
				return sign * c
			}
		}
		return sign * strings.Compare(a.id, b.id)
	})
}

func legacySummarize(r *legacyDB, f Filter, res legacyResult) summary {
	s := summary{SearchQ: f.Q, N: len(res.matched)}
	mv, ml := slices.Index(facetCols[:], "verdict_mv"), slices.Index(facetCols[:], "verdict_ml")
	sums := make([][3]float64, len(r.aligners))
	pmfN := make([]int, len(r.aligners))
	s.ByAligner = make([]alignerSummary, len(r.aligners))
	for _, j := range res.matched {
		x := &r.rows[j]
		for g, col := range [2]int{mv, ml} {
			if graded[x.vals[col]] {
				s.Graded[g]++
				if x.vals[col] == "correct" {
					s.Correct[g]++
				}
			}
		}
		for k := range r.aligners {
			if math.IsNaN(x.car[k]) {
				continue
			}
			s.ByAligner[k].Scored++
			sums[k][0] += x.car[k]
			sums[k][2] += x.har[k]
			if !math.IsNaN(x.pmf[k]) {
				sums[k][1] += x.pmf[k]
				pmfN[k]++
			}
		}
	}
	for g := range 2 {
		if s.Graded[g] > 0 {
			s.HasAcc[g] = true
			s.Acc[g] = 100 * float64(s.Correct[g]) / float64(s.Graded[g])
			lo, hi := wilson(s.Correct[g], s.Graded[g])
			s.Low[g], s.High[g] = 100*lo, 100*hi
		}
	}
	for k, a := range r.aligners {
		as := &s.ByAligner[k]
		as.Aligner = a
		if as.Scored > 0 {
			as.CAR = sql.NullFloat64{Float64: sums[k][0] / float64(as.Scored), Valid: true}
			as.HAR = sql.NullFloat64{Float64: sums[k][2] / float64(as.Scored), Valid: true}
		}
		if pmfN[k] > 0 {
			as.PMF = sql.NullFloat64{Float64: sums[k][1] / float64(pmfN[k]), Valid: true}
		}
		if s.N > 0 {
			as.Coverage = 100 * float64(as.Scored) / float64(s.N)
		}
	}
	return s
}
func legacyRowsOf(r *legacyDB, f Filter, matched []int) []indexRow {
	m := r.compile(f, nil)
	lo := min(len(matched), (f.Page-1)*f.Per)
	hi := min(len(matched), lo+f.Per)
	out := make([]indexRow, 0, hi-lo)
	for _, j := range matched[lo:hi] {
		x := &r.rows[j]
		row := indexRow{ID: x.id, Href: f.Trace(x.id), Model: x.vals[0], Level: x.vals[1], Direction: x.vals[2], Lang: x.vals[3],
			Problem: x.problemID, Method: x.vals[6], Seed: x.seed, Tokens: x.tokens, Truncated: x.truncated,
			MV: x.vals[9], ML: x.vals[10], LD: x.vals[11], LG: x.vals[12]}
		for k, to := range []*sql.NullFloat64{&row.CAR, &row.PMF, &row.HAR} {
			if v := m.metricOf(x, k); !math.IsNaN(v) {
				*to = sql.NullFloat64{Float64: v, Valid: true}
			}
		}
		out = append(out, row)
	}
	return out
}

func legacyLoadAnnotated(ctx context.Context, r *legacyDB) error {
	r.annotated = map[string]map[string]bool{}
	if !r.db.Present["annotations"] {
		return nil
	}
	rows, err := r.db.QueryContext(ctx, `SELECT DISTINCT trace_id, layer FROM annotations`)
	if err != nil {
		return fmt.Errorf("reading the annotations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, layer string
		if err := rows.Scan(&id, &layer); err != nil {
			return fmt.Errorf("reading the annotations: %w", err)
		}
		j, ok := r.byID[id]
		if !ok {
			continue // an annotation of a trace no longer in the run
		}
		id = r.rows[j].id
		for _, k := range []string{layer, "any"} {
			if r.annotated[k] == nil {
				r.annotated[k] = map[string]bool{}
			}
			r.annotated[k][id] = true
		}
	}
	return rows.Err()
}
