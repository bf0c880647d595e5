package view

import (
	"context"
	"database/sql"
	"fmt"
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
	search := ""
	if f.Q != "" {
		if search, err = r.searchTable(ctx, f.Q); err != nil {
			return "", nil, err
		}
	}
	p := &indexPage{F: f, Aligners: r.aligners}
	if p.Facets, p.Ranges, err = facetsOf(ctx, r, f, search); err != nil {
		return "", nil, err
	}
	if p.Summary, err = summarize(ctx, r, f, search); err != nil {
		return "", nil, err
	}
	p.Total = p.Summary.N
	p.Pages = max(1, (p.Total+f.Per-1)/f.Per)
	if p.Rows, err = rowsOf(ctx, r, f, search); err != nil {
		return "", nil, err
	}
	for _, k := range []struct{ key, label string }{{"", "default"}, {"id", "trace"}, {"model", "model"}, {"level", "level"},
		{"problem", "problem"}, {"direction", "direction"}, {"lang", "language"}, {"seed", "seed"}, {"method", "method"},
		{"tokens", "tokens"}, {"mv", "math-verify"}, {"ml", "multilingual"}, {"car", "CAR"}, {"pmf", "PMF"}, {"har", "HAR"}} {
		p.Sorts = append(p.Sorts, sortLink{Key: k.key, Label: k.label, Href: f.SortBy(k.key), Active: f.Sort == k.key, Desc: f.Desc})
	}
	info.Title = fmt.Sprintf("%d traces", p.Total)
	return "index", p, nil
}

// facetsOf counts each facet's values under the other facets' filters:
// every facet without a selection from one grouping of the filtered rows
// (GROUPING SETS, one pass), each facet with a selection from its own
// query without it, so its other values stay in sight.
func facetsOf(ctx context.Context, r *runDB, f Filter, search string) ([]facetCounts, []rangeCounts, error) {
	counts := map[string][]valueCount{}
	bucket := func(col string) string {
		return fmt.Sprintf(`CASE WHEN %[1]s IS NULL THEN NULL WHEN %[1]s < 0.2 THEN '0' WHEN %[1]s < 0.4 THEN '1' WHEN %[1]s < 0.6 THEN '2' WHEN %[1]s < 0.8 THEN '3' ELSE '4' END`, col)
	}
	// name -> the expression grouped by.
	type group struct{ name, expr string }
	var plain []group
	var own []group
	for _, fc := range facets {
		if fc.Param == "aligner" {
			continue
		}
		g := group{fc.Param, "CAST(" + fc.column + " AS VARCHAR)"}
		if len(f.Values[fc.Param]) > 0 {
			own = append(own, g)
		} else {
			plain = append(plain, g)
		}
	}
	for _, m := range metrics {
		g := group{m.Param, bucket(m.column)}
		if _, ok := f.Ranges[m.Param]; ok {
			own = append(own, g)
		} else {
			plain = append(plain, g)
		}
	}
	scan := func(q string, args []any, names []string) error {
		rows, err := r.db.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("counting the facets: %w", err)
		}
		defer rows.Close()
		vals := make([]sql.NullString, len(names))
		dest := make([]any, len(names)+1)
		for i := range vals {
			dest[i] = &vals[i]
		}
		var n int
		dest[len(names)] = &n
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			// In a grouping set, the other columns are NULL; a facet's own
			// NULL (a metric's missing score) is left out.
			for i, v := range vals {
				if v.Valid {
					counts[names[i]] = append(counts[names[i]], valueCount{Value: v.String, N: n})
				}
			}
		}
		return rows.Err()
	}
	if len(plain) > 0 {
		w, a := f.where("", search)
		var cols, sets, names []string
		for _, g := range plain {
			// Aliases of their own: a facet's name may be a column's.
			cols = append(cols, g.expr+" AS facet_"+g.name)
			sets = append(sets, "(facet_"+g.name+")")
			names = append(names, g.name)
		}
		q := fmt.Sprintf(`SELECT %s, count(*) FROM %s WHERE %s GROUP BY GROUPING SETS (%s)`,
			strings.Join(cols, ", "), from, w, strings.Join(sets, ", "))
		if err := scan(q, append([]any{f.Aligner}, a...), names); err != nil {
			return nil, nil, err
		}
	}
	for _, g := range own {
		w, a := f.where(g.name, search)
		q := fmt.Sprintf(`SELECT %s, count(*) FROM %s WHERE %s GROUP BY 1`, g.expr, from, w)
		if err := scan(q, append([]any{f.Aligner}, a...), []string{g.name}); err != nil {
			return nil, nil, err
		}
	}
	// A trace counts under each aligner that scored it.
	w, a := f.where("aligner", search)
	q := fmt.Sprintf(`SELECT al, count(*) FROM (SELECT *, unnest(CASE WHEN len(aligners) = 0 THEN ['%s'] ELSE aligners END) AS al FROM view_traces) t
		LEFT JOIN view_best b ON b.trace_id = t.trace_id AND b.aligner = ? WHERE %s GROUP BY 1`, notAligned, w)
	if err := scan(q, append([]any{f.Aligner}, a...), []string{"aligner"}); err != nil {
		return nil, nil, err
	}
	for _, vs := range counts {
		slices.SortFunc(vs, func(x, y valueCount) int { return strings.Compare(x.Value, y.Value) })
	}
	var out []facetCounts
	for _, fc := range facets {
		c := facetCounts{facet: fc}
		seen := map[string]bool{}
		for _, v := range counts[fc.Param] {
			seen[v.Value] = true
			c.Values = append(c.Values, v)
		}
		// A selected value with no trace under the other facets still shows
		// (with 0), so it can be taken off.
		for _, v := range f.Values[fc.Param] {
			if !seen[v] {
				c.Values = append(c.Values, valueCount{Value: v})
			}
		}
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
	for _, m := range metrics {
		rc := rangeCounts{metric: m, Clear: f.WithoutRange(m.Param)}
		_, rc.Set = f.Ranges[m.Param]
		byBucket := map[string]int{}
		for _, v := range counts[m.Param] {
			byBucket[v.Value] = v.N
		}
		for k := range 5 {
			lo, hi := float64(k)/5, float64(k+1)/5
			label := fmt.Sprintf("%.1f–%.1f", lo, hi)
			rc.Buckets = append(rc.Buckets, valueCount{Label: label, N: byBucket[fmt.Sprint(k)], Href: f.WithRange(m.Param, lo, hi)})
		}
		ranges = append(ranges, rc)
	}
	return out, ranges, nil
}

