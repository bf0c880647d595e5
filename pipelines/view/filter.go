package view

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"unicode/utf8"
)

// facet is a value of a trace the index counts and filters by (its
// column in facetCols, but the aligner's).
type facet struct {
	Param string // the URL's name for it
	Label string
}

// facets are the index's facets, in the order the page shows them.
var facets = []facet{
	{"model", "model"},
	{"level", "level"},
	{"direction", "direction"},
	{"lang", "language (x, or en for en-en)"},
	{"input", "input language"},
	{"reasoning", "reasoning language"},
	{"method", "method"},
	{"seed", "seed"},
	{"scope", "traces of"},
	{"mv", "verdict (math-verify)"},
	{"ml", "verdict (multilingual)"},
	{"ld", "compliance (langdetect)"},
	{"lg", "compliance (lingua)"},
	{"group", "resource group (en for en-en)"},
	{"aligner", "aligner"}, // a list per trace: idxRow.aligners
}

// notAligned is the aligner facet's value for a trace no aligner scored.
const notAligned = "-"

// metric is a score the index filters by range and sorts by: the shown
// aligner's best DAG's.
type metric struct{ Param, Label string }

var metrics = []metric{{"car", "CAR"}, {"pmf", "PMF"}, {"har", "HAR"}}

// sortKeys are the orders the index offers (runDB.order); each ends on
// the trace id, so pages never overlap.
var sortKeys = map[string]bool{"": true, "id": true, "model": true, "level": true, "problem": true, "direction": true,
	"lang": true, "seed": true, "method": true, "tokens": true, "mv": true, "ml": true, "car": true, "pmf": true, "har": true}

// Limits of what a URL may ask: beyond them the request is refused (400).
const (
	maxValueBytes = 1000
	maxValues     = 200
	maxPer        = 500
	defaultPer    = 50
)

// rangeOf is a closed-open range of a metric (closed at 1).
type rangeOf struct{ Min, Max *float64 }

// holds says whether score v is in the range (a trace without the score,
// NaN, is in none).
func (r rangeOf) holds(v float64) bool {
	return !math.IsNaN(v) && (r.Min == nil || v >= *r.Min) && (r.Max == nil || v < *r.Max || (v <= *r.Max && *r.Max >= 1))
}

// Filter is a state of the index: what it shows, in what order, which
// page. It is read from a URL and written back to one (Query), so every
// state can be shared.
type Filter struct {
	Values  map[string][]string // facet param -> values (any of them)
	Ranges  map[string]rangeOf  // metric param -> range
	Q       string              // text the trace holds
	Problem string              // one problem's traces
	Sort    string
	Desc    bool
	Page    int // from 1
	Per     int
	// Aligner is whose scores the range filters, the sort and the rows
	// read: the first aligner value selected, else the run's first by name;
	// alignerIdx its place among the run's aligners (-1: none).
	Aligner    string
	alignerIdx int
	// AlignedBy keeps the traces every one of these aligners scored
	// (aligned_by=, each value required: the rows of a pair of aligners).
	AlignedBy []string
	// Annotated keeps the traces with human annotations (datg import
	// --annotations) in any of these layers ("any": in any layer).
	Annotated []string
}

// queryOf is a request's query parameters; a query Go cannot parse (a
// semicolon, a bad escape) is refused rather than read in part.
func queryOf(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadParam, err)
	}
	return q, nil
}

