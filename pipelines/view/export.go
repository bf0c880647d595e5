package view

import (
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"runtime"

	"github.com/datg/datg/internal/parallel"

	"github.com/datg/datg/internal/viewassets"
)

// Export makes datg view's trace pages as static files, for sharing (datg
// explain): the same templates and rendering as the server's, with the
// links between pages made relative (each trace's page by the name the
// caller gives it, the index as index.html) and the assets loaded from
// beside the pages (StaticFiles) or carried inline.
type Export struct {
	r *runDB
}

// OpenExport reads the run's current generation, its direction probe (a
// filter's scope "probe") at probeSeed, as datg view --probe-seed.
func OpenExport(ctx context.Context, dir string, probeSeed int64) (*Export, error) {
	r, err := openRunDBAt(ctx, dir, "", probeSeed)
	if err != nil {
		return nil, err
	}
	return &Export{r: r}, nil
}

// Close releases the generation.
func (e *Export) Close() error { return e.r.close() }

// Generation is the generation the pages are made from.
func (e *Export) Generation() int { return e.r.gen }

// Selection is the traces of an export, in their order, and the filter
// their pages show (prev/next walk the selection).
type Selection struct {
	F   Filter
	IDs []string
}

// Select is the traces an export shows: those of filter (datg view's URL
// parameters, e.g. "model=m&level=high&q=boxed", in the filter's order;
// page and per are ignored: every match is exported), or of ids, in
// their order (each must be in the run: ErrNoTrace). aligner, when not
// empty, is whose alignment the pages show.
func (e *Export) Select(ctx context.Context, filter string, ids []string, aligner string) (Selection, error) {
	q, err := queryOf(filter)
	if err != nil {
		return Selection{}, fmt.Errorf("the filter %q: %w", filter, err)
	}
	if aligner != "" && len(q["aligner"]) == 0 {
		q.Set("aligner", aligner)
	}
	f, err := parseFilter(q)
	if err != nil {
		return Selection{}, fmt.Errorf("the filter %q: %w", filter, err)
	}
	f = f.withAligner(e.r.aligners)
	if ids != nil {
		for _, id := range ids {
			if _, ok := e.r.rows.find(id); !ok {
				return Selection{}, fmt.Errorf("%w %q in generation %d of the run", ErrNoTrace, id, e.r.gen)
			}
		}
		return Selection{F: f, IDs: ids}, nil
	}
	var search bitmap
	if f.Q != "" {
		if search, err = e.r.searchRows(ctx, f.Q); err != nil {
			return Selection{}, err
		}
	}
	res := e.r.query(f, search)
	e.r.order(f, res.matched)
	out := make([]string, len(res.matched))
	for k, j := range res.matched {
		out[k] = e.r.rows.id(j)
	}
	return Selection{F: f, IDs: out}, nil
}

// Links name the files of an exported set: File is a trace's page
// ("" when it is not in the set); Index is the index page that lists the
// k-th trace of the set (nil for a page written alone).
type Links struct {
	File  func(id string) string
	Index func(k int) string
}

// href is a file name as a relative link.
func href(name string) string { return "./" + url.PathEscape(name) }

// Page is the page of the k-th trace of sel, its assets loaded by head
// (viewassets.StaticHead beside StaticFiles, or Inline for one file).
// It reads the trace's rows alone, as the server does; Pages reads a
// set's in batches.
func (e *Export) Page(ctx context.Context, sel Selection, k int, links Links, head Head) ([]byte, error) {
	p, err := tracePageOf(ctx, e.r, sel.F, sel.IDs[k], sel.F.Aligner, "", false)
	if err != nil {
		return nil, err
	}
	return e.exported(p, sel, k, links, head)
}

// exportBatch is how many traces' rows Pages reads at once: each row
// group a batch's rows are in read once for all of them, the texts of a
// batch at most in memory.
const exportBatch = 256

// Pages makes the page of every trace of sel, the same bytes as Page's,
// and hands each to write in sel's order. It reads the traces' rows a
// batch at a time, draws a DAG once for every page showing it with the
// same statuses, and makes a batch's pages on every core.
func (e *Export) Pages(ctx context.Context, sel Selection, links Links, head Head, write func(k int, id string, page []byte) error) error {
	dr := newMemoDrawer(drawer)
	for lo := 0; lo < len(sel.IDs); lo += exportBatch {
		hi := min(lo+exportBatch, len(sel.IDs))
		ids := sel.IDs[lo:hi]
		var problems []string
		seen := map[string]bool{}
		for _, id := range ids {
			j, ok := e.r.rows.find(id)
			if !ok {
				return fmt.Errorf("%w %q in generation %d of the run", ErrNoTrace, id, e.r.gen)
			}
			if pid := e.r.rows.problemOf(j); !seen[pid] {
				seen[pid] = true
				problems = append(problems, pid)
			}
		}
		rows, err := readTraceRows(ctx, e.r, ids, problems)
		if err != nil {
			return err
		}
		pages := make([][]byte, len(ids))
		g := parallel.New(ctx, runtime.GOMAXPROCS(0))
		for i := range ids {
			if g.Stopped() {
				break
			}
			g.Go(func(ctx context.Context) error {
				k := lo + i
				p, err := tracePageFrom(ctx, e.r, rows, dr, sel.F, sel.IDs[k], sel.F.Aligner, "")
				if err != nil {
					return err
				}
				pages[i], err = e.exported(p, sel, k, links, head)
				return err
			})
		}
		if err := g.Wait(nil); err != nil {
			return err
		}
		for i, page := range pages {
			if err := write(lo+i, ids[i], page); err != nil {
				return err
			}
		}
	}
	return nil
}

