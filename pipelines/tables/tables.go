package tables

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/pipelines/tables/internal/outdir"
	datgsql "github.com/datg/datg/sql"
	"github.com/datg/datg/study"
)

// Config is one tables run.
type Config struct {
	Data string
	Out  string // default DIR/tables
	// Only, when set, limits the run to these tables.
	Only   []string
	Stdout io.Writer // told where each output went
	Stderr io.Writer // warned of cells whose DATG scores cover under 95% of their graded traces
}

// Run writes every table. It refuses to run on traces that are not graded,
// since their accuracy would silently count as wrong. Every output is made
// in memory first, then all of them replace their previous versions in the
// output directory at once (internal/outdir): a failed or killed run leaves
// the previous set whole, and files it does not write are kept.
func Run(ctx context.Context, cfg Config) ([]string, error) {
	out := cfg.Out
	if out == "" {
		out = filepath.Join(cfg.Data, "tables")
	}
	db, err := duck.Open(ctx, cfg.Data)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if !db.Present["traces"] {
		return nil, fmt.Errorf("%w in %s (run datg generate or datg import traces)", ErrNoTraces, cfg.Data)
	}
	files := map[string][]byte{}
	var report []string
	check := newInputCheck(db)
	var shortfall string // the DATG tables' note on problems short of DAGs
	if db.Present["dags"] {
		if shortfall, err = shortfallNote(ctx, db.DB); err != nil {
			return nil, err
		}
	}
	for _, f := range datgsql.Tables() {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, f.Name) {
			continue
		}
		missing, err := check.ready(ctx, f.Name)
		if err != nil {
			return nil, err
		}
		if len(missing) > 0 {
			if cfg.Stdout != nil {
				fmt.Fprintf(cfg.Stdout, "%s: skipped, no %s yet (run %s)\n", f.Name, strings.Join(missing, ", "), producers(missing))
			}
			continue
		}
		res, err := query(ctx, db.DB, f.Text)
		if err != nil {
			return nil, fmt.Errorf("sql/tables/%s.sql: %w", f.Name, err)
		}
		lay, ok := layouts[f.Name]
		if !ok {
			lay = long
		}
		if c, ok := coverageOf(res); ok && len(c.low) > 0 && cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "datg tables: warning: %s: %d cells have DATG scores for under 95%% of their graded traces (align and score the rest), e.g. %s\n",
				f.Name, len(c.low), strings.Join(c.low[:min(3, len(c.low))], "; "))
		}
		g := lay(res)
		if slices.Contains(needs[f.Name], "scores") {
			g.Caption += shortfall
		}
		files[f.Name+".csv"], files[f.Name+".md"], files[f.Name+".tex"] = csvBytes(res), g.markdown(), g.latex()
		exts := "csv,md,tex"
		if draw, ok := figures[f.Name]; ok && len(res.Rows) > 0 {
			svg, png, err := draw(res)
			if err != nil {
				return nil, fmt.Errorf("%s figure: %w", f.Name, err)
			}
			files[f.Name+".svg"], files[f.Name+".png"] = svg, png
			exts += ",svg,png"
		}
		report = append(report, fmt.Sprintf("%s: %d rows -> %s.{%s}", f.Name, len(res.Rows), filepath.Join(out, f.Name), exts))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no table has its inputs (run datg verify)", ErrNotGraded)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := outdir.Replace(out, files); err != nil {
		return nil, fmt.Errorf("writing %s: %w", out, err)
	}
	if cfg.Stdout != nil {
		for _, line := range report {
			fmt.Fprintln(cfg.Stdout, line)
		}
	}
	var written []string
	for name := range files {
		written = append(written, filepath.Join(out, name))
	}
	slices.Sort(written)
	return written, nil
}

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
