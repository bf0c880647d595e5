package view

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// hostileTrace is model text written to break a page in each way the
// issue's reviewers try: a script, a closing textarea, template actions,
// an \href to javascript: inside math (KaTeX's trust is off), a KaTeX
// macro defined in one math span and used in the next (it must not
// leak), an image with an onerror, a \url and an \htmlId.
const hostileTrace = "Start <script>window.__pwned = 1</script> then </textarea><b>bold</b> and {{.T.ID}} {{template \"x\"}}\n\n" +
	`the link $\href{javascript:window.__pwned=2}{click}$ and $\def\leak{DEFINED}\leak$ then $\leak$ and ` +
	`$\url{javascript:window.__pwned=4}$ and $\htmlId{x}{y}$ and <img src=x onerror="window.__pwned=3"> and \frac{a}{b}` + "\n\n\\boxed{2}"

// A trace whose text is hostile, as Chromium runs the page: no script of
// the text runs, no link to javascript: is made, the text is shown as it
// is (template actions included), a KaTeX macro of one math span does not
// reach the next, and the console stays empty. The same for hostile query
// parameters: the search box and heading show them as text.
func TestHostileTraceInChromium(t *testing.T) {
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{{TraceID: `t-<script>window.__pwned=5</script>`, Model: "m",
		Direction: "en-x", InputLang: "en", ReasoningLang: "sw", Level: "low", ProblemID: "low-0", Method: "base", Text: hostileTrace, TextHash: "h"}}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, dir)
	b := newBrowser(t, 1200, 800)
	b.do("the index", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`a.trace-link`))
	b.do("the trace", settledClick(`a.trace-link`), chromedp.WaitVisible(`.trace-text`))
	b.wait("math rendered", `document.querySelectorAll(".trace-text span.math").length === document.querySelectorAll(".trace-text span.math[data-tex]").length`)

	if pwned := eval[string](b, `String(window.__pwned)`); pwned != "undefined" {
		t.Errorf("the trace's text ran script %s", pwned)
	}
	if n := eval[int](b, `document.querySelectorAll('[href^="javascript" i], [src^="javascript" i], main [onerror], main script, main img, main textarea').length`); n != 0 {
		t.Errorf("the text made %d live elements (javascript: links, handlers, scripts, images)", n)
	}
	text := eval[string](b, `document.querySelector(".trace-text").textContent`)
	for _, want := range []string{"<script>window.__pwned = 1</script>", "</textarea><b>bold</b>", `{{.T.ID}} {{template "x"}}`, `<img src=x onerror="window.__pwned=3">`} {
		if !strings.Contains(text, want) {
			t.Errorf("the trace text lacks %q as text: %q", want, text)
		}
	}
	if id := eval[string](b, `document.querySelector("h1.trace-id").textContent`); id != `t-<script>window.__pwned=5</script>` {
		t.Errorf("the id is shown as %q", id)
	}
	// Each math span is rendered on its own: \leak defined in one is
	// undefined in the next (KaTeX refuses it, so it stays as its text).
	spans := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll(".trace-text span.math"), function (s) {
		return s.getAttribute("data-tex") + " => " + (s.classList.contains("math-error") ? "error" : s.querySelector(".katex-html").textContent); })`)
	t.Logf("math spans: %q", spans)
	for _, s := range spans {
		if strings.HasPrefix(s, `\leak =>`) && strings.Contains(s, "DEFINED") {
			t.Errorf("a KaTeX macro of one span reached the next: %s", s)
		}
	}
	if n := eval[int](b, `document.querySelectorAll(".trace-text .katex .mfrac").length`); n == 0 {
		t.Errorf("\\frac{a}{b} beside the hostile text is not rendered")
	}

	// Hostile query parameters: shown as text, never run.
	for _, q := range []string{`"><script>window.__pwned=6</script>`, `</textarea>{{.}}`, `$\href{javascript:window.__pwned=7}{x}$`} {
		b.do("a hostile search", chromedp.Navigate(ts.URL+"/?q="+url.QueryEscape(q)), chromedp.WaitVisible(`h1`))
		if got := eval[string](b, `document.querySelector('input[name="q"]').value`); got != q {
			t.Errorf("the search box holds %q, not %q", got, q)
		}
		if h := eval[string](b, `document.querySelector("h1").textContent`); !strings.Contains(h, q) {
			t.Errorf("the heading %q does not show the search %q", h, q)
		}
		if pwned := eval[string](b, `String(window.__pwned)`); pwned != "undefined" {
			t.Errorf("the search %q ran script %s", q, pwned)
		}
	}
	if fs := b.foreign(ts.URL); len(fs) > 0 {
		t.Errorf("the pages asked for URLs off the viewer: %v", fs)
	}
	if c := b.console(); len(c) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(c, "\n"))
	}
}