// exported renders the page of the k-th trace of sel as a file of the set.
func (e *Export) exported(p *tracePage, sel Selection, k int, links Links, head Head) ([]byte, error) {
	id := sel.IDs[k]
	// The server's links become the set's files; views the set has no
	// file for (another aligner's or DAG's evidence) are left unlinked.
	p.IndexHref, p.Prev, p.Next = "", "", ""
	if links.Index != nil {
		p.IndexHref = href(links.Index(k))
	}
	p.Pos, p.Total = k+1, len(sel.IDs)
	if k > 0 {
		p.Prev = fileHref(links, sel.IDs[k-1])
	}
	if k+1 < len(sel.IDs) {
		p.Next = fileHref(links, sel.IDs[k+1])
	}
	for i := range p.Aligners {
		p.Aligners[i].Href = ""
	}
	for i := range p.DAGs {
		p.DAGs[i].Href = ""
	}
	for i := range p.Related {
		p.Related[i].Href = fileHref(links, p.Related[i].id)
	}
	info := &pageInfo{Title: "trace " + id, Generation: e.r.gen, Static: &head, Home: p.IndexHref}
	body, err := render("trace", info, p)
	return []byte(body), err
}

// fileHref is the link to a trace's file, "" when the set has none.
func fileHref(links Links, id string) string {
	if links.File == nil {
		return ""
	}
	if name := links.File(id); name != "" {
		return href(name)
	}
	return ""
}

// IndexPages writes the index of an exported set, per traces a page
// (the last page holds the rest; a set of none has one page): each page
// has the set's summary, a row per trace of its part linking the trace's
// page, and links to the first, previous, next and last index pages. A
// page is named by links.Index of its first trace. One page of 12,176 rows
// (4.8 MB) took Chromium 16 s to show; one of 1,000, half a second.
func (e *Export) IndexPages(sel Selection, links Links, head Head, per int, write func(name string, page []byte) error) error {
	if per < 1 {
		return fmt.Errorf("view: %d traces an index page", per)
	}
	matched := make([]int, 0, len(sel.IDs))
	for _, id := range sel.IDs {
		if j, ok := e.r.rows.find(id); ok { // Select checked them
			matched = append(matched, j)
		}
	}
	sum := summarize(e.r, sel.F, indexResult{matched: matched})
	pages := max(1, (len(matched)+per-1)/per)
	name := func(p int) string { return links.Index(p * per) }
	for p := range pages {
		f := sel.F
		f.Page, f.Per = p+1, per
		rows := rowsOf(e.r, f, matched)
		for i := range rows {
			rows[i].Href = fileHref(links, rows[i].ID)
		}
		nav := exportPager{Page: p + 1, Pages: pages, From: min(len(matched), p*per+1), To: min(len(matched), (p+1)*per)}
		if p > 0 {
			nav.First, nav.Prev = href(name(0)), href(name(p-1))
		}
		if p+1 < pages {
			nav.Next, nav.Last = href(name(p+1)), href(name(pages-1))
		}
		data := struct {
			F       Filter
			Filter  string
			N       int
			Summary summary
			Pager   exportPager
			Rows    []indexRow
		}{F: sel.F, Filter: sel.F.Query().Encode(), N: len(matched), Summary: sum, Pager: nav, Rows: rows}
		info := &pageInfo{Title: "exported traces", Generation: e.r.gen, Static: &head, Home: href(name(0))}
		if pages > 1 {
			info.Title = fmt.Sprintf("exported traces, page %d of %d", p+1, pages)
		}
		body, err := render("export", info, data)
		if err != nil {
			return err
		}
		if err := write(name(p), []byte(body)); err != nil {
			return err
		}
	}
	return nil
}

// exportPager is where an index page of an export sits among them: the
// traces it lists (From to To, from 1) and its links ("" where none).
type exportPager struct {
	Page, Pages, From, To   int
	First, Prev, Next, Last string
}

// Head is how an exported page loads its assets.
type Head struct {
	// Inline carries them in the page (one file that works alone);
	// otherwise they are StaticFiles, beside the page.
	Inline bool
}

// HTML is the <head> markup loading the assets.
func (h Head) HTML() template.HTML {
	if h.Inline {
		css, _ := fs.ReadFile(staticFiles, "static/view.css")
		js, _ := fs.ReadFile(staticFiles, "static/view.js")
		return viewassets.InlineHead() + template.HTML("\n<style>\n"+string(css)+"</style>\n<script>\n"+string(js)+"</script>")
	}
	return viewassets.StaticHead() + template.HTML("\n"+`<link rel="stylesheet" href="view.css?v=`+viewassets.Version()+`">`+"\n"+
		`<script defer src="view.js?v=`+viewassets.Version()+`"></script>`)
}

// StaticFiles are the files the pages of an export load (Head without
// Inline), by name: KaTeX, its fonts and licence, datg's math script and
// style (viewassets.StaticFiles), and the viewer's view.css and view.js.
func StaticFiles() map[string][]byte {
	out := viewassets.StaticFiles()
	for _, name := range []string{"view.css", "view.js"} {
		b, err := fs.ReadFile(staticFiles, "static/"+name)
		if err != nil {
			panic(err) // embedded
		}
		out[name] = b
	}
	return out
}
