package view

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/datg/datg/internal/testenv"
)

// chromium finds Debian's headless browser: required when
// DATG_REQUIRE_CHROMIUM is set (CI installs it), else the test skips.
func chromium(t *testing.T) string { return testenv.Chromium(t) }

// A user in Chromium filters the index, pages, opens a trace and clicks a
// node: its evidence is scrolled into view and highlighted, and a click on
// the evidence highlights the node; \frac{a}{b} in the trace is KaTeX's
// output, the DAG's edges end in arrowheads, and the console stays empty
// (no CSP violation, no script error, no failed load).
func TestViewerInChromium(t *testing.T) {
	browser := chromium(t)
	ts := serve(t, writeRun(t, 60))
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.Flag("headless", true), chromedp.WindowSize(1200, 800), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 120*time.Second)
	defer cancelT()

	var mu sync.Mutex
	var console []string
	listen := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			console = append(console, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		case *runtime.EventExceptionThrown:
			console = append(console, fmt.Sprintf("exception: %s at %s:%d", e.ExceptionDetails.Text, e.ExceptionDetails.URL, e.ExceptionDetails.LineNumber))
		case *log.EventEntryAdded:
			console = append(console, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
		}
	})
	if listen != nil {
		t.Fatal(listen)
	}

	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(js string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	str := func(a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	// Filter: direction en-x; then the second page of its 61 traces.
	// (The unfiltered index has a next page too: wait for the filtered
	// page, its value marked on, before reading it.)
	do("filter", chromedp.Navigate(ts.URL+"/"),
		chromedp.Click(`section[data-facet="direction"] a[data-value="en-x"]`, chromedp.NodeVisible),
		chromedp.WaitVisible(`section[data-facet="direction"] li.on a[data-value="en-x"]`),
		chromedp.WaitVisible(`nav.pages a[rel="next"]`))
	heading := str(chromedp.Text(`h1`))
	do("paginate", chromedp.Click(`nav.pages a[rel="next"]`, chromedp.NodeVisible), chromedp.WaitVisible(`nav.pages a[rel="prev"]`))
	pageNote, url := str(chromedp.Text(`nav.pages`)), str(chromedp.Location())
	links := eval(`document.querySelectorAll("a.trace-link").length`)
	if !strings.HasPrefix(heading, "61 traces") || !strings.Contains(pageNote, "page 2 of 2") || links != float64(11) ||
		!strings.Contains(url, "direction=en-x") || !strings.Contains(url, "page=2") {
		t.Fatalf("filter and page: %q, %q, %v links, %s", heading, pageNote, links, url)
	}

	// Open t-en-x (its model sorts last: on page 2); KaTeX renders its math.
	do("open the trace", chromedp.Click(`//a[@class="trace-link"][text()="t-en-x"]`, chromedp.NodeVisible),
		chromedp.WaitVisible(`figure.dag-figure.shown`))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll(".trace-text .katex").length > 0`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("math not rendered: %v", err)
	}
	if n := eval(`document.querySelectorAll(".trace-text .katex .mfrac").length`); n == float64(0) {
		t.Errorf("\\frac{a}{b} in the trace is not a rendered fraction")
	}
	if n := eval(`document.querySelectorAll("figure.dag-figure.shown svg.dag path[marker-end]").length`); n == float64(0) {
		t.Errorf("the DAG's edges have no arrowheads")
	}
	if n := eval(`document.querySelectorAll("figure.dag-figure.shown svg.dag marker").length`); n == float64(0) {
		t.Errorf("the DAG has no arrowhead markers")
	}

	// Click node n2 of the shown DAG: its evidence scrolls into view, highlighted.
	do("click n2", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`),
		chromedp.Click(`figure.dag-figure.shown [data-node="n2"]`, chromedp.NodeVisible), chromedp.Sleep(300*time.Millisecond))
	if n := eval(`document.querySelectorAll('.trace-text .ev.selected').length`); n != float64(1) {
		t.Errorf("clicking n2 highlighted %v spans, want 1", n)
	}
	inView := eval(`(function () {
		var s = document.querySelector('.trace-text .ev.selected');
		if (!s) { return false; }
		var r = s.getBoundingClientRect();
		return s.textContent === "b = a + 1" && r.top >= 0 && r.bottom <= window.innerHeight;
	})()`)
	if inView != true {
		t.Errorf("n2's evidence is not in view after the click")
	}
	// Click the evidence of n1: n1's box is highlighted.
	do("click n1's evidence", chromedp.Click(`.trace-text .ev.commit`, chromedp.NodeVisible), chromedp.Sleep(200*time.Millisecond))
	if eval(`!!document.querySelector('figure.dag-figure.shown [data-node="n1"].selected')`) != true {
		t.Errorf("clicking n1's evidence did not highlight n1")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(console) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(console, "\n"))
	}
}
