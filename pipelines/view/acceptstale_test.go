package view

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestViewerPicksUpANewCommit commits a new generation of the run a
// `datg view` is serving (DATG_VIEW_COMMIT, a shell command: another
// aligner's alignments and their scores, say) while a page of it is open
// in Chromium, then reloads: the page must read the new generation and
// say so. With DATG_VIEW_SIDE_BY_SIDE (the index's filter of the traces
// both aligners scored after the commit: aligned_by=A&aligned_by=B) its
// first trace's page must show both aligners side by side.
//
//	DATG_VIEW_URL=http://127.0.0.1:8080 DATG_VIEW_COMMIT='bin/datg align ... && bin/datg score ...' \
//	  go test -run TestViewerPicksUpANewCommit -v ./pipelines/view
func TestViewerPicksUpANewCommit(t *testing.T) {
	base := strings.TrimSuffix(os.Getenv("DATG_VIEW_URL"), "/")
	commit := os.Getenv("DATG_VIEW_COMMIT")
	if base == "" || commit == "" {
		t.Skip("DATG_VIEW_URL and DATG_VIEW_COMMIT are not set")
	}
	b := newBrowser(t, 1280, 900)
	b.do("index", chromedp.Navigate(base+"/?direction=en-x"), chromedp.WaitVisible(`h1`))
	before := eval[string](b, `document.querySelector("header .gen").textContent`)
	aligners := eval[string](b, `document.querySelector('section[data-facet="aligner"]').innerText`)
	if eval[bool](b, `!!document.querySelector("p.banner")`) {
		t.Errorf("a banner before any commit: %s", eval[string](b, `document.querySelector("p.banner").textContent`))
	}
	cmd := exec.Command("sh", "-c", commit)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", commit, err, out)
	}
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(`h1`))
	after := eval[string](b, `document.querySelector("header .gen").textContent`)
	banner := eval[string](b, `(document.querySelector("p.banner") || {}).textContent || ""`)
	t.Logf("before: %s (aligners %q); after the commit and a reload: %s, banner %q", before, aligners, after, banner)
	if after == before || !strings.Contains(banner, "new commit") || !strings.Contains(banner, strings.TrimPrefix(after, "generation ")) {
		t.Errorf("after a commit, the reloaded page reads %s (was %s) and says %q", after, before, banner)
	}
	now := eval[string](b, `document.querySelector('section[data-facet="aligner"]').innerText`)
	t.Logf("the aligner facet after the commit: %q", now)
	// The next page of the same tab: the new generation, no banner again.
	b.do("another page", chromedp.Navigate(base+"/?direction=en-en"), chromedp.WaitVisible(`h1`))
	if g := eval[string](b, `document.querySelector("header .gen").textContent`); g != after {
		t.Errorf("the next page reads %s, not %s", g, after)
	}
	if both := os.Getenv("DATG_VIEW_SIDE_BY_SIDE"); both != "" {
		b.do("traces both aligned", chromedp.Navigate(base+"/?"+both), chromedp.WaitVisible(`h1`))
		t.Logf("%s: %s", both, eval[string](b, `document.querySelector("h1").textContent`))
		b.do("trace", settledClick(`a.trace-link`), chromedp.WaitVisible(`h1.trace-id`))
		id := eval[string](b, `document.querySelector("h1.trace-id").textContent`)
		side := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll(".side-by-side figure.aligner figcaption"), function (f) { return f.textContent; })`)
		t.Logf("%s side by side: %q", id, side)
		if len(side) < 2 {
			t.Errorf("%s: %d aligners side by side, 2 wanted", id, len(side))
		}
		b.shot("side-by-side")
	}
	if c := b.console(); len(c) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(c, "\n"))
	}
}
