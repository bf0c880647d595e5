package tables

import (
	"github.com/datg/datg/internal/store"

	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/outdir"
	datgsql "github.com/datg/datg/sql"
	"github.com/datg/datg/study"
)

// Config is one tables run.
type Config struct {
	Data string
	Out  string // default DIR/tables
	// Only, when set, limits the run to these tables (registry.go names them).
	Only   []string
	Stdout io.Writer // told where each output went
	Stderr io.Writer // warned of cells whose DATG scores cover under 95% of their graded traces
}

// DefaultConfig writes every table of the run in data/run.
func DefaultConfig() Config { return Config{Data: store.DefaultDir} }

// Validate checks the run directory is named and Only names tables.
func (c Config) Validate() error {
	var p inputerr.Problems
	p.Nested(store.CheckDir(c.Data))
	for _, name := range c.Only {
		if _, ok := registered(name); !ok {
			p.Add("Only", "%w: %q (known: %s)", ErrUnknownTable, name, strings.Join(tableNames(), ", "))
		}
	}
	return p.Err()
}

// Summary is what a run wrote.
type Summary struct {
	Written []string // every file, sorted
}

// Run writes every table. It refuses to run on traces that are not graded,
// since their accuracy would silently count as wrong. Every output is made
// in memory first, then all of them replace their previous versions in the
// output directory as one set (internal/outdir): a failed or killed run
// leaves the previous set, or the new one for the next run to finish. The
// directory itself and every file datg did not write stay as they are.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	out := cfg.Out
	if out == "" {
		out = filepath.Join(cfg.Data, "tables")
	}
	db, err := duck.Open(ctx, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer db.Close()
	if !db.Present["traces"] {
		return Summary{}, fmt.Errorf("%w in %s (run datg generate or datg import traces)", ErrNoTraces, cfg.Data)
	}
	files := map[string][]byte{}
	var report, written []string // written: the tables this run writes
	check := newInputCheck(db)
	var shortfall string // the DATG tables' note on problems short of DAGs
	if db.Present["dags"] {
		if shortfall, err = shortfallNote(ctx, db.DB); err != nil {
			return Summary{}, err
		}
	}
	// Queries run in file name order, so the report's lines keep theirs.
	for _, f := range datgsql.Tables() {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, f.Name) {
			continue
		}
		t, ok := registered(f.Name)
		if !ok {
			return Summary{}, fmt.Errorf("sql/tables/%s.sql: %w (add it to pipelines/tables/registry.go)", f.Name, ErrUnknownTable)
		}
		missing, err := check.ready(ctx, t)
		if err != nil {
			return Summary{}, err
		}
		if len(missing) > 0 {
			if cfg.Stdout != nil {
				fmt.Fprintf(cfg.Stdout, "%s: skipped, no %s yet (run %s)\n", t.Name, strings.Join(missing, ", "), producers(missing))
			}
			continue
		}
		res, err := query(ctx, db.DB, f.Text)
		if err != nil {
			return Summary{}, fmt.Errorf("sql/tables/%s.sql: %w", t.Name, err)
		}
		if c, ok := coverageOf(res); ok && len(c.low) > 0 && cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "datg tables: warning: %s: %d cells have DATG scores for under 95%% of their graded traces (align and score the rest), e.g. %s\n",
				t.Name, len(c.low), strings.Join(c.low[:min(3, len(c.low))], "; "))
		}
		g := t.Layout(res)
		if slices.Contains(t.Needs, "scores") {
			g.Caption += shortfall
		}
		files[t.Name+".csv"], files[t.Name+".md"], files[t.Name+".tex"] = csvBytes(res), g.markdown(), g.latex()
		exts := "csv,md,tex"
		if t.Figure != nil && len(res.Rows) > 0 {
			svg, png, err := t.Figure(res)
			if err != nil {
				return Summary{}, fmt.Errorf("%s figure: %w", t.Name, err)
			}
			files[t.Name+".svg"], files[t.Name+".png"] = svg, png
			exts += ",svg,png"
		}
		written = append(written, t.Name)
		report = append(report, fmt.Sprintf("%s: %d rows -> %s.{%s}", t.Name, len(res.Rows), filepath.Join(out, t.Name), exts))
	}
	if len(files) == 0 {
		return Summary{}, fmt.Errorf("%w: no table has its inputs (run datg verify)", ErrNotGraded)
	}
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	rep, err := outdir.Replace(out, files, staleOutput(written))
	for _, path := range rep.Kept {
		if cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "datg tables: warning: %s: no longer written, left in place: changed since datg wrote it\n", path)
		}
	}
	if err != nil {
		return Summary{}, fmt.Errorf("writing %s: %w", out, err)
	}
	if cfg.Stdout != nil {
		for _, line := range report {
			fmt.Fprintln(cfg.Stdout, line)
		}
	}
	var sum Summary
	for name := range files {
		sum.Written = append(sum.Written, filepath.Join(out, name))
	}
	slices.Sort(sum.Written)
	return sum, nil
}

// staleOutput says which outputs datg wrote before are no longer written:
// those of a table this run writes (a figure of a table now empty) and
// those of a table the registry no longer has. Tables a run skips (--only,
// inputs missing) keep theirs, and so do files of other kinds (explain's
// pages, were it pointed at the same directory).
func staleOutput(written []string) func(name string) bool {
	return func(name string) bool {
		table, ext, _ := strings.Cut(name, ".")
		if !slices.Contains(outputExts, ext) {
			return false
		}
		_, known := registered(table)
		return !known || slices.Contains(written, table)
	}
}

// outputExts are the kinds of file a table is written as.
var outputExts = []string{"csv", "md", "tex", "svg", "png"}

// studyOrder sorts language codes in the paper's order; unknown codes last.
func studyOrder(langs []string) []string {
	order := map[string]int{}
	for i, l := range study.LanguageCodes() {
		order[l] = i
	}
	out := slices.Clone(langs)
	slices.SortStableFunc(out, func(a, b string) int {
		oa, okA := order[a]
		ob, okB := order[b]
		if !okA {
			oa = len(order)
		}
		if !okB {
			ob = len(order)
		}
		return oa - ob
	})
	return out
}
