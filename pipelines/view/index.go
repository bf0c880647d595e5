package view

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
)

// indexPage is the index's data.
type indexPage struct {
	F        Filter
	Aligners []string
	Facets   []facetCounts
	Ranges   []rangeCounts
	Summary  summary
	Rows     []indexRow
	Total    int
	Pages    int
	Sorts    []sortLink
	// SearchBuilding says a search read every text: the search index is
	// being built.
	SearchBuilding bool
	// NoTraces says the run holds no trace at all (not: none matches the
	// filter), so the page says which command adds them.
	NoTraces bool
}

type facetCounts struct {
	facet
	Values []valueCount
}

type valueCount struct {
	Value, Label string
	N            int
	Selected     bool
	Href         string
}

// rangeCounts are a metric's traces in fifths of [0, 1].
type rangeCounts struct {
	metric
	Set     bool   // the filter has a range on it
	Clear   string // the index without it
	Buckets []valueCount
}

type summary struct {
	N               int
	Graded, Correct [2]int // math-verify, multilingual
	Acc, Low, High  [2]float64
	HasAcc          [2]bool
	ByAligner       []alignerSummary
	SearchQ         string
}

type alignerSummary struct {
	Aligner       string
	Scored        int
	Coverage      float64
	CAR, PMF, HAR sql.NullFloat64
}

type indexRow struct {
	ID, Href                                                       string
	Model, Level, Direction, Lang, Problem, Method, MV, ML, LD, LG string
	Seed, Tokens                                                   int64
	Truncated                                                      bool
	CAR, PMF, HAR                                                  sql.NullFloat64
}

type sortLink struct {
	Key, Label, Href string
	Active, Desc     bool
}

// graders are the verdict facets, in the summary's order.
var graderFacets = [2]string{"mv", "ml"}

// valueLabels are how the page names some values.
var valueLabels = map[string]string{notAligned: "(not aligned)", "": "(none)"}

func (s *Server) index(ctx context.Context, r *runDB, req *http.Request, info *pageInfo) (string, any, error) {
	q, err := queryOf(req.URL.RawQuery)
	if err != nil {
		return "", nil, err
	}
	f, err := parseFilter(q)
	if err != nil {
		return "", nil, err
	}
	f = f.withAligner(r.aligners)
	var search bitmap
	if f.Q != "" {
		if search, err = r.searchRows(ctx, f.Q); err != nil {
			return "", nil, err
		}
	}
	res := r.query(f, search)
	p := &indexPage{F: f, Aligners: r.aligners, SearchBuilding: f.Q != "" && r.indexing.Load() == "building",
		NoTraces: r.rows.N == 0}
	p.Facets, p.Ranges = facetsOf(f, res)
	p.Summary = summarize(r, f, res)
	p.Total = len(res.matched)
	p.Pages = max(1, (p.Total+f.Per-1)/f.Per)
	r.order(f, res.matched)
	r.keepOrdered(f, search, res.matched)
	p.Rows = rowsOf(r, f, res.matched)
	for _, k := range []struct{ key, label string }{{"", "default"}, {"id", "trace"}, {"model", "model"}, {"level", "level"},
		{"problem", "problem"}, {"direction", "direction"}, {"lang", "language"}, {"seed", "seed"}, {"method", "method"},
		{"tokens", "tokens"}, {"mv", "math-verify"}, {"ml", "multilingual"}, {"car", "CAR"}, {"pmf", "PMF"}, {"har", "HAR"}} {
		p.Sorts = append(p.Sorts, sortLink{Key: k.key, Label: k.label, Href: f.SortBy(k.key), Active: f.Sort == k.key, Desc: f.Desc})
	}
	info.Title = fmt.Sprintf("%d traces", p.Total)
	return "index", p, nil
}