// parseFilter reads a filter from a URL's query; a value it cannot read
// is an error naming the parameter (the page answers 400).
func parseFilter(q url.Values) (Filter, error) {
	f := Filter{Values: map[string][]string{}, Ranges: map[string]rangeOf{}, Page: 1, Per: defaultPer}
	for name, vs := range q {
		if len(vs) > maxValues {
			return f, fmt.Errorf("%w %s: %d values (at most %d)", ErrBadParam, name, len(vs), maxValues)
		}
		for _, v := range vs {
			if len(v) > maxValueBytes || !utf8.ValidString(v) {
				return f, fmt.Errorf("%w %s: longer than %d bytes or not UTF-8", ErrBadParam, name, maxValueBytes)
			}
		}
	}
	for _, fc := range facets {
		for _, v := range q[fc.Param] {
			if !slices.Contains(f.Values[fc.Param], v) {
				f.Values[fc.Param] = append(f.Values[fc.Param], v)
			}
		}
	}
	for _, m := range metrics {
		var r rangeOf
		for _, end := range []struct {
			name string
			to   **float64
		}{{m.Param + "_min", &r.Min}, {m.Param + "_max", &r.Max}} {
			s := q.Get(end.name)
			if s == "" {
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return f, fmt.Errorf("%w %s: %q is not a number", ErrBadParam, end.name, s)
			}
			*end.to = &x
		}
		if r.Min != nil || r.Max != nil {
			f.Ranges[m.Param] = r
		}
	}
	for _, v := range q["aligned_by"] {
		if !slices.Contains(f.AlignedBy, v) {
			f.AlignedBy = append(f.AlignedBy, v)
		}
	}
	for _, v := range q["annotated"] {
		if !slices.Contains(f.Annotated, v) {
			f.Annotated = append(f.Annotated, v)
		}
	}
	f.Q, f.Problem = q.Get("q"), q.Get("problem")
	f.Sort = q.Get("sort")
	if !sortKeys[f.Sort] {
		return f, fmt.Errorf("%w sort: %q is not one of the sort keys", ErrBadParam, f.Sort)
	}
	f.Desc = q.Get("desc") == "1"
	for _, p := range []struct {
		name     string
		to       *int
		min, max int
	}{{"page", &f.Page, 1, math.MaxInt32}, {"per", &f.Per, 1, maxPer}} {
		s := q.Get(p.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < p.min || n > p.max {
			return f, fmt.Errorf("%w %s: %q is not a whole number from %d to %d", ErrBadParam, p.name, s, p.min, p.max)
		}
		*p.to = n
	}
	return f, nil
}

// withAligner fills in the shown aligner from the run's.
func (f Filter) withAligner(aligners []string) Filter {
	f.Aligner = ""
	for _, a := range f.Values["aligner"] {
		if a != notAligned {
			f.Aligner = a
			break
		}
	}
	if f.Aligner == "" && len(aligners) > 0 {
		f.Aligner = aligners[0]
	}
	f.alignerIdx = slices.Index(aligners, f.Aligner)
	return f
}

// Query is the filter as URL parameters (the default page and order left
// out), in a fixed order so equal states have equal URLs.
func (f Filter) Query() url.Values {
	q := url.Values{}
	for _, fc := range facets {
		for _, v := range f.Values[fc.Param] {
			q.Add(fc.Param, v)
		}
	}
	for _, m := range metrics {
		r := f.Ranges[m.Param]
		if r.Min != nil {
			q.Set(m.Param+"_min", strconv.FormatFloat(*r.Min, 'g', -1, 64))
		}
		if r.Max != nil {
			q.Set(m.Param+"_max", strconv.FormatFloat(*r.Max, 'g', -1, 64))
		}
	}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	for _, a := range f.AlignedBy {
		q.Add("aligned_by", a)
	}
	for _, a := range f.Annotated {
		q.Add("annotated", a)
	}
	set("q", f.Q)
	set("problem", f.Problem)
	set("sort", f.Sort)
	if f.Desc {
		q.Set("desc", "1")
	}
	if f.Page > 1 {
		q.Set("page", strconv.Itoa(f.Page))
	}
	if f.Per != defaultPer && f.Per > 0 {
		q.Set("per", strconv.Itoa(f.Per))
	}
	return q
}

// URL is path with the filter's query.
func (f Filter) URL(path string) string {
	if s := f.Query().Encode(); s != "" {
		return path + "?" + s
	}
	return path
}

// clone copies the filter's maps, so a link's change leaves f as it is.
func (f Filter) clone() Filter {
	g := f
	g.Values = make(map[string][]string, len(f.Values))
	for k, v := range f.Values {
		g.Values[k] = slices.Clone(v)
	}
	g.Ranges = make(map[string]rangeOf, len(f.Ranges))
	for k, v := range f.Ranges {
		g.Ranges[k] = v
	}
	return g
}

// Toggle is the index with value added to (or taken from) the facet's
// values, from page 1.
func (f Filter) Toggle(param, value string) string {
	g := f.clone()
	vs := g.Values[param]
	if i := slices.Index(vs, value); i >= 0 {
		g.Values[param] = slices.Delete(vs, i, i+1)
	} else {
		g.Values[param] = append(vs, value)
	}
	g.Page = 1
	return g.URL("/")
}

// Selected says whether value is one of the facet's values.
func (f Filter) Selected(param, value string) bool { return slices.Contains(f.Values[param], value) }

// WithRange is the index with the metric limited to [lo, hi).
func (f Filter) WithRange(param string, lo, hi float64) string {
	g := f.clone()
	g.Ranges[param] = rangeOf{&lo, &hi}
	g.Page = 1
	return g.URL("/")
}

// WithoutRange is the index without the metric's range.
func (f Filter) WithoutRange(param string) string {
	g := f.clone()
	delete(g.Ranges, param)
	g.Page = 1
	return g.URL("/")
}

// SortBy is the index sorted by key, descending when it already is
// ascending by it.
func (f Filter) SortBy(key string) string {
	g := f.clone()
	g.Desc = g.Sort == key && !g.Desc
	g.Sort, g.Page = key, 1
	return g.URL("/")
}

// AtPage is the index at page n.
func (f Filter) AtPage(n int) string {
	g := f.clone()
	g.Page = n
	return g.URL("/")
}

// Trace is a trace's page, keeping the filter (for previous and next).
func (f Filter) Trace(id string) string {
	g := f.clone()
	g.Page = 0
	q := g.Query()
	q.Set("id", id)
	return "/trace?" + q.Encode()
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// param is one URL parameter, for a form's hidden inputs.
type param struct{ Name, Value string }

// Hidden are the filter's parameters but the search text and the page:
// the search form keeps the rest of the state.
func (f Filter) Hidden() []param {
	q := f.Query()
	var out []param
	for _, fc := range facets {
		for _, v := range q[fc.Param] {
			out = append(out, param{fc.Param, v})
		}
	}
	for _, a := range f.AlignedBy {
		out = append(out, param{"aligned_by", a})
	}
	for _, a := range f.Annotated {
		out = append(out, param{"annotated", a})
	}
	for _, k := range []string{"car_min", "car_max", "pmf_min", "pmf_max", "har_min", "har_max", "problem", "sort", "desc", "per"} {
		if v := q.Get(k); v != "" {
			out = append(out, param{k, v})
		}
	}
	return out
}