// summarize is the filter's n, accuracy under each grader with its 95%
// Wilson interval (over graded traces: correct, incorrect, no answer and
// gold-unparsed; stale and ungraded ones left out), and per aligner the
// mean scores of its best DAGs and its coverage.
func summarize(ctx context.Context, r *runDB, f Filter, search string) (summary, error) {
	var s summary
	s.SearchQ = f.Q
	w, a := f.where("", search)
	graded := "IN ('correct', 'incorrect', 'no-answer', 'gold-unparsed')"
	// The interval is sql/macros/wilson.sql's, as in the tables.
	q := fmt.Sprintf(`WITH c AS (SELECT count(*) AS n,
		count(*) FILTER (WHERE t.verdict_mv %[1]s) AS g0, count(*) FILTER (WHERE t.verdict_mv = 'correct') AS k0,
		count(*) FILTER (WHERE t.verdict_ml %[1]s) AS g1, count(*) FILTER (WHERE t.verdict_ml = 'correct') AS k1
		FROM %s WHERE %s)
		SELECT n, g0, k0, g1, k1, coalesce(wilson_low(k0, g0), 0), coalesce(wilson_high(k0, g0), 0),
			coalesce(wilson_low(k1, g1), 0), coalesce(wilson_high(k1, g1), 0) FROM c`, graded, from, w)
	err := r.db.QueryRowContext(ctx, q, append([]any{f.Aligner}, a...)...).Scan(&s.N, &s.Graded[0], &s.Correct[0], &s.Graded[1], &s.Correct[1],
		&s.Low[0], &s.High[0], &s.Low[1], &s.High[1])
	if err != nil {
		return s, fmt.Errorf("summarizing: %w", err)
	}
	for i := range 2 {
		if s.Graded[i] > 0 {
			s.HasAcc[i] = true
			s.Acc[i] = 100 * float64(s.Correct[i]) / float64(s.Graded[i])
			s.Low[i], s.High[i] = 100*s.Low[i], 100*s.High[i]
		}
	}
	rows, err := r.db.QueryContext(ctx, fmt.Sprintf(`SELECT s.aligner, count(*), avg(s.car), avg(s.pmf), avg(s.har)
		FROM %s JOIN view_best s ON s.trace_id = t.trace_id WHERE %s GROUP BY 1 ORDER BY 1`, from, w), append([]any{f.Aligner}, a...)...)
	if err != nil {
		return s, fmt.Errorf("summarizing the scores: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var as alignerSummary
		if err := rows.Scan(&as.Aligner, &as.Scored, &as.CAR, &as.PMF, &as.HAR); err != nil {
			return s, err
		}
		if s.N > 0 {
			as.Coverage = 100 * float64(as.Scored) / float64(s.N)
		}
		s.ByAligner = append(s.ByAligner, as)
	}
	return s, rows.Err()
}

// rowsOf is the filter's page of traces.
func rowsOf(ctx context.Context, r *runDB, f Filter, search string) ([]indexRow, error) {
	w, a := f.where("", search)
	q := fmt.Sprintf(`SELECT t.trace_id, t.model, t.level, t.direction, t.lang, t.problem_id, t.method, t.seed, t.tokens, t.truncated,
		t.verdict_mv, t.verdict_ml, t.comp_ld, t.comp_lg, b.car, b.pmf, b.har
		FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?`, from, w, f.orderBy())
	args := append(append([]any{f.Aligner}, a...), f.Per, int64(f.Page-1)*int64(f.Per))
	rows, err := r.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing the traces: %w", err)
	}
	defer rows.Close()
	var out []indexRow
	for rows.Next() {
		var x indexRow
		if err := rows.Scan(&x.ID, &x.Model, &x.Level, &x.Direction, &x.Lang, &x.Problem, &x.Method, &x.Seed, &x.Tokens, &x.Truncated,
			&x.MV, &x.ML, &x.LD, &x.LG, &x.CAR, &x.PMF, &x.HAR); err != nil {
			return nil, err
		}
		x.Href = f.Trace(x.ID)
		out = append(out, x)
	}
	return out, rows.Err()
}
