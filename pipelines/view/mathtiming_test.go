package view

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestMathTimings times KaTeX on trace pages of a `datg view` already
// serving a run, as Chromium runs it: how long the page's
// DOMContentLoaded work (where the math of the first screen is rendered)
// blocks the page, and when every math span of the page is rendered
// (performance.now(), from the navigation's start). The pages are the
// longest traces of the run unless DATG_VIEW_TRACES lists ids.
//
//	DATG_VIEW_URL=http://127.0.0.1:8080 [DATG_VIEW_TRACES=id,id] go test -run TestMathTimings -v ./pipelines/view
//
// It asserts nothing about time (the machine is shared): it logs.
func TestMathTimings(t *testing.T) {
	base := strings.TrimSuffix(os.Getenv("DATG_VIEW_URL"), "/")
	if base == "" {
		t.Skip("DATG_VIEW_URL is not set (a running datg view)")
	}
	b := newBrowser(t, 1280, 900)
	var ids []string
	if s := os.Getenv("DATG_VIEW_TRACES"); s != "" {
		ids = strings.Split(s, ",")
	} else {
		b.do("index", chromedp.Navigate(base+"/?sort=tokens&desc=1"), chromedp.WaitVisible(`a.trace-link`))
		ids = eval[[]string](b, `Array.prototype.slice.call(document.querySelectorAll("a.trace-link"), 0, 5).map(function (a) { return a.textContent; })`)
	}
	for _, id := range ids {
		for i := range 3 {
			b.do("trace "+id, chromedp.Navigate(base+"/trace?id="+url.QueryEscape(id)), chromedp.WaitVisible(`h1`))
			b.wait("math rendered", `document.querySelectorAll("span.math").length === document.querySelectorAll("span.math[data-tex]").length`)
			m := eval[[]float64](b, `(function () { var n = performance.getEntriesByType("navigation")[0];
				return [n.domContentLoadedEventEnd - n.domContentLoadedEventStart, n.loadEventEnd - n.startTime,
					(window.datgMath && window.datgMath.doneAt) || performance.now(), document.querySelectorAll("span.math").length,
					document.querySelector(".trace-text").textContent.length]; })()`)
			t.Logf("%s #%d: %4.0f math spans, %6.0f chars: DOMContentLoaded work %4.0f ms, load %4.0f ms, all math rendered at %4.0f ms",
				id, i, m[3], m[4], m[0], m[1], m[2])
		}
	}
}
