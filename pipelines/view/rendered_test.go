package view

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// ask is path asked with the given headers, by a client that leaves the
// body as it came (no transparent gunzip).
func ask(t *testing.T, ts *httptest.Server, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// The ready /tables page is rendered once per generation: the same bytes
// as rendering it anew, an ETag that a 304 answers, gzip that decodes to
// those bytes, the security headers on each; one link a row; and a new
// commit's page is a new page, never the old one.
func TestTablesPageIsRenderedOnce(t *testing.T) {
	s, ts := serveShared(t)
	body := tablesWhenReady(t, ts)
	task := currentTask(s)
	page := task.status().page
	want, err := render("tables", &pageInfo{Title: "paper tables", Generation: s.cur.gen}, page)
	if err != nil {
		t.Fatal(err)
	}
	if body != want {
		t.Fatalf("the served page is not the page rendered anew:\n%s\n---\n%s", body, want)
	}
	kept := page.renders.byInfo[pageInfo{Title: "paper tables", Generation: s.cur.gen}]
	if kept == nil || len(page.renders.byInfo) != 1 {
		t.Fatalf("the page is not kept once: %v", page.renders.byInfo)
	}

	resp, plain := ask(t, ts, "/tables")
	etag := resp.Header.Get("ETag")
	if string(plain) != body || !strings.HasPrefix(etag, `W/"`) || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("the second load: %d bytes, ETag %q, Cache-Control %q", len(plain), etag, resp.Header.Get("Cache-Control"))
	}
	if page.renders.byInfo[pageInfo{Title: "paper tables", Generation: s.cur.gen}] != kept {
		t.Errorf("the page was rendered again")
	}
	secured := func(what string, h http.Header) {
		t.Helper()
		if h.Get("Content-Security-Policy") != csp || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: the security headers are lost: %v", what, h)
		}
	}
	secured("200", resp.Header)

	for _, inm := range []string{etag, strings.TrimPrefix(etag, "W/"), `"x", ` + etag, "*"} {
		resp, b := ask(t, ts, "/tables", "If-None-Match", inm)
		if resp.StatusCode != http.StatusNotModified || len(b) != 0 {
			t.Errorf("If-None-Match %s: %d, %d bytes", inm, resp.StatusCode, len(b))
		}
		secured("304", resp.Header)
	}
	if resp, b := ask(t, ts, "/tables", "If-None-Match", `W/"other"`); resp.StatusCode != 200 || string(b) != body {
		t.Errorf("another ETag: %d, %d bytes", resp.StatusCode, len(b))
	}

	for _, ae := range []string{"gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.5", "*"} {
		resp, b := ask(t, ts, "/tables", "Accept-Encoding", ae)
		if resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, Vary %q", ae, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
			continue
		}
		secured("gzip", resp.Header)
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || string(unzipped) != body {
			t.Errorf("Accept-Encoding %q: the gzipped page decodes to %d bytes (%v), not the page's %d", ae, len(unzipped), err, len(body))
		}
		if len(b) >= len(body) {
			t.Errorf("gzipped: %d bytes of %d", len(b), len(body))
		}
	}
	for _, ae := range []string{"", "gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0, *"} {
		if resp, b := ask(t, ts, "/tables", "Accept-Encoding", ae); resp.Header.Get("Content-Encoding") != "" || string(b) != body {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", ae, resp.Header.Get("Content-Encoding"))
		}
	}

	// One link a row, its first cell's, to the row's traces.
	var hrefs []string
	for _, tv := range page.Tables {
		for _, row := range tv.Rows {
			if row.Href != "" {
				hrefs = append(hrefs, row.Href)
			}
		}
	}
	linked := regexp.MustCompile(`<tr class="linked"><td><a class="row" href="([^"]*)">`).FindAllStringSubmatch(body, -1)
	if len(hrefs) == 0 || len(linked) != len(hrefs) {
		t.Fatalf("%d rows link, the page has %d linked rows", len(hrefs), len(linked))
	}
	for i, m := range linked {
		if html.UnescapeString(m[1]) != hrefs[i] {
			t.Errorf("row %d links %s, not %s", i, html.UnescapeString(m[1]), hrefs[i])
		}
	}
	if n := strings.Count(body, "<a "); n != len(hrefs)+len(page.Tables)+2 { // the rows, the contents, the header's two
		t.Errorf("%d links on the page for %d linked rows and %d tables", n, len(hrefs), len(page.Tables))
	}
}

