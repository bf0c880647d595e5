package explain

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/internal/dagdraw"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/outdir"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/texmath"
	"github.com/datg/datg/internal/viewassets"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

//go:embed page.html
var pageHTML string

//go:embed index.html
var indexHTML string

var funcs = template.FuncMap{
	"deref": func(p *float64) float64 { return *p },
	// math is model text with its math spans for datg-math.js to render.
	"math": texmath.HTML,
	// anchor is an answer or an anchor, read as math when it looks like it.
	"anchor": func(s string) template.HTML {
		var b strings.Builder
		texmath.WriteSegments(&b, texmath.SplitAnchor(s))
		return template.HTML(b.String())
	},
}

var (
	pageTmpl  = template.Must(template.New("page").Funcs(funcs).Parse(pageHTML))
	indexTmpl = template.Must(template.New("index").Funcs(funcs).Parse(indexHTML))
)

// Config is one explain run.
type Config struct {
	Data    string
	TraceID string // empty: the index page and a page per aligned trace
	Aligner string // whose best DAG to show (default: the first by name)
	Out     string // a file for one trace, a directory for the index (default DIR/explain)
	Stdout  io.Writer
	Stderr  io.Writer // warned of old pages left in place
}

// DefaultConfig writes the index and every aligned trace's page of the run
// in data/run, each page by the first aligner by name.
func DefaultConfig() Config { return Config{Data: store.DefaultDir} }

// Validate checks the run directory is named.
func (c Config) Validate() error { return inputerr.Invalid(store.CheckDir(c.Data)) }

// Summary is what a run wrote.
type Summary struct {
	// Written are the files written: the page of TraceID, or every page
	// and then the index. After an error, none: the directory's pages
	// change all together.
	Written []string
	Index   string // the index page; "" for one trace's page
}

// Run writes the page of one trace, or the index and every aligned trace's
// page.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	// Every page is drawn from one generation of the run.
	snap, err := store.PinValid(cfg, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer snap.Close()
	in := snap.Dir
	if err := checkAligner(in, cfg.Aligner); err != nil {
		return Summary{}, err
	}
	if cfg.TraceID != "" {
		v, err := loadOne(in, cfg.TraceID, cfg.Aligner)
		if err != nil {
			return Summary{}, err
		}
		head := viewassets.StaticHead()
		if cfg.Out != "" {
			// One file where the user said: it carries its assets.
			head = viewassets.InlineHead()
		}
		page, err := render(v, head)
		if err != nil {
			return Summary{}, err
		}
		if cfg.Out != "" {
			// The file the user named.
			return Summary{Written: []string{cfg.Out}}, atomicfile.WriteFile(cfg.Out, page)
		}
		dir := filepath.Join(cfg.Data, "explain")
		files := viewassets.StaticFiles()
		files[pageName(cfg.TraceID)] = page
		if _, err := outdir.Replace(dir, files, nil); err != nil {
			return Summary{}, fmt.Errorf("writing %s: %w", dir, err)
		}
		return Summary{Written: []string{filepath.Join(dir, pageName(cfg.TraceID))}}, nil
	}
	dir := cfg.Out
	if dir == "" {
		dir = filepath.Join(cfg.Data, "explain")
	}
	aligned, err := alignedTraces(in, cfg.Aligner)
	if err != nil {
		return Summary{}, err
	}
	if len(aligned) == 0 {
		return Summary{}, fmt.Errorf("%w in %s (run datg align and datg score)", ErrNoScores, cfg.Data)
	}
	// The pages and the index go into the directory as one set (datg's
	// files only: a user's index.html there is refused, not replaced).
	// They are made a batch of traces at a time: each batch reads every
	// table once, and only its traces' texts are held.
	pages, err := outdir.Begin(dir)
	if err != nil {
		return Summary{}, err
	}
	defer pages.Close()
	var written []string
	var rows []indexRow
	for start := 0; start < len(aligned); start += pageBatch {
		batch := map[string]bool{}
		for _, id := range aligned[start:min(start+pageBatch, len(aligned))] {
			batch[id] = true
		}
		views, err := load(in, cfg.Aligner, func(id string) bool { return batch[id] })
		if err != nil {
			return Summary{}, err
		}
		for _, id := range aligned[start:min(start+pageBatch, len(aligned))] {
			if err := ctx.Err(); err != nil {
				return Summary{}, err
			}
			v, ok := views[id]
			if !ok {
				continue // scores of a trace no longer in the run
			}
			row := rowOf(v)
			page, err := render(v, viewassets.StaticHead())
			if err != nil {
				return Summary{}, err
			}
			if err := pages.Add(row.File, page); err != nil {
				return Summary{}, err
			}
			written = append(written, filepath.Join(dir, row.File))
			rows = append(rows, row)
		}
	}
	slices.SortFunc(rows, func(a, b indexRow) int {
		return cmp.Or(strings.Compare(a.Model, b.Model), strings.Compare(a.Level, b.Level), strings.Compare(a.Problem, b.Problem),
			strings.Compare(a.Direction, b.Direction), strings.Compare(a.Lang, b.Lang), strings.Compare(a.Method, b.Method), strings.Compare(a.ID, b.ID))
	})
	var b bytes.Buffer
	if err := indexTmpl.Execute(&b, struct{ Rows []indexRow }{rows}); err != nil {
		return Summary{}, err
	}
	if err := pages.Add("index.html", b.Bytes()); err != nil {
		return Summary{}, err
	}
	// The scripts, styles and fonts the pages load, beside them.
	for name, data := range viewassets.StaticFiles() {
		if err := pages.Add(name, data); err != nil {
			return Summary{}, err
		}
	}
	// Pages datg wrote before for traces the index no longer has go.
	rep, err := pages.Commit(func(name string) bool { return strings.HasSuffix(name, ".html") })
	for _, path := range rep.Kept {
		if cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "datg explain: warning: %s: no longer written, left in place: changed since datg wrote it\n", path)
		}
	}
	if err != nil {
		return Summary{}, fmt.Errorf("writing %s: %w", dir, err)
	}
	index := filepath.Join(dir, "index.html")
	return Summary{Written: append(written, index), Index: index}, nil
}

