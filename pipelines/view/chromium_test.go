package view

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A user in Chromium filters the index, pages, opens a trace and clicks a
// node: its evidence is scrolled into view and highlighted, and a click on
// the evidence highlights the node; \frac{a}{b} in the trace is KaTeX's
// output, the DAG's edges end in arrowheads, and the console stays empty
// (no CSP violation, no script error, no failed load). Then what issue
// 22's reviewers check by hand: the state of the index is a URL that a
// fresh tab shows the same; previous and next walk the filter; the trace
// page links the comparison view of its problem; a paper table's cell
// opens as many traces as it counts; no page asks anything of another
// origin; and at a phone's width no page is wider than the screen.
func TestViewerInChromium(t *testing.T) {
	tablesAtOpen(t) // as datg view: ready, or nearly, when the test opens them
	ts := serve(t, writeRun(t, 60))
	b := newBrowser(t, 1200, 800)
	b.within(120 * time.Second)
	str := func(a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(b.ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	// The page comes with its Content-Security-Policy.
	resp, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(ts.URL+"/"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := resp.Headers["Content-Security-Policy"].(string); got != csp {
		t.Errorf("the index's Content-Security-Policy is %q", got)
	}

	// Filter: direction en-x; then the second page of its 61 traces.
	// (The unfiltered index has a next page too: wait for the filtered
	// page, its value marked on, before reading it.)
	b.do("filter", chromedp.Navigate(ts.URL+"/"),
		settledClick(`section[data-facet="direction"] a[data-value="en-x"]`),
		chromedp.WaitVisible(`section[data-facet="direction"] li.on a[data-value="en-x"]`),
		chromedp.WaitVisible(`nav.pages a[rel="next"]`))
	heading := str(chromedp.Text(`h1`))
	clickThrough(t, b, "paginate", `nav.pages a[rel="next"]`, `!!document.querySelector('nav.pages a[rel="prev"]')`)
	pageNote, url := str(chromedp.Text(`nav.pages`)), b.location()
	links := eval[int](b, `document.querySelectorAll("a.trace-link").length`)
	if !strings.HasPrefix(heading, "61 traces") || !strings.Contains(pageNote, "page 2 of 2") || links != 11 ||
		!strings.Contains(url, "direction=en-x") || !strings.Contains(url, "page=2") {
		t.Fatalf("filter and page: %q, %q, %v links, %s", heading, pageNote, links, url)
	}
	// The state shared: a fresh tab on the URL shows the same page.
	state := eval[string](b, `document.querySelector("main").innerText`)
	first := b.ctx
	b.ctx = b.tab()
	b.do("the shared URL", chromedp.Navigate(url), chromedp.WaitVisible(`nav.pages a[rel="prev"]`))
	if again := eval[string](b, `document.querySelector("main").innerText`); again != state {
		t.Errorf("the shared URL %s shows another page in a fresh tab", url)
	}
	b.ctx = first

	// Open t-en-x (its model sorts last: on page 2); KaTeX renders its math.
	clickThrough(t, b, "open the trace", `//a[@class="trace-link"][text()="t-en-x"]`, `!!document.querySelector("figure.dag-figure.shown")`)
	b.wait("math rendered", `document.querySelectorAll(".trace-text .katex").length > 0`)
	if eval[int](b, `document.querySelectorAll(".trace-text .katex .mfrac").length`) == 0 {
		t.Errorf("\\frac{a}{b} in the trace is not a rendered fraction")
	}
	if eval[int](b, `document.querySelectorAll("figure.dag-figure.shown svg.dag .katex").length`) == 0 {
		t.Errorf("the DAG's labels hold no rendered math")
	}
	if eval[int](b, `document.querySelectorAll("figure.dag-figure.shown svg.dag path[marker-end]").length`) == 0 {
		t.Errorf("the DAG's edges have no arrowheads")
	}
	if eval[int](b, `document.querySelectorAll("figure.dag-figure.shown svg.dag marker").length`) == 0 {
		t.Errorf("the DAG has no arrowhead markers")
	}

	// Model text (the model's name, the verdicts, the DAG's labels, the
	// trace) is text: no element of it reached the page.
	if n := eval[int](b, `document.querySelectorAll("main img, main script, main [onerror]").length`); n != 0 {
		t.Errorf("hostile model text made %d elements", n)
	}

	// Click node n2 of the shown DAG: its evidence scrolls into view, highlighted.
	b.do("click n2", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`),
		settledClick(`figure.dag-figure.shown [data-node="n2"]`))
	b.settle(`document.querySelectorAll('.trace-text .ev.selected').length > 0`)
	if n := eval[int](b, `document.querySelectorAll('.trace-text .ev.selected').length`); n != 1 {
		t.Errorf("clicking n2 highlighted %v spans, want 1", n)
	}
	inView := eval[bool](b, `(function () {
		var s = document.querySelector('.trace-text .ev.selected');
		if (!s) { return false; }
		var r = s.getBoundingClientRect();
		return s.textContent === "b = a + 1" && r.top >= 0 && r.bottom <= window.innerHeight;
	})()`)
	if !inView {
		t.Errorf("n2's evidence is not in view after the click")
	}
	// Click the evidence of n1: n1's box is highlighted.
	b.do("click n1's evidence", settledClick(`.trace-text .ev.commit`))
	b.settle(`!!document.querySelector('figure.dag-figure.shown [data-node="n1"].selected')`)
	if !eval[bool](b, `!!document.querySelector('figure.dag-figure.shown [data-node="n1"].selected')`) {
		t.Errorf("clicking n1's evidence did not highlight n1")
	}

	// Previous within the filter: t-en-x is the last of the 61, so the
	// one before it is the 60th, and its next is t-en-x again.
	trail := eval[string](b, `document.querySelector("nav.trail").textContent`)
	clickThrough(t, b, "previous", `#prev`, `!!document.querySelector("#next")`)
	if now := evalAcross[string](t, b, `document.querySelector("nav.trail").textContent`); !strings.Contains(trail, "trace 61 of 61") || !strings.Contains(now, "trace 60 of 61") {
		t.Errorf("previous: %q, then %q", trail, now)
	}
	clickThrough(t, b, "next", `#next`, `!document.querySelector("#next")`)
	if id := evalAcross[string](t, b, `document.querySelector("h1.trace-id").textContent`); id != "t-en-x" {
		t.Errorf("previous then next opened %q, not t-en-x", id)
	}

	// The comparison view: the index of the problem's 63 traces; from it
	// the x-en trace, whose page never asks to run datg align.
	clickThrough(t, b, "compare", `a.compare`, `!!document.querySelector("p.chip") && !document.querySelector("h1.trace-id")`)
	if h := evalAcross[string](t, b, `document.querySelector("h1").textContent`); !strings.HasPrefix(h, "63 traces") {
		t.Errorf("the comparison view of low-0: %q", h)
	}

	// A paper table's cell opens as many traces as it counts: a click on
	// the n cell itself (the row's one link, its first cell's, stretched
	// over the row).
	b.do("tables", chromedp.Navigate(ts.URL+"/tables"), chromedp.WaitVisible(`#t-accuracy_groups table.paper`))
	cell := eval[[]string](b, `(function () { var t = document.querySelector("#t-accuracy_groups table.paper");
		var i = Array.prototype.map.call(t.querySelectorAll("th"), function (th) { return th.textContent; }).indexOf("n");
		var row = t.querySelector("tbody tr"); return [row.cells[i].textContent, row.querySelector("a").href, String(i + 1)]; })()`)
	if cell[2] == "1" {
		t.Fatal("accuracy_groups: n is the first column: a click on it would not test the stretched link")
	}
	clickThrough(t, b, "a cell", `#t-accuracy_groups table.paper tbody tr:first-child td:nth-child(`+cell[2]+`)`, `!!document.querySelector("h1") && !document.querySelector("table.paper")`)
	if h := evalAcross[string](t, b, `document.querySelector("h1").textContent`); !strings.HasPrefix(h, cell[0]+" traces") {
		t.Errorf("accuracy_groups: the n cell counts %s, its row's link %s opens %q", cell[0], cell[1], h)
	}

	// A desktop and a phone: no page is wider than its screen (wide
	// tables and DAGs scroll inside their own boxes).
	for _, width := range []int64{1200, 390} {
		for _, path := range []string{"/", "/?direction=en-x&page=2", "/trace?id=t-en-x", "/tables"} {
			b.do("at "+path, chromedp.EmulateViewport(width, 844), chromedp.Navigate(ts.URL+path), chromedp.WaitVisible(`h1`))
			if w := eval[int64](b, `document.documentElement.scrollWidth`); w > width {
				t.Errorf("%s is %d px wide on a %d px screen", path, w, width)
			}
			// The legend's chips never break inside ("harmful" on one
			// line, "action" on the next).
			if strings.HasPrefix(path, "/trace") && eval[int](b, `document.querySelector(".legend .ev.harmful").getClientRects().length`) != 1 {
				t.Errorf("at %d px the legend's harmful-action chip breaks across lines", width)
			}
			// On a phone a facet's values sit side by side, so the facets
			// above the results take a screen, not several.
			if path == "/" && width < 700 && !eval[bool](b, `(function () { var li = document.querySelectorAll('section[data-facet="direction"] li');
				return li.length > 1 && li[0].getBoundingClientRect().top === li[1].getBoundingClientRect().top; })()`) {
				t.Errorf("on a phone, a facet's values are one a line")
			}
		}
	}

	if f := b.foreign(ts.URL); len(f) > 0 {
		t.Errorf("pages asked for URLs off the viewer: %v", f)
	}
	if c := b.console(); len(c) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(c, "\n"))
	}
}
