package view

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/pipelines/tables"
	datgsql "github.com/datg/datg/sql"
)

// tablesPage is every paper table, as sql/tables computes it for datg
// tables, with each row (a cell of the paper's table: the queries are
// tidy) linked to the index of the traces behind it; or, while they are
// being computed, how far along that is.
type tablesPage struct {
	Tables []tableView
	Busy   *tablesProgress // the tables are not ready yet (Tables is empty)
	// ProbeNote says why the probe tables have no rows (probenote.go):
	// the run's base traces are at other seeds than the probe's.
	ProbeNote string
	// renders are the ready page rendered (a generation's tables do not
	// change): 3.2 MB of HTML on the demo, rendered once, not per load.
	renders renderedPages
}

// renderings makes a ready page prerendered; a page of progress (nil) is
// rendered at each load (it changes).
func (p *tablesPage) renderings() *renderedPages {
	if p.Busy != nil {
		return nil
	}
	return &p.renders
}

// tablesProgress is how far the computation of a generation's tables is.
type tablesProgress struct {
	Done, Total int
	// Stopped says a newer generation replaced this one: the next page
	// reads it.
	Stopped bool
}

type tableView struct {
	Name string
	Err  string // the query failed: why (the other tables still show)
	// Stale says why datg tables refuses the table (its inputs are stale
	// over the traces it reads): the page refuses it too, showing no
	// numbers.
	Stale []string
	// Missing are the inputs the run lacks: datg tables skips the table,
	// and the page shows none of it; MissingRun is what makes them.
	Missing    []string
	MissingRun string
	// Empty says why the table has no rows, when that is known (its
	// probe has no traces at the seed the viewer reads).
	Empty   string
	Columns []string
	Rows    []tableRow
}

type tableRow struct {
	Cells []string
	Href  string // the index of the row's traces ("": no filter of the index says them)
}

// tableResult is one table as its query answered, before the page links
// its rows: what the cache keeps (tablescache.go).
type tableResult struct {
	Name       string
	Err        string
	Stale      []string
	Missing    []string
	MissingRun string
	Empty      string // why it has no rows (probeNote)
	Columns    []string
	Rows       [][]tableCell
}

// tableCell is one value of a table as text; Null tells SQL's NULL from
// an empty string (a NULL key does not filter the row's link).
type tableCell struct {
	Text string
	Null bool
}

// tablesRefresh is how often, in seconds, the page of tables being
// computed reloads itself.
const tablesRefresh = 2

// tables answers at once: with the generation's tables when they are
// ready, else with how far their computation is (the page reloads itself
// until they are). A computation that failed is said, and the next load
// starts it again.
func (s *Server) tables(_ context.Context, r *runDB, _ *http.Request, info *pageInfo) (string, any, error) {
	info.Title = "paper tables"
	info.Refresh = tablesRefresh
	task := r.tablesTask()
	if task == nil {
		if task = s.replaceTables(r, nil); task == nil { // a newer generation replaced r
			return "tables", &tablesPage{Busy: &tablesProgress{Stopped: true}}, nil
		}
	}
	st := task.status()
	switch {
	case st.page != nil:
		info.Refresh = 0
		return "tables", st.page, nil
	case st.err != nil && !errors.Is(st.err, context.Canceled):
		s.replaceTables(r, task)
		return "", nil, fmt.Errorf("computing the paper tables of generation %d (reload to try again): %w", r.gen, st.err)
	}
	return "tables", &tablesPage{Busy: &tablesProgress{Done: st.done, Total: task.total, Stopped: st.err != nil}}, nil
}

// computeTables runs every table's query over the generation, one after
// the other, telling progress (when set) how many are done. A query's
// error is its table's (the others still run); an ended ctx ends it. A
// table whose inputs the run lacks, or has stale, is not queried, as datg
// tables writes neither: its page says why. The DATG bootstrap that
// datg_main and datg_full both read is computed once for the two, as
// datg tables does (tables.SharedInputs): its rows are then kept in r's
// database (the tables are computed in a process of their own, which
// exits after them: tableschild.go). The pages DuckDB's allocator keeps
// after a query (up to about 10 s) are returned before the tables and
// after each one: else each query ran on top of the last one's
// (internal/duck's allocator.go).
func computeTables(ctx context.Context, r *runDB, progress func(done int)) ([]tableResult, error) {
	duck.ReleaseMemory()
	if err := beforeTable(ctx, ""); err != nil {
		return nil, err
	}
	ready, err := tables.CheckListings(ctx, r.db)
	if err != nil {
		return nil, fmt.Errorf("checking the tables' inputs: %w", err)
	}
	shared := tables.NewSharedInputs(r.db)
	var out []tableResult
	for i, l := range tables.Listings() {
		f, ok := datgsql.Table(l.Name)
		if !ok {
			return nil, fmt.Errorf("sql/tables has no %s.sql", l.Name)
		}
		rd := ready[l.Name]
		tr := tableResult{Name: l.Name, Stale: rd.Stale, Missing: rd.Missing, MissingRun: rd.MissingRun}
		if len(tr.Stale) == 0 && len(tr.Missing) == 0 {
			err := beforeTable(ctx, l.Name)
			if err == nil {
				err = shared.Prepare(ctx, f.Text)
			}
			if err == nil {
				err = runTable(ctx, r, f.Text, &tr)
			}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				tr.Columns, tr.Rows, tr.Err = nil, nil, err.Error()
			}
		}
		out = append(out, tr)
		duck.ReleaseMemory()
		if progress != nil {
			progress(i + 1)
		}
	}
	if err := noteEmptyProbe(ctx, r, out); err != nil {
		return nil, err // an ended ctx, or DuckDB failing to read the traces
	}
	return out, nil
}

