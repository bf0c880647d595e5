package view

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestViewerAcceptance walks issue 22's "Done when" list in Chromium over
// a `datg view` already serving a real run, as the reviewers do:
//
//	bin/datg view --data data/run/demo --addr 127.0.0.1:8080 &
//	DATG_VIEW_URL=http://127.0.0.1:8080 DATG_VIEW_SHOTS=/tmp/shots \
//	  [DATG_VIEW_EXPORT_RUN=data/run/demo DATG=bin/datg] \
//	  go test -run TestViewerAcceptance -v ./pipelines/view
//
// It needs no particular run (the demo, a 38,250-trace run): it picks the
// values it filters by from the page. It logs the Navigation Timing of
// each page (the 200 ms and 300 ms) and saves screenshots at
// desktop and phone widths when DATG_VIEW_SHOTS is set. It skips without
// DATG_VIEW_URL; the CI's browser test is TestViewerInChromium.
func TestViewerAcceptance(t *testing.T) {
	base := strings.TrimSuffix(os.Getenv("DATG_VIEW_URL"), "/")
	if base == "" {
		t.Skip("DATG_VIEW_URL is not set (a running datg view)")
	}
	b := newBrowser(t, 1280, 900)

	// The index: every facet of the issue, each value with its count.
	b.do("index", chromedp.Navigate(base+"/"), chromedp.WaitVisible(`h1`))
	t.Logf("timing index: %+v", b.timing())
	b.shot("index")
	facets := eval[map[string][]string](b, `(function () { var out = {};
		document.querySelectorAll("section.facet").forEach(function (s) {
			out[s.getAttribute("data-facet")] = Array.prototype.map.call(s.querySelectorAll("li"), function (li) {
				var n = li.querySelector(".n"); return (li.querySelector("a") || li).textContent + "=" + (n ? n.textContent : "NO COUNT"); }); });
		return out; })()`)
	for _, want := range []string{"model", "level", "direction", "input", "reasoning", "method", "seed", "mv", "ml", "ld", "lg", "aligner", "car", "pmf", "har"} {
		vs := facets[want]
		if len(vs) == 0 {
			t.Errorf("facet %s: missing or empty", want)
		}
		for _, v := range vs {
			if strings.HasSuffix(v, "NO COUNT") {
				t.Errorf("facet %s: %s", want, v)
			}
		}
	}
	t.Logf("facets: %v", facets)
	summary := eval[string](b, `document.querySelector("#summary").innerText`)
	t.Logf("summary: %s", summary)
	for _, want := range []string{"n = ", "Accuracy (math-verify)", "[", "Wilson", "coverage", "mean CAR", "mean PMF", "mean HAR"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q", want)
		}
	}

	// A facet value: the heading's count is the value's.
	direction := eval[string](b, `(function () { var a = document.querySelector('section[data-facet="direction"] a[data-value="en-x"]') ||
		document.querySelector('section[data-facet="direction"] a[data-value]'); return a.getAttribute("data-value"); })()`)
	want := eval[string](b, fmt.Sprintf(`document.querySelector('section[data-facet="direction"] a[data-value=%q]').parentElement.querySelector(".n").textContent`, direction))
	b.do("filter", settledClick(fmt.Sprintf(`section[data-facet="direction"] a[data-value=%q]`, direction)),
		chromedp.WaitVisible(fmt.Sprintf(`section[data-facet="direction"] li.on a[data-value=%q]`, direction)))
	t.Logf("timing filter direction=%s: %+v", direction, b.timing())
	if h := eval[string](b, `document.querySelector("h1").textContent`); !strings.HasPrefix(h, want+" traces") {
		t.Errorf("direction %s: the facet counts %s, the index says %q", direction, want, h)
	}
	// A second facet on top (the first model).
	b.do("filter model", settledClick(`section[data-facet="model"] a[data-value]`),
		chromedp.WaitVisible(`section[data-facet="model"] li.on`))
	t.Logf("timing filter +model: %+v", b.timing())

	// A sort on the server: CAR descending; the column follows it over
	// every row of the page.
	b.do("sort by CAR", chromedp.Navigate(b.location()+"&sort=car&desc=1"), chromedp.WaitVisible(`table.traces`))
	t.Logf("timing sort car desc: %+v", b.timing())
	cars := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("table.traces tbody tr"), function (tr) { return tr.cells[13].textContent; })`)
	if !sortedDesc(cars) {
		t.Errorf("sorted by CAR descending, the page's CARs are %v", cars)
	}

	// Search: the box, then the heading.
	word := "the"
	b.do("search", chromedp.SetValue(`input[name="q"]`, word), chromedp.Submit(`form.search`), chromedp.WaitVisible(`h1`))
	b.wait("search answered", `location.search.indexOf("q=the") >= 0`)
	t.Logf("timing search %q: %+v", word, b.timing())
	if h := eval[string](b, `document.querySelector("h1").textContent`); !strings.Contains(h, "holding") {
		t.Errorf("search: heading %q", h)
	}
	b.shot("index-filtered")

	// Pages, then the state shared: a fresh tab on the URL shows the same.
	if eval[bool](b, `!!document.querySelector('nav.pages a[rel="next"]')`) {
		b.do("next page", settledClick(`nav.pages a[rel="next"]`), chromedp.WaitVisible(`nav.pages a[rel="prev"]`))
		t.Logf("timing page 2: %+v", b.timing())
	} else {
		t.Logf("the filtered index has one page: pagination not tried here")
	}
	shared := b.location()
	state := eval[string](b, `document.querySelector("main").innerText`)
	first := b.ctx
	b.ctx = b.tab()
	b.do("shared URL", chromedp.Navigate(shared), chromedp.WaitVisible(`h1`))
	if again := eval[string](b, `document.querySelector("main").innerText`); again != state {
		t.Errorf("the shared URL %s shows another state in a fresh tab", shared)
	}
	b.ctx = first

	// A trace of the filter: its page, the next and back.
	b.do("open a trace", settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
	t.Logf("timing trace page: %+v", b.timing())
	checkTracePage(t, b, "trace")
	loc, err := url.Parse(b.location())
	if err != nil {
		t.Fatal(err)
	}
	trace := "/trace?id=" + url.QueryEscape(loc.Query().Get("id")) // the trace alone, out of its filter
	if eval[bool](b, `!!document.querySelector("#next")`) {
		pos := eval[string](b, `document.querySelector("nav.trail").textContent`)
		b.do("next trace", settledClick(`#next`), chromedp.WaitVisible(`#prev`))
		t.Logf("timing next trace: %+v", b.timing())
		now := eval[string](b, `document.querySelector("nav.trail").textContent`)
		if p, n := position(pos), position(now); n != p+1 {
			t.Errorf("next: %q then %q", pos, now)
		}
		b.do("previous trace", settledClick(`#prev`), chromedp.WaitVisible(`h1.trace-id`))
		if back := eval[string](b, `document.querySelector("nav.trail").textContent`); position(back) != position(pos) {
			t.Errorf("previous: %q, was %q", back, pos)
		}
	}

	// An aligned trace with evidence: the best CAR of en-x.
	b.do("an aligned trace", chromedp.Navigate(base+"/?direction=en-x&sort=car&desc=1"), chromedp.WaitVisible(`h1`))
	if eval[bool](b, `!!document.querySelector("a.trace-link")`) {
		b.do("open it", settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
		t.Logf("timing aligned trace page: %+v", b.timing())
		checkTracePage(t, b, "trace-aligned")
		checkAlignedTrace(t, b)
		// The same problem in other languages: the comparison's links.
		related := eval[int](b, `document.querySelectorAll("table.related a").length`)
		if related == 0 {
			t.Errorf("no link to the same problem's other traces")
		} else {
			b.do("a related trace", settledClick(`table.related a`), chromedp.WaitVisible(`tr.current`))
			t.Logf("timing related trace: %+v", b.timing())
		}
		b.do("compare", settledClick(`a.compare`), chromedp.WaitVisible(`p.chip`))
		t.Logf("timing comparison view: %+v (%s)", b.timing(), eval[string](b, `document.querySelector("h1").textContent`))
		b.shot("compare")
	}

	// The x-en page never asks to run datg align.
	b.do("an x-en trace", chromedp.Navigate(base+"/?direction=x-en"), chromedp.WaitVisible(`h1`))
	if eval[bool](b, `!!document.querySelector("a.trace-link")`) {
		b.do("open it", settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
		if s := eval[string](b, `document.body.innerText`); strings.Contains(s, "run datg align") {
			t.Errorf("an x-en trace page says to run datg align")
		}
		b.shot("trace-x-en")
	}

	// The tables page: a cell opens the traces it counts.
	// Its first answer comes at once: the tables, or while the viewer
	// computes them, how far along that is (the page reloads itself).
	asked := time.Now()
	b.do("tables", chromedp.Navigate(base+"/tables"), chromedp.WaitVisible(`h1`))
	t.Logf("timing tables, first answer: %+v (tables being computed: %v)", b.timing(), eval[bool](b, `!!document.querySelector("p.busy")`))
	b.do("tables ready", chromedp.WaitVisible(`table.paper`))
	t.Logf("timing tables: shown %v after the first answer was asked for", time.Since(asked).Round(time.Millisecond))
	b.shot("tables")
	cell := eval[[]string](b, `(function () { var t = document.querySelector("section#t-accuracy table.paper") || document.querySelector("table.paper");
		var heads = Array.prototype.map.call(t.querySelectorAll("th"), function (th) { return th.textContent; });
		var i = heads.indexOf("n"); var row = t.querySelector("tbody tr");
		return [row.querySelector("a").getAttribute("href"), i >= 0 ? row.cells[i].textContent : "", t.closest("section").id]; })()`)
	b.do("a cell", chromedp.Navigate(base+cell[0]), chromedp.WaitVisible(`h1`))
	if h := eval[string](b, `document.querySelector("h1").textContent`); cell[1] != "" && !strings.HasPrefix(h, cell[1]+" traces") {
		t.Errorf("%s: the cell counts %s, its link opens %q", cell[2], cell[1], h)
	} else {
		t.Logf("%s: cell n=%s opens %q", cell[2], cell[1], h)
	}

	// Errors: an unknown trace is a 404 that says so (in a tab of its
	// own: Chromium logs the 404).
	errs := newBrowser(t, 1280, 900)
	errs.do("unknown trace", chromedp.Navigate(base+"/trace?id=nosuch"), chromedp.WaitVisible(`h1`))
	if h := eval[string](errs, `document.body.innerText`); !strings.Contains(h, "404 Not Found") || !strings.Contains(h, "nosuch") {
		t.Errorf("unknown trace: %q", h)
	}

	// Phone width: no page is wider than the screen.
	phone := newBrowser(t, 390, 844)
	for _, p := range []struct{ name, path string }{{"index", "/"}, {"tables", "/tables"}} {
		phone.do(p.name, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+p.path), chromedp.WaitVisible(`h1`))
		phone.shot("phone-" + p.name)
		if w := eval[int](phone, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("phone: %s is %d px wide on a 390 px screen", p.name, w)
		}
	}
	phone.do("trace", chromedp.EmulateViewport(390, 844), chromedp.Navigate(shared), chromedp.WaitVisible(`h1`), settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
	phone.shot("phone-trace")
	if w := eval[int](phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("phone: the trace page is %d px wide on a 390 px screen", w)
	}

	if fs := b.foreign(base); len(fs) > 0 {
		t.Errorf("pages asked for URLs off the viewer: %v", fs)
	}
	if c := append(b.console(), phone.console()...); len(c) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(c, "\n"))
	}

	// The targets, as the browser sees them: each page loaded
	// five times, the median of its Navigation Timing.
	timed := newBrowser(t, 1280, 900)
	for _, p := range []struct{ name, path string }{
		{"index", "/"}, {"filter", "/?direction=en-x&level=high&mv=correct"},
		{"range + sort + page 3", "/?car_min=0.4&car_max=0.8&sort=har&desc=1&page=3"},
		{"search made before + filter", "/?q=the&direction=x-en"},
		{"trace page", trace}, {"trace page in a filter", trace + "&direction=" + direction},
	} {
		t.Logf("median of 5, %s (%s): %s", p.name, p.path, timed.median(base+p.path, 5))
	}

	exportRun := os.Getenv("DATG_VIEW_EXPORT_RUN")
	if exportRun != "" {
		checkExport(t, exportRun)
	}
}