// facetsOf are the facets' values with their counts (each under the
// other parts of the filter, so a facet's other values stay in sight),
// and the metrics' fifths.
func facetsOf(f Filter, res indexResult) ([]facetCounts, []rangeCounts) {
	var out []facetCounts
	for i, fc := range facets {
		c := facetCounts{facet: fc}
		for v, n := range res.counts[i] {
			c.Values = append(c.Values, valueCount{Value: v, N: n})
		}
		// A selected value with no trace under the other facets still shows
		// (with 0), so it can be taken off.
		for _, v := range f.Values[fc.Param] {
			if _, ok := res.counts[i][v]; !ok {
				c.Values = append(c.Values, valueCount{Value: v})
			}
		}
		slices.SortFunc(c.Values, func(x, y valueCount) int { return strings.Compare(x.Value, y.Value) })
		for i := range c.Values {
			v := &c.Values[i]
			v.Label = v.Value
			if l, ok := valueLabels[v.Value]; ok {
				v.Label = l
			}
			v.Selected = f.Selected(fc.Param, v.Value)
			v.Href = f.Toggle(fc.Param, v.Value)
		}
		out = append(out, c)
	}
	var ranges []rangeCounts
	for k, m := range metrics {
		rc := rangeCounts{metric: m, Clear: f.WithoutRange(m.Param)}
		_, rc.Set = f.Ranges[m.Param]
		for b := range 5 {
			lo, hi := float64(b)/5, float64(b+1)/5
			rc.Buckets = append(rc.Buckets, valueCount{Label: fmt.Sprintf("%.1f–%.1f", lo, hi), N: res.buckets[k][b], Href: f.WithRange(m.Param, lo, hi)})
		}
		ranges = append(ranges, rc)
	}
	return out, ranges
}

// graded are the verdicts accuracy is over: a stale or missing verdict
// is not a grade.
var graded = map[string]bool{"correct": true, "incorrect": true, "no-answer": true, "gold-unparsed": true}

// summarize is the filter's n, accuracy under each grader with its 95%
// Wilson interval (over graded traces: correct, incorrect, no answer and
// gold-unparsed), and per aligner the mean scores of its best DAGs and
// its coverage (scored / n).
func summarize(r *runDB, f Filter, res indexResult) summary {
	s := summary{SearchQ: f.Q, N: len(res.matched)}
	mv, ml := slices.Index(facetCols[:], "verdict_mv"), slices.Index(facetCols[:], "verdict_ml")
	sums := make([][3]float64, len(r.aligners))
	pmfN := make([]int, len(r.aligners))
	s.ByAligner = make([]alignerSummary, len(r.aligners))
	rf := r.rows
	for _, j := range res.matched {
		for g, col := range [2]int{mv, ml} {
			if v := rf.val(col, j); graded[v] {
				s.Graded[g]++
				if v == "correct" {
					s.Correct[g]++
				}
			}
		}
		for k := range r.aligners {
			car := rf.score(0, k, j)
			if math.IsNaN(car) {
				continue
			}
			s.ByAligner[k].Scored++
			sums[k][0] += car
			sums[k][2] += rf.score(2, k, j)
			if pmf := rf.score(1, k, j); !math.IsNaN(pmf) {
				sums[k][1] += pmf
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

// wilson is the 95% Wilson score interval of k successes in n, computed as
// sql/macros/wilson.sql computes it for the tables (TestWilsonIsTheMacro).
func wilson(k, n int) (float64, float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	centre, den := p+z*z/(2*nf), 1+z*z/nf
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, (centre-half)/den), min(1, (centre+half)/den)
}

// rowsOf is the filter's page of the ordered rows.
func rowsOf(r *runDB, f Filter, matched []int) []indexRow {
	m := r.compile(f, nil)
	lo := min(len(matched), (f.Page-1)*f.Per)
	hi := min(len(matched), lo+f.Per)
	out := make([]indexRow, 0, hi-lo)
	rf := r.rows
	for _, j := range matched[lo:hi] {
		id := rf.id(j)
		row := indexRow{ID: id, Href: f.Trace(id), Model: rf.val(0, j), Level: rf.val(1, j), Direction: rf.val(2, j), Lang: rf.val(3, j),
			Problem: rf.problemOf(j), Method: rf.val(6, j), Seed: rf.seedOf(j), Tokens: rf.tokensOf(j), Truncated: rf.truncatedOf(j),
			MV: rf.val(9, j), ML: rf.val(10, j), LD: rf.val(11, j), LG: rf.val(12, j)}
		for k, to := range []*sql.NullFloat64{&row.CAR, &row.PMF, &row.HAR} {
			if v := m.metricOf(j, k); !math.IsNaN(v) {
				*to = sql.NullFloat64{Float64: v, Valid: true}
			}
		}
		out = append(out, row)
	}
	return out
}