// A new commit's /tables is a new page, never the old one, whatever the
// browser holds: not a 304 to the old page's ETag, new bytes, a new ETag.
// (Every table's query fails here, fast: the page is ready, and kept, as
// a page of tables is; what is tested is that it is the generation's.)
func TestTablesPageOfANewCommitIsNew(t *testing.T) {
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table != "" {
			return errors.New("not computed in this test")
		}
		return nil
	})
	dir := writeRun(t, 2)
	s, ts := serveWith(t, dir, t.TempDir())
	body := tablesWhenReady(t, ts)
	resp, _ := ask(t, ts, "/tables")
	etag, task := resp.Header.Get("ETag"), currentTask(s)
	if etag == "" || !strings.Contains(body, "not computed in this test") {
		t.Fatalf("the first generation's page: ETag %q\n%s", etag, body)
	}
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces = append(traces, schema.Trace{TraceID: "new", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base"})
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	if resp, _ := ask(t, ts, "/tables", "If-None-Match", etag); resp.StatusCode == http.StatusNotModified {
		t.Fatalf("the new commit's /tables answers 304 to the old page's ETag")
	}
	newer := tablesWhenReady(t, ts)
	resp, _ = ask(t, ts, "/tables", "If-None-Match", etag)
	if newer == body || resp.StatusCode != 200 || resp.Header.Get("ETag") == etag || currentTask(s) == task {
		t.Errorf("the new commit's page: same bytes %v, status %d, ETag %s (was %s)", newer == body, resp.StatusCode, resp.Header.Get("ETag"), etag)
	}
}

// A page's frame differs on the first load after a commit (the banner):
// each frame is its own rendering, the same bytes as rendering it anew.
func TestRenderedPagesByFrame(t *testing.T) {
	page := &tablesPage{Tables: []tableView{{Name: "accuracy", Columns: []string{"model", "n"},
		Rows: []tableRow{{Cells: []string{hostile, "3"}, Href: "/?model=" + urlQueryEscape(hostile)}}}}}
	for _, moved := range []bool{false, true, false} {
		info := &pageInfo{Title: "paper tables", Generation: 7, Moved: moved}
		got, err := page.renderings().get("tables", info, page)
		if err != nil {
			t.Fatal(err)
		}
		want, err := render("tables", &pageInfo{Title: "paper tables", Generation: 7, Moved: moved}, page)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.body) != want || strings.Contains(want, "<script>alert") {
			t.Errorf("moved %v: the kept page is not the page rendered anew (or not escaped):\n%s\n---\n%s", moved, got.body, want)
		}
		if strings.Contains(want, "The run has a new commit") != moved {
			t.Errorf("moved %v: the banner", moved)
		}
	}
	if len(page.renders.byInfo) != 2 {
		t.Errorf("%d renderings for two frames", len(page.renders.byInfo))
	}
	if (&tablesPage{Busy: &tablesProgress{}}).renderings() != nil {
		t.Errorf("a page of progress is kept")
	}
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "x-gzip": true, "deflate, gzip": true, "gzip;q=0": false, "gzip; q=0.001": true,
		"gzip;q=0.0": false, "gzip;q=x": false, "gzip;q=2": false, "*": true, "*;q=0": false, "gzip;q=0, *": false, "*, gzip;q=0": false,
		"identity": false, "br": false, "gzipx": false, " gzip ; q=1 ": true, "br;q=1, gzip;q=0.5": true,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v", header, got)
		}
	}
}

func TestETagMatches(t *testing.T) {
	const etag = `W/"abc"`
	for header, want := range map[string]bool{
		"": false, `W/"abc"`: true, `"abc"`: true, `"x", W/"abc"`: true, "*": true, `"ab"`: false, `W/"abcd"`: false, `abc`: false,
	} {
		if got := etagMatches(header, etag); got != want {
			t.Errorf("etagMatches(%q) = %v", header, got)
		}
	}
}