// checkTracePage checks what every trace page has.
func checkTracePage(t *testing.T, b *browser, shot string) {
	t.Helper()
	b.wait("math rendered", `document.querySelectorAll("span.math").length === document.querySelectorAll("span.math[data-tex]").length`)
	b.shot(shot)
	id := eval[string](b, `document.querySelector("h1.trace-id").textContent`)
	langs := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll(".question"), function (q) { return q.getAttribute("lang"); })`)
	if len(langs) == 0 || !contains(langs, "en") {
		t.Errorf("%s: the problem is in %v (the input language and English wanted)", id, langs)
	}
	if g := eval[string](b, `(document.querySelector(".gold") || {}).textContent || ""`); g == "" {
		t.Errorf("%s: no gold", id)
	}
	graders := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("section.decisions table:first-of-type tr td:first-child"), function (td) { return td.textContent; })`)
	detectors := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("section.decisions table:last-of-type tr td:first-child"), function (td) { return td.textContent; })`)
	if !contains(graders, "math-verify") || !contains(graders, "multilingual") || !contains(detectors, "langdetect") || !contains(detectors, "lingua") {
		t.Errorf("%s: graders %v, detectors %v", id, graders, detectors)
	}
	if errs := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll(".math-error"), function (e) { return e.getAttribute("data-tex") + ": " + e.title; })`); len(errs) > 0 {
		t.Logf("%s: %d math spans KaTeX refused, e.g. %q", id, len(errs), errs[0])
	}
	if raw := eval[[]string](b, `(function () { var out = []; var w = document.createTreeWalker(document.querySelector(".trace-text"), NodeFilter.SHOW_TEXT);
		for (var n = w.nextNode(); n; n = w.nextNode()) { if (!n.parentElement.closest(".katex, .math-error") && /\\(frac|sqrt|boxed)\b/.test(n.textContent)) { out.push(n.textContent.slice(0, 80)); } }
		return out; })()`); len(raw) > 0 {
		t.Errorf("%s: raw LaTeX in the trace: %q", id, raw)
	}
}

