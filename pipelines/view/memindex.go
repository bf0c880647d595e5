package view

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The index's facets, counts, summary, order and pages are computed in Go
// over one row per trace (idxRow), loaded from view_traces when a
// generation opens: a filter change is a pass over tens of thousands of
// small structs (milliseconds), where each DuckDB query has a fixed cost
// of its own. The rows hold no text (a few hundred bytes a trace, their
// strings shared); texts, DAGs and alignments stay in the run's Parquet.

// idxRow is a trace as the index filters, counts and sorts it.
type idxRow struct {
	id, problemID             string
	vals                      [len(facetCols)]string // the facets' values, in facetCols' order
	levelOrd, dirOrd, langOrd int
	problemK, seed, tokens    int64
	truncated                 bool
	aligners                  []string
	car, pmf, har             []float64 // per aligner of the run (NaN: not scored)
}

// facetCols are view_traces' columns of the facets, in facets' order
// (the aligner facet, a list, is idxRow.aligners).
var facetCols = [...]string{"model", "level", "direction", "lang", "input_lang", "reasoning_lang", "method", "seed_s", "scope",
	"verdict_mv", "verdict_ml", "comp_ld", "comp_lg"}

// loadIndex reads view_traces into rows.
func loadIndex(ctx context.Context, r *runDB) error {
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
	shared := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		intern[s] = s
		return s
	}
	for rows.Next() {
		var x idxRow
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
		for i := range x.vals {
			x.vals[i] = shared(x.vals[i])
		}
		x.problemID = shared(x.problemID)
		for _, a := range als {
			if s, ok := a.(string); ok {
				x.aligners = append(x.aligners, shared(s))
			}
		}
		r.rows = append(r.rows, x)
	}
	return rows.Err()
}

// matcher is a filter compiled for the rows.
type matcher struct {
	f       Filter
	sets    []map[string]bool // per facet (facets' order); nil: no filter
	search  map[string]bool   // nil: no search
	metricK int               // the shown aligner's index (-1: none)
}

func compile(f Filter, search map[string]bool) *matcher {
	m := &matcher{f: f, sets: make([]map[string]bool, len(facets)), search: search, metricK: f.alignerIdx}
	for i, fc := range facets {
		if vs := f.Values[fc.Param]; len(vs) > 0 {
			m.sets[i] = map[string]bool{}
			for _, v := range vs {
				m.sets[i][v] = true
			}
		}
	}
	return m
}

// metricOf is a row's score of metric k (0 CAR, 1 PMF, 2 HAR) under the
// shown aligner (NaN: none).
func (m *matcher) metricOf(x *idxRow, k int) float64 {
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
func (m *matcher) fails(x *idxRow) uint64 {
	var mask uint64
	for i, set := range m.sets {
		if set == nil {
			continue
		}
		if i < len(x.vals) {
			if !set[x.vals[i]] {
				mask |= 1 << i
			}
			continue
		}
		// The aligner facet.
		ok := len(x.aligners) == 0 && set[notAligned]
		for _, a := range x.aligners {
			ok = ok || set[a]
		}
		if !ok {
			mask |= 1 << i
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
	if (m.f.Problem != "" && x.problemID != m.f.Problem) || (m.search != nil && !m.search[x.id]) {
		mask |= 1 << 63
	}
	return mask
}

func (x *idxRow) problem() string { return x.problemID }

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
	counts  []map[string]int // per facet
	buckets [3][5]int        // per metric
	matched []int            // indexes into rows
}

func (r *runDB) query(f Filter, search map[string]bool) indexResult {
	m := compile(f, search)
	res := indexResult{counts: make([]map[string]int, len(facets))}
	for i := range res.counts {
		res.counts[i] = map[string]int{}
	}
	alignerFacet := len(facets) - 1
	count := func(i int, x *idxRow) {
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
			res.counts[i][x.vals[i]]++
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
	return res
}

// order sorts matched rows as the filter asks: its keys ascending (or all
// descending), a missing score last either way, then by trace id.
func (r *runDB) order(f Filter, matched []int) {
	m := compile(f, nil)
	metric := map[string]int{"car": 0, "pmf": 1, "har": 2}
	col := func(name string) int { return slices.Index(facetCols[:], name) }
	type key func(a, b *idxRow) int
	str := func(i int) key { return func(a, b *idxRow) int { return strings.Compare(a.vals[i], b.vals[i]) } }
	var keys []key
	switch f.Sort {
	case "":
		keys = []key{str(0), func(a, b *idxRow) int { return cmp.Compare(a.levelOrd, b.levelOrd) },
			func(a, b *idxRow) int {
				return cmp.Or(cmp.Compare(a.problemK, b.problemK), strings.Compare(a.problem(), b.problem()))
			},
			func(a, b *idxRow) int { return cmp.Compare(a.dirOrd, b.dirOrd) }, func(a, b *idxRow) int { return cmp.Compare(a.langOrd, b.langOrd) },
			func(a, b *idxRow) int { return cmp.Compare(a.seed, b.seed) }, str(col("method"))}
	case "id":
	case "model", "method":
		keys = []key{str(col(f.Sort))}
	case "level":
		keys = []key{func(a, b *idxRow) int {
			return cmp.Or(cmp.Compare(a.levelOrd, b.levelOrd), strings.Compare(a.vals[1], b.vals[1]))
		}}
	case "problem":
		keys = []key{func(a, b *idxRow) int {
			return cmp.Or(cmp.Compare(a.levelOrd, b.levelOrd), cmp.Compare(a.problemK, b.problemK), strings.Compare(a.problem(), b.problem()))
		}}
	case "direction":
		keys = []key{func(a, b *idxRow) int {
			return cmp.Or(cmp.Compare(a.dirOrd, b.dirOrd), strings.Compare(a.vals[2], b.vals[2]))
		}}
	case "lang":
		keys = []key{func(a, b *idxRow) int {
			return cmp.Or(cmp.Compare(a.langOrd, b.langOrd), strings.Compare(a.vals[3], b.vals[3]))
		}}
	case "seed":
		keys = []key{func(a, b *idxRow) int { return cmp.Compare(a.seed, b.seed) }}
	case "tokens":
		keys = []key{func(a, b *idxRow) int { return cmp.Compare(a.tokens, b.tokens) }}
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