// beforeTable runs before the tables' inputs are checked (table "": its
// error ends the computation) and before each table's query (its error
// is the table's). Tests make it wait, or fail.
var beforeTable = func(ctx context.Context, table string) error { return nil }

func runTable(ctx context.Context, r *runDB, query string, tr *tableResult) error {
	rows, err := r.db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	if tr.Columns, err = rows.Columns(); err != nil {
		return err
	}
	vals := make([]any, len(tr.Columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]tableCell, len(vals))
		for i, v := range vals {
			if v == nil {
				row[i].Null = true
				continue
			}
			row[i].Text = cellText(v)
		}
		tr.Rows = append(tr.Rows, row)
	}
	return rows.Err()
}

// tablesPageOf is the page of the tables' results: each row linked to the
// index of its traces.
func tablesPageOf(results []tableResult) *tablesPage {
	listings := map[string]tables.Listing{}
	for _, l := range tables.Listings() {
		listings[l.Name] = l
	}
	p := &tablesPage{}
	for _, tr := range results {
		tv := tableView{Name: tr.Name, Err: tr.Err, Stale: tr.Stale, Missing: tr.Missing, MissingRun: tr.MissingRun, Empty: tr.Empty, Columns: tr.Columns}
		if p.ProbeNote == "" {
			p.ProbeNote = tr.Empty
		}
		l, listed := listings[tr.Name]
		for _, cells := range tr.Rows {
			row := tableRow{Cells: make([]string, len(cells))}
			byName := map[string]string{}
			for i, c := range cells {
				row.Cells[i] = c.Text
				if !c.Null && i < len(tr.Columns) {
					byName[tr.Columns[i]] = c.Text
				}
			}
			if f, ok := cellFilter(l, byName); ok && listed {
				row.Href = f.URL("/")
			}
			tv.Rows = append(tv.Rows, row)
		}
		p.Tables = append(p.Tables, tv)
	}
	return p
}

// cellKeys map a table's key columns to the index's facets; columns named
// in cellIgnored only label a row.
var (
	cellKeys = map[string]string{"model": "model", "level": "level", "direction": "direction", "lang": "lang", "aligner": "aligner", "seed": "seed", "method": "method",
		"resource_group": "group", "aligner_a": "aligned_by", "aligner_b": "aligned_by",
		"layer": "annotated"}
	cellIgnored = map[string]bool{"model_label": true, "ord": true, "resource": true}
)

// cellFilter is the index filter of a table row's traces: its key columns
// as facets, and the traces the table reads (its scope, and the
// directions the query keeps). A row keyed by a column the index has no
// facet for has none.
func cellFilter(l tables.Listing, row map[string]string) (Filter, bool) {
	f := Filter{Values: map[string][]string{}, Ranges: map[string]rangeOf{}, Page: 1, Per: defaultPer}
	switch l.Scope {
	case "probe", "control", "reference":
		f.Values["scope"] = []string{l.Scope}
	}
	for col, v := range row {
		param, ok := cellKeys[col]
		switch {
		case ok:
		case cellIgnored[col]:
			continue
		case isNumber(v):
			continue // a measure, not a key
		default:
			return f, false
		}
		if col == "seed" && v == "all" {
			continue
		}
		if col == "lang" && l.Name == "grader_agreement" {
			param = "reasoning" // the answer's language
		}
		if (col == "lang" || col == "level") && v == "all" {
			continue // a row over every language, or every level
		}
		if param == "annotated" {
			f.Annotated = []string{v}
			continue
		}
		if param == "aligned_by" {
			f.AlignedBy = append(f.AlignedBy, v)
			slices.Sort(f.AlignedBy)
			continue
		}
		f.Values[param] = []string{v}
	}
	if l.Name == "human_eval" {
		f.Annotated = []string{"any"} // the audited traces
	}
	if _, ok := row["direction"]; !ok {
		lang, hasLang := row["lang"]
		switch {
		case l.Name == "compliance" || l.Name == "compliance_agreement" || l.Name == "datg_correctness_main":
			// datg_correctness_main pools the probe's en-x traces only.
			f.Values["direction"] = []string{"en-x"}
		case strings.HasPrefix(l.Name, "datg_") && hasLang && lang == "en":
			f.Values["direction"] = []string{"en-en"}
		case strings.HasPrefix(l.Name, "datg_") && hasLang:
			f.Values["direction"] = []string{"en-x"}
		case strings.HasPrefix(l.Name, "datg_"):
			f.Values["direction"] = []string{"en-en", "en-x"}
		}
	}
	if len(f.Values) == 0 && len(f.AlignedBy) == 0 && len(f.Annotated) == 0 {
		return f, false
	}
	return f, true
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// cellText is a value of a table as text: sums are HUGEINTs (*big.Int),
// which database/sql cannot scan into a string.
func cellText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	return fmt.Sprint(v)
}