// checkAlignedTrace checks the alignment part of an aligned trace's page.
func checkAlignedTrace(t *testing.T, b *browser) {
	t.Helper()
	id := eval[string](b, `document.querySelector("h1.trace-id").textContent`)
	dags := eval[int](b, `document.querySelectorAll("figure.dag-figure").length`)
	best := eval[int](b, `document.querySelectorAll("figure.dag-figure b.best").length`)
	arrows := eval[int](b, `document.querySelectorAll("figure.dag-figure svg.dag path[marker-end]").length`)
	edges := eval[int](b, `document.querySelectorAll("figure.dag-figure svg.dag path").length`)
	labelMath := eval[int](b, `document.querySelectorAll("figure.dag-figure svg.dag .katex").length`)
	side := eval[int](b, `document.querySelectorAll(".side-by-side figure.aligner").length`)
	t.Logf("%s: %d DAGs, %d marked best, %d of %d edge paths with arrowheads, %d rendered math in labels, %d aligners side by side",
		id, dags, best, arrows, edges, labelMath, side)
	if dags < 5 || best != 1 || arrows == 0 {
		t.Errorf("%s: %d DAGs (5 wanted), %d best (1), %d arrowheads", id, dags, best, arrows)
	}
	// Edges avoid boxes: no point of an edge lies inside a node's box
	// other than its own ends', as Chromium lays the SVG out.
	crossings := eval[[]string](b, `(function () { var out = [];
		document.querySelectorAll("svg.dag").forEach(function (svg) {
			var boxes = Array.prototype.map.call(svg.querySelectorAll("g.dag-node"), function (g) {
				var r = g.querySelector("rect"); return {id: g.getAttribute("data-node"), x: +r.getAttribute("x"), y: +r.getAttribute("y"), w: +r.getAttribute("width"), h: +r.getAttribute("height")}; });
			svg.querySelectorAll("path.dag-edge").forEach(function (e) {
				var from = e.getAttribute("data-from"), to = e.getAttribute("data-to"), n = e.getTotalLength();
				for (var k = 0; k <= 100; k++) { var p = e.getPointAtLength(n * k / 100);
					boxes.forEach(function (b) { if (b.id !== from && b.id !== to && p.x > b.x + 1 && p.x < b.x + b.w - 1 && p.y > b.y + 1 && p.y < b.y + b.h - 1) {
						out.push(svg.getAttribute("data-dag") + ": " + from + "->" + to + " crosses " + b.id); } }); } }); });
		return out.filter(function (v, i, a) { return a.indexOf(v) === i; }); })()`)
	if len(crossings) > 0 {
		t.Errorf("%s: edges cross node boxes: %q", id, crossings)
	}
	cut := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll(".dag-label"), function (el) {
		return (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) ? el.textContent : ""; }).filter(function (s) { return s; })`)
	if len(cut) > 0 {
		t.Errorf("%s: %d DAG labels overflow their boxes: %q", id, len(cut), cut)
	}
	// A node of the shown DAG with evidence: click it.
	node := eval[string](b, `(function () { var spans = document.querySelectorAll(".trace-text .ev[data-nodes]");
		for (var i = 0; i < spans.length; i++) { var ids = JSON.parse(spans[i].getAttribute("data-nodes")); if (ids.length) { return ids[0]; } } return ""; })()`)
	if node == "" {
		t.Errorf("%s: no span of the text is linked to a node", id)
		return
	}
	b.do("click node", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`),
		settledClick(fmt.Sprintf(`figure.dag-figure.shown [data-node=%q]`, node)), chromedp.Sleep(300_000_000))
	inView := eval[bool](b, `(function () { var s = document.querySelector(".trace-text .ev.selected"); if (!s) { return false; }
		var r = s.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })()`)
	if !inView {
		t.Errorf("%s: clicking %s did not bring a highlighted span into view", id, node)
	}
	b.shot("trace-node-clicked")
	b.do("click span", settledClick(`.trace-text .ev.selected`), chromedp.Sleep(300_000_000))
	if !eval[bool](b, `!!document.querySelector("figure.dag-figure.shown [data-node].selected")`) {
		t.Errorf("%s: clicking %s's span did not mark the node", id, node)
	}
	if eval[int](b, `document.querySelectorAll("details.repeat").length`) > 0 {
		t.Logf("%s: folded repeats: %s", id, eval[string](b, `document.querySelector("details.repeat > summary").textContent`))
	}
}

