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
	Only []string
	// ProbeSeed is the seed of the direction probe, whose base traces the
	// probe tables read; nil is the study's, study.ProbeSeed (42).
	ProbeSeed *int64
	// CI adds each cell's 95% interval (Wilson for accuracies, bootstrap
	// for DATG means) and n to the paper's tables, which otherwise show
	// the paper's layouts; the tables beyond the paper always show theirs.
	CI bool
	// Columns is the layout of tables/paper.tex, the document that inputs
	// every table: 1 (one-column article, the default when 0) or 2
	// (twocolumn, as the paper is set).
	Columns int
	Stdout  io.Writer // told where each output went
	// Stderr is warned of cells whose DATG scores cover under 95% of their
	// graded traces, and of base traces outside the probe.
	Stderr io.Writer
}

// DefaultConfig writes every table of the run in data/run.
func DefaultConfig() Config { return Config{Data: store.DefaultDir} }

// Validate checks the run directory is named and Only names tables.
func (c Config) Validate() error {
	var p inputerr.Problems
	p.Nested(store.CheckDir(c.Data))
	if c.Columns != 0 && c.Columns != 1 && c.Columns != 2 {
		p.Add("Columns", "%w, not %d", ErrColumns, c.Columns)
	}
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

// Run writes every table. A table whose inputs are stale over the traces it
// reads (traces not graded, since their accuracy would silently count as
// wrong; not language-checked; scores of older alignments) is not written,
// and Run then returns a *StaleError naming each such table, why, and what
// to run, after writing every other table. Every output is made in memory
// first, then all of them replace their previous versions in the output
// directory as one set (internal/outdir): a failed or killed run leaves the
// previous set, or the new one for the next run to finish. The directory
// itself and every file datg did not write stay as they are; so do the
// previous outputs of a table not written.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	out := cfg.Out
	if out == "" {
		out = filepath.Join(cfg.Data, "tables")
	}
	db, err := openRun(ctx, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer db.Close()
	if !db.Present["traces"] {
		return Summary{}, fmt.Errorf("%w in %s (run datg generate or datg import traces)", ErrNoTraces, cfg.Data)
	}
	probeSeed := study.ProbeSeed
	if cfg.ProbeSeed != nil {
		probeSeed = *cfg.ProbeSeed
		if err := db.SetProbeSeed(ctx, probeSeed); err != nil {
			return Summary{}, err
		}
	}
	if err := warnOutsideProbe(ctx, db, probeSeed, cfg.Stderr); err != nil {
		return Summary{}, err
	}
	files := map[string][]byte{}
	var report, written []string // written: the tables this run writes
	var refused []refusal        // tables not written: their inputs are stale
	check := newInputCheck(db)
	shared := newSharedInputs(db.DB)
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
		missing, stale, err := check.ready(ctx, t)
		if err != nil {
			return Summary{}, err
		}
		if len(missing) > 0 {
			if cfg.Stdout != nil {
				fmt.Fprintf(cfg.Stdout, "%s: skipped, no %s yet (run %s)\n", t.Name, strings.Join(missing, ", "), producers(missing))
			}
			continue
		}
		if len(stale) > 0 {
			refused = append(refused, refusal{t.Name, stale})
			continue
		}
		if err := shared.prepare(ctx, f.Text); err != nil {
			return Summary{}, fmt.Errorf("sql/tables/%s.sql: %w", t.Name, err)
		}
		res, err := query(ctx, db.DB, f.Text)
		if err != nil {
			return Summary{}, fmt.Errorf("sql/tables/%s.sql: %w", t.Name, err)
		}
		if c, ok := coverageOf(res); ok && len(c.low) > 0 && cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "datg tables: warning: %s: %d cells have DATG scores for under 95%% of their graded traces (align and score the rest), e.g. %s\n",
				t.Name, len(c.low), strings.Join(c.low[:min(3, len(c.low))], "; "))
		}
		g := t.Layout(res, layoutOpts{CI: cfg.CI})
		if t.Reads == probeTraces {
			g.Caption = strings.TrimSpace(g.Caption + probeNote(res, probeSeed))
		}
		if slices.Contains(t.Needs, "scores") {
			g.Caption += shortfall
		}
		files[t.Name+".csv"], files[t.Name+".md"], files[t.Name+".tex"] = csvBytes(res), g.markdown(t.lead()), g.latex(t.Name, t.Paper.String())
		exts := "csv,md,tex"
		if t.Figure != nil && len(res.Rows) > 0 {
			drawn, err := t.Figure(res)
			if err != nil {
				return Summary{}, fmt.Errorf("%s figure: %w", t.Name, err)
			}
			for _, ext := range figureFormats {
				files[t.Name+"."+ext] = drawn[ext]
			}
			exts += "," + strings.Join(figureFormats, ",")
		}
		written = append(written, t.Name)
		report = append(report, fmt.Sprintf("%s: %d rows -> %s.{%s}", t.Name, len(res.Rows), filepath.Join(out, t.Name), exts))
	}
	if len(files) > 0 {
		// The wrapper and the map input and name every table, written
		// now or before: each \input is guarded by \IfFileExists.
		files[paperTeX], files[indexMD] = wrapper(cfg.Columns), index()
		report = append(report, fmt.Sprintf("%s, %s: every table in one document, and where each is in the paper", filepath.Join(out, paperTeX), filepath.Join(out, indexMD)))
	}
	if len(files) == 0 {
		if len(refused) > 0 {
			return Summary{}, staleError(refused, 0)
		}
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
	if len(refused) > 0 {
		return sum, staleError(refused, len(written))
	}
	return sum, nil
}