// checkAligner refuses an aligner that scored nothing in the run, naming
// the ones that did ("" picks the first by name: always fine).
func checkAligner(dir, aligner string) error {
	if aligner == "" {
		return nil
	}
	seen := map[string]bool{}
	if err := scan(dir, schema.Scores, func(s *schema.Score) { seen[s.Aligner] = true }); err != nil {
		return err
	}
	if seen[aligner] {
		return nil
	}
	known := make([]string, 0, len(seen))
	for a := range seen {
		known = append(known, a)
	}
	sort.Strings(known)
	if len(known) == 0 {
		return fmt.Errorf("%w %q: the run has no scores yet (datg align, then datg score)", ErrUnknownAligner, aligner)
	}
	return fmt.Errorf("%w %q: the run's aligners are %s", ErrUnknownAligner, aligner, strings.Join(known, ", "))
}

// notAligned says why a trace has no alignment: datg align aligns the
// directions of its default unless told others.
func notAligned(direction string) string {
	dirs := align.DefaultConfig().Directions
	if !slices.Contains(dirs, direction) {
		return fmt.Sprintf("Not aligned: datg align aligns %s traces (its --directions default); this is a %s trace.", strings.Join(dirs, " and "), direction)
	}
	return "Not aligned yet (run datg align and datg score)."
}

// pageBatch is how many traces' pages are made from one read of the run.
const pageBatch = 1000

// render is a trace's page, loading its assets with head.
func render(v *view, head template.HTML) ([]byte, error) {
	nodes := statuses(v.DAG, v.Events)
	data := struct {
		*view
		NotAligned string
		Head       template.HTML
		DAG        template.HTML
		DAGError   string
		Segments   []segment
	}{view: v, NotAligned: notAligned(v.Trace.Direction), Head: head, Segments: segments(v.Trace.Text, v.Events, v.Harmful)}
	if len(nodes) > 0 {
		dag, err := dagdraw.Draw(graph(v.DAG, nodes), dagdraw.Options{ID: "dag", Label: "reference DAG"})
		if err != nil {
			// A DAG the run holds is valid (datg dags checks it); say so
			// rather than fail the whole export.
			data.DAGError = err.Error()
		}
		data.DAG = dag
	}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", v.Trace.TraceID, err)
	}
	return b.Bytes(), nil
}

// indexRow is one trace of the index page.
type indexRow struct {
	ID, File, Model, Direction, Lang, Level, Problem, Method string
	Href                                                     string // File, URL-escaped
	Graded, Correct                                          bool
	CAR, PMF, HAR                                            string
}

// alignedTraces are the ids of the traces with a best DAG for the aligner,
// sorted.
func alignedTraces(dir, aligner string) ([]string, error) {
	seen := map[string]bool{}
	err := scan(dir, schema.Scores, func(s *schema.Score) {
		if s.Best && (aligner == "" || s.Aligner == aligner) {
			seen[s.TraceID] = true
		}
	})
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, err
}

// rowOf is a trace's line on the index page.
func rowOf(v *view) indexRow {
	t, s := v.Trace, v.Score
	pmf := "—"
	if s.PMF != nil {
		pmf = fmt.Sprintf("%.3f", *s.PMF)
	}
	name := pageName(t.TraceID)
	row := indexRow{ID: t.TraceID, File: name, Href: "./" + url.PathEscape(name), Model: t.Model, Direction: t.Direction,
		Lang: study.TargetLang(t.InputLang, t.ReasoningLang), Level: t.Level, Problem: t.ProblemID, Method: t.Method,
		CAR: fmt.Sprintf("%.3f", s.CAR), PMF: pmf, HAR: fmt.Sprintf("%.3f", s.HAR)}
	if v.Answer != nil {
		row.Graded, row.Correct = true, v.Answer.Correct
	}
	return row
}