// checkExport exports traces of run with datg explain and opens the
// pages as files: the same templates, math rendered, nothing asked of the
// network, an empty console.
func checkExport(t *testing.T, run string) {
	t.Helper()
	datg := os.Getenv("DATG")
	if datg == "" {
		datg = "bin/datg"
	}
	out := t.TempDir()
	cmd := exec.Command(datg, "explain", "--data", run, "--out", out, "--filter", "direction=en-x&mv=incorrect")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("datg explain: %v\n%s", err, msg)
	}
	b := newBrowser(t, 1280, 900)
	b.do("export index", chromedp.Navigate("file://"+filepath.Join(out, "index.html")), chromedp.WaitVisible(`h1`))
	b.shot("export-index")
	b.do("export page", settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
	checkTracePage(t, b, "export-trace")
	if fs := b.foreign("file://"); len(fs) > 0 {
		t.Errorf("the export asked for: %v", fs)
	}
	if c := b.console(); len(c) > 0 {
		t.Errorf("the export's console is not empty:\n%s", strings.Join(c, "\n"))
	}
}

// median loads u n times and gives the median of its Navigation
// Timing's response and load times, in ms.
func (b *browser) median(u string, n int) string {
	b.t.Helper()
	var resp, load []float64
	for range n {
		b.do("load "+u, chromedp.Navigate(u), chromedp.WaitVisible(`h1`))
		nt := b.timing()
		resp, load = append(resp, nt.Response), append(load, nt.Loaded)
	}
	sort.Float64s(resp)
	sort.Float64s(load)
	return fmt.Sprintf("response %.0f ms, loaded %.0f ms (responses %.0f)", resp[n/2], load[n/2], resp)
}

var positionRE = regexp.MustCompile(`trace ([0-9,]+) of`)

// position is the place a trace page's trail gives.
func position(trail string) int {
	m := positionRE.FindStringSubmatch(trail)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n
}

// sortedDesc says the numbers (or "—" for none, last) are in descending order.
func sortedDesc(cells []string) bool {
	var xs []float64
	for _, c := range cells {
		x, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
		if err != nil {
			x = -1
		}
		xs = append(xs, x)
	}
	return sort.SliceIsSorted(xs, func(i, j int) bool { return xs[i] > xs[j] })
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