// refusal is a table not written for its stale inputs.
type refusal struct {
	table string
	stale []staleInput
}

// staleError describes the refused tables in one error: each stale input
// once with what is stale in it, and each command to run once.
func staleError(refused []refusal, written int) *StaleError {
	e := &StaleError{Written: written}
	var reasons, needed []string
	for _, r := range refused {
		e.Tables = append(e.Tables, r.table)
		for _, s := range r.stale {
			reason := s.input + ": " + s.what
			if !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
			if !slices.Contains(needed, s.input) {
				needed = append(needed, s.input)
			}
			if err := inputs[s.input].stale; !slices.Contains(e.errs, err) {
				e.errs = append(e.errs, err)
			}
		}
	}
	e.Reasons, e.Producers = reasons, producers(needed)
	return e
}

// staleOutput says which outputs datg wrote before are no longer written:
// those of a table this run writes (a figure of a table now empty) and
// those of a table the registry no longer has. Tables a run skips (--only,
// inputs missing) keep theirs, and so do files of other kinds (explain's
// pages, were it pointed at the same directory).
func staleOutput(written []string) func(name string) bool {
	return func(name string) bool {
		if name == paperTeX || name == indexMD {
			return false // written by every run
		}
		table, ext, _ := strings.Cut(name, ".")
		if !slices.Contains(outputExts, ext) {
			return false
		}
		_, known := registered(table)
		return !known || slices.Contains(written, table)
	}
}

// outputExts are the kinds of file a table is written as.
var outputExts = []string{"csv", "md", "tex", "svg", "png", "pdf"}

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

// stageMemory caps DuckDB's memory in datg tables: every table's query
// runs under it at ten times the paper's design (BenchmarkTablesScale).
const stageMemory = 256 << 20

// openRun opens the run's database with a stage's limits: its memory
// capped (duck.StageLimits), so the stage's memory stays flat in the run's
// size and what does not fit spills to DuckDB's private directory.
func openRun(ctx context.Context, dir string) (*duck.DB, error) {
	return duck.OpenWith(ctx, dir, duck.StageLimits(stageMemory))
}
