package view

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/datg/datg/pipelines/tables"
	datgsql "github.com/datg/datg/sql"
)

// tablesPage is every paper table, as sql/tables computes it for datg
// tables, with each row (a cell of the paper's table: the queries are
// tidy) linked to the index of the traces behind it.
type tablesPage struct {
	Tables []tableView
}

type tableView struct {
	Name string
	Err  string // the query failed: why (the other tables still show)
	// Stale says why datg tables refuses the table (its inputs are stale
	// over the traces it reads): the page refuses it too, showing no
	// numbers.
	Stale []string
	// Missing are the inputs the run lacks (datg tables skips the table).
	Missing []string
	Columns []string
	Rows    []tableRow
}

type tableRow struct {
	Cells []string
	Href  string // the index of the row's traces ("": no filter of the index says them)
}

// tablesOnce guards computing a generation's tables once.
var tablesMu sync.Mutex

func (s *Server) tables(ctx context.Context, r *runDB, req *http.Request, info *pageInfo) (string, any, error) {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if r.tables == nil {
		p, err := computeTables(ctx, r)
		if err != nil {
			return "", nil, err
		}
		r.tables = p
	}
	info.Title = "paper tables"
	return "tables", r.tables, nil
}

// computeTables runs every table's query over the generation.
func computeTables(ctx context.Context, r *runDB) (*tablesPage, error) {
	p := &tablesPage{}
	ready, err := tables.CheckListings(ctx, r.db)
	if err != nil {
		return nil, fmt.Errorf("checking the tables' inputs: %w", err)
	}
	for _, l := range tables.Listings() {
		f, ok := datgsql.Table(l.Name)
		if !ok {
			return nil, fmt.Errorf("sql/tables has no %s.sql", l.Name)
		}
		tv := tableView{Name: l.Name, Stale: ready[l.Name].Stale, Missing: ready[l.Name].Missing}
		if len(tv.Stale) > 0 {
			p.Tables = append(p.Tables, tv)
			continue
		}
		if err := runTable(ctx, r, f.Text, l, &tv); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			tv.Err = err.Error()
		}
		p.Tables = append(p.Tables, tv)
	}
	return p, nil
}

func runTable(ctx context.Context, r *runDB, query string, l tables.Listing, tv *tableView) error {
	rows, err := r.db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	if tv.Columns, err = rows.Columns(); err != nil {
		return err
	}
	vals := make([]any, len(tv.Columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := tableRow{Cells: make([]string, len(vals))}
		byName := map[string]string{}
		for i, v := range vals {
			if v == nil {
				continue
			}
			row.Cells[i] = cellText(v)
			byName[tv.Columns[i]] = row.Cells[i]
		}
		if f, ok := cellFilter(l, byName); ok {
			row.Href = f.URL("/")
		}
		tv.Rows = append(tv.Rows, row)
	}
	return rows.Err()
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
		if col == "lang" && v == "all" {
			continue // a row over every language
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
		case l.Name == "compliance" || l.Name == "compliance_agreement":
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
