package view

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// In a 1280-pixel window (a laptop's) the index's 16 columns fit beside
// the facets: HAR, the last, in sight without scrolling the table
// sideways. They needed about 1,180 pixels in a 972-pixel box, so CAR,
// PMF and HAR were hidden even on the index sorted by CAR.
func TestIndexFitsA1280Window(t *testing.T) {
	ts := serve(t, writeRun(t, 60))
	b := newBrowser(t, 1280, 900)
	b.within(90 * time.Second)
	b.do("the index by CAR", chromedp.Navigate(ts.URL+"/?sort=car&desc=1"), chromedp.WaitVisible(`table.traces`))
	over := eval[float64](b, `(() => { const w = document.querySelector('table.traces').parentElement; return w.scrollWidth - w.clientWidth; })()`)
	right := eval[float64](b, `(() => { const h = [...document.querySelectorAll('table.traces th')].pop(); return h.getBoundingClientRect().right - document.documentElement.clientWidth; })()`)
	if over > 0 || right > 0 {
		t.Errorf("the index's table is %.0f px wider than its box; its last column ends %.0f px past the window", over, right)
	}
}
