package explain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/outdir"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/view"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// Config is one explain run.
type Config struct {
	Data    string
	TraceID string // one trace's page; empty: an exported set and its index
	// Filter selects the set: datg view's URL parameters (e.g.
	// "model=m&level=high&q=boxed"), every match in the filter's order.
	Filter string
	// IDs selects the set by trace id, in their order (with Filter: the
	// filter's aligner and its summary, but these traces).
	IDs     []string
	Aligner string // whose alignment to show (default: the first by name)
	// ProbeSeed is the seed of the direction probe, whose base traces a
	// filter's scope "probe" selects (datg view --probe-seed); nil is the
	// study's, study.ProbeSeed (42).
	ProbeSeed *int64
	Out       string // a file for one trace, a directory for a set (default DIR/explain)
	// IndexPer is how many traces an index page lists: index.html the
	// first IndexPer, index-2.html the next, and so on; 0 is
	// DefaultIndexPer.
	IndexPer int
	Stdout   io.Writer
	Stderr   io.Writer // warned of old pages left in place
}

// DefaultConfig writes the index and every aligned trace's page of the run
// in data/run, each page by the first aligner by name.
func DefaultConfig() Config { return Config{Data: store.DefaultDir, IndexPer: DefaultIndexPer} }

// DefaultIndexPer is the traces an index page lists by default: Chromium
// shows a page of 1,000 rows in half a second, one of 12,176 in 16.
const DefaultIndexPer = 1000

// Validate checks the run directory is named and one trace is not asked
// for with a set.
func (c Config) Validate() error {
	var oneAndSet error
	if c.TraceID != "" && (c.Filter != "" || c.IDs != nil) {
		oneAndSet = inputerr.BadField("filter", "a trace id is one page: give a filter or a list of ids without it")
	}
	var per error
	if c.IndexPer < 0 {
		per = inputerr.BadField("index-per", "%d: an index page lists at least one trace (0: %d)", c.IndexPer, DefaultIndexPer)
	}
	return inputerr.Invalid(store.CheckDir(c.Data), oneAndSet, per)
}

// indexPer is the traces an index page lists: IndexPer, else the default.
func (c Config) indexPer() int {
	if c.IndexPer > 0 {
		return c.IndexPer
	}
	return DefaultIndexPer
}

// probeSeed is the direction probe's seed: ProbeSeed, else the study's.
func (c Config) probeSeed() int64 {
	if c.ProbeSeed != nil {
		return *c.ProbeSeed
	}
	return study.ProbeSeed
}

// Summary is what a run wrote.
type Summary struct {
	// Written are the files written: the page of TraceID, or every page
	// and then the index pages. After an error, none: the directory's
	// pages change all together.
	Written []string
	Index   string // the first index page (index.html); "" for one trace's page
	Indexes int    // how many index pages
}

// Run writes the page of one trace, or an exported set: the pages of the
// traces of the filter or the ids (by default every aligned trace) and
// their index. The pages are datg view's (pipelines/view), made static.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
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
	ids := cfg.IDs
	if cfg.TraceID != "" {
		ids = []string{cfg.TraceID}
	} else if cfg.Filter == "" && ids == nil {
		// By default, every aligned trace.
		if ids, err = alignedTraces(in, cfg.Aligner); err != nil {
			return Summary{}, err
		}
		if len(ids) == 0 {
			return Summary{}, fmt.Errorf("%w in %s (run datg align and datg score)", ErrNoScores, cfg.Data)
		}
	}
	ex, err := view.OpenExport(ctx, cfg.Data, cfg.probeSeed())
	if err != nil {
		return Summary{}, err
	}
	defer ex.Close()
	sel, err := ex.Select(ctx, cfg.Filter, ids, cfg.Aligner)
	if errors.Is(err, view.ErrNoTrace) {
		return Summary{}, fmt.Errorf("%w (in %s)", err, cfg.Data)
	}
	if err != nil {
		return Summary{}, err
	}
	if cfg.TraceID != "" {
		return writeOne(ctx, ex, sel, cfg)
	}
	if len(sel.IDs) == 0 {
		return Summary{}, fmt.Errorf("%w: the filter %q matches no trace of %s", ErrNoTraces, cfg.Filter, cfg.Data)
	}
	dir := cfg.Out
	if dir == "" {
		dir = filepath.Join(cfg.Data, "explain")
	}
	inSet := make(map[string]bool, len(sel.IDs))
	for _, id := range sel.IDs {
		inSet[id] = true
	}
	links := view.Links{Index: func(k int) string { return indexName(k / cfg.indexPer()) }, File: func(id string) string {
		if inSet[id] {
			return pageName(id)
		}
		return ""
	}}
	// The pages and the index go into the directory as one set (datg's
	// files only: a user's index.html there is refused, not replaced).
	pages, err := outdir.Begin(dir)
	if err != nil {
		return Summary{}, err
	}
	defer pages.Close()
	var written []string
	err = ex.Pages(ctx, sel, links, view.Head{}, func(_ int, id string, page []byte) error {
		if err := pages.Add(pageName(id), page); err != nil {
			return err
		}
		written = append(written, filepath.Join(dir, pageName(id)))
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	var indexes []string
	err = ex.IndexPages(sel, links, view.Head{}, cfg.indexPer(), func(name string, page []byte) error {
		indexes = append(indexes, filepath.Join(dir, name))
		return pages.Add(name, page)
	})
	if err != nil {
		return Summary{}, err
	}
	// The scripts, styles and fonts the pages load, beside them.
	for name, data := range view.StaticFiles() {
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
	return Summary{Written: append(written, indexes...), Index: indexes[0], Indexes: len(indexes)}, nil
}

// indexName is the file of the p-th index page of a set (from 0):
// index.html, then index-2.html, index-3.html and on.
func indexName(p int) string {
	if p == 0 {
		return "index.html"
	}
	return fmt.Sprintf("index-%d.html", p+1)
}

// writeOne writes one trace's page: to the file the user named, its
// assets inline, or into DIR/explain beside the assets.
func writeOne(ctx context.Context, ex *view.Export, sel view.Selection, cfg Config) (Summary, error) {
	if cfg.Out != "" {
		page, err := ex.Page(ctx, sel, 0, view.Links{}, view.Head{Inline: true})
		if err != nil {
			return Summary{}, err
		}
		return Summary{Written: []string{cfg.Out}}, atomicfile.WriteFile(cfg.Out, page)
	}
	page, err := ex.Page(ctx, sel, 0, view.Links{}, view.Head{})
	if err != nil {
		return Summary{}, err
	}
	dir := filepath.Join(cfg.Data, "explain")
	files := view.StaticFiles()
	files[pageName(cfg.TraceID)] = page
	if _, err := outdir.Replace(dir, files, nil); err != nil {
		return Summary{}, fmt.Errorf("writing %s: %w", dir, err)
	}
	return Summary{Written: []string{filepath.Join(dir, pageName(cfg.TraceID))}}, nil
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
