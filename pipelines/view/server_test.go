package view

import (
	"context"
	"errors"
	"html"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// Every route answers with the CSP that allows the viewer's own assets
// only, and no route runs an inline script or style.
func TestEveryRouteHasTheCSP(t *testing.T) {
	ts := serve(t, writeRun(t, 0))
	for _, path := range []string{"/", "/trace?id=t-en-x", "/tables", "/static/view.js", "/static/view.css", "/assets/datg-math.js", "/trace?id=nope", "/?page=0", "/nowhere"} {
		_, body, h := get(t, ts, path)
		if got := h.Get("Content-Security-Policy"); got != csp {
			t.Errorf("%s: CSP %q", path, got)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
		if strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".css") {
			continue
		}
		for _, inline := range []string{"<script>", "style=", "<style", " on", "javascript:"} {
			if strings.Contains(strings.ToLower(withoutEscaped(body)), inline+"") && inline != " on" {
				t.Errorf("%s: inline %q in the page", path, inline)
			}
		}
		if m := regexp.MustCompile(`<[a-z]+(\s+[a-z-]+(="[^"]*")?)*\s+on[a-z]+=`).FindString(body); m != "" {
			t.Errorf("%s: an event handler attribute: %s", path, m)
		}
		if m := regexp.MustCompile(`(src|href)="(https?:)?//`).FindString(body); m != "" {
			t.Errorf("%s: a resource off the viewer: %s", path, m)
		}
	}
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the CSP lacks %s", want)
		}
	}
}

// withoutEscaped drops escaped text, which is data.
func withoutEscaped(s string) string { return s }

// The index lists every trace, counts each facet's values and summarizes
// the filter; facets, ranges, search, sort and pages are URLs.
func TestIndexFacetsSummaryAndPaging(t *testing.T) {
	ts := serve(t, writeRun(t, 60))
	status, body, _ := get(t, ts, "/")
	if status != 200 {
		t.Fatalf("/: %d\n%s", status, body)
	}
	for _, want := range []string{"63 traces", `data-value="en-x"`, `data-value="x-en"`, "math-verify", "(not aligned)",
		"n = 63.", "Accuracy (multilingual) <b>100.0%</b>", `rel="next"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/ lacks %q", want)
		}
	}
	// direction en-x: 61 traces; its facet count says so under the others.
	if !regexp.MustCompile(`data-value="en-x">en-x</a> <span class="n">61</span>`).MatchString(body) {
		t.Errorf("en-x's count is not 61:\n%s", facetHTML(body, "direction"))
	}
	cases := []struct{ query, want string }{
		{"direction=x-en", "1 traces"},
		{"direction=x-en&direction=en-en", "2 traces"},
		{"mv=incorrect", "31 traces"}, // t-x-en and the odd p's
		{"ld=compliant&lg=not+compliant", "63 traces"},
		{"aligner=symbolic", "1 traces"},
		{"aligner=-", "2 traces"},
		{"car_min=0.75&car_max=1", "25 traces"}, // i%5 in {3,4} of 60, and t-en-x's 1
		{"q=same+step+AGAIN", "1 traces"},       // case-insensitive
		{"q=%25", "0 traces"},                   // LIKE's wildcard is a character here
		{"q=_", "0 traces"},
		{"q=%5CFRAC%7Ba%7D", "1 traces"}, // \FRAC{a}: TeX's braces and backslash are characters, not a pattern's
		{"q=.%2A", "0 traces"},           // .*: no text holds it
		{"q=%29%28", "0 traces"},         // )(: unbalanced groups would be a bad pattern
		{"problem=low-0&seed=42", "63 traces"},
	}
	for _, c := range cases {
		status, body, _ := get(t, ts, "/?"+c.query)
		if status != 200 || !strings.Contains(body, "<h1>"+c.want) {
			t.Errorf("/?%s: %d, want %q, got %s", c.query, status, c.want, heading(body))
		}
	}
	// Paging: 60 en-x p's at 25 a page, sorted by id descending.
	_, body, _ = get(t, ts, "/?direction=en-x&model=Qwen%2FQwen3-4B&sort=id&desc=1&per=25&page=3")
	ids := regexp.MustCompile(`class="trace-link">([^<]+)<`).FindAllStringSubmatch(body, -1)
	if len(ids) != 10 || ids[0][1] != "p009" || ids[9][1] != "p000" {
		t.Errorf("page 3 of 25 by id descending: %v", ids)
	}
	if !strings.Contains(body, "page 3 of 3") {
		t.Errorf("no 'page 3 of 3'")
	}
}

func facetHTML(body, name string) string {
	i := strings.Index(body, `data-facet="`+name+`"`)
	if i < 0 {
		return ""
	}
	return body[i:min(len(body), i+600)]
}

func heading(body string) string {
	m := regexp.MustCompile(`<h1>[^<]*`).FindString(body)
	return m
}

// Hostile query parameters are refused with 400 naming the parameter, or
// read as data: no value reaches the SQL as SQL.
func TestHostileQueryParameters(t *testing.T) {
	ts := serve(t, writeRun(t, 0))
	bad := []string{"page=0", "page=-1", "page=99999999999999999999", "per=0", "per=100000", "sort=model;DROP+TABLE+traces",
		"sort=t.text", "car_min=NaN", "har_max=Inf", "pmf_min=1e", "model=" + strings.Repeat("x", 1001), "q=%ff%fe", "trace?id="}
	for _, q := range bad {
		path := "/?" + q
		if strings.HasPrefix(q, "trace?") {
			path = "/" + q
		}
		status, body, _ := get(t, ts, path)
		if status != 400 {
			t.Errorf("%s: %d, want 400", path, status)
		}
		if !strings.Contains(body, "bad query parameter") {
			t.Errorf("%s: the error does not say which parameter: %s", path, heading(body))
		}
	}
	data := []string{"model=%27+OR+1%3D1+--", "direction=%27%29+OR+%28%271%27%3D%271", "q=%27%29+OR+1%3D1+--", "lang=%3Cscript%3E",
		"aligner=x%27%29+OR+true+--", "problem=%27+OR+%27%27%3D%27"}
	for _, q := range data {
		status, body, _ := get(t, ts, "/?"+q)
		if status != 200 || !strings.Contains(body, "<h1>0 traces") {
			t.Errorf("/?%s: %d %s, want 0 traces", q, status, heading(body))
		}
		if strings.Contains(body, "<script>") {
			t.Errorf("/?%s: a value reached the page as markup", q)
		}
	}
	// A page past the last is empty, not an error.
	if status, body, _ := get(t, ts, "/?page=1000"); status != 200 || strings.Contains(body, "trace-link") {
		t.Errorf("page 1000: %d", status)
	}
}

// The trace page: the problem in both languages, both graders and
// detectors, the DAGs with the best marked, both aligners, evidence
// linked both ways, the loop folded, harmful actions, and every piece of
// model text escaped.
func TestTracePage(t *testing.T) {
	ts := serve(t, writeRun(t, 2))
	status, body, _ := get(t, ts, "/trace?id=t-en-x&direction=en-x&sort=id")
	if status != 200 {
		t.Fatalf("%d\n%s", status, body)
	}
	if strings.Contains(body, hostile) || strings.Contains(body, "<script>alert") || strings.Contains(body, "<img") {
		t.Errorf("model text reached the page unescaped")
	}
	for _, want := range []string{
		`<span class="lang">en</span> What is <span class="math math-inline">\frac{4}{2}</span>?`, `Gold: <b class="gold">2</b>`,
		"math-verify", "multilingual", "langdetect", "lingua", "not compliant",
		`data-node="n1"`, `data-nodes="[&#34;n1&#34;]"`, `marker-end=`, `class="dag-scroll"`, `/assets/katex/katex.min.js`, `class="ev commit"`, `class="ev harmful"`, `id="harm-0"`,
		"★ best", `<figure class="aligner shown"><figcaption>llm`, `<figure class="aligner" data-href="/trace?direction=en-x&amp;id=t-en-x&amp;sort=id&amp;aligner_shown=symbolic&amp;dag=0#text"><figcaption>symbolic`,
		"repeated 39 more times", `<span class="math math-inline">\frac{a}{b} = 2</span>`,
		"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", `id="dag-1"`, "show its evidence",
		`<span class="ev commit" data-nodes="[&#34;n2&#34;]" tabindex="0" title="n2 COMMIT">b = a + 1</span>`,
		"trace 3 of 3 in the filter", `<tr class="current">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the trace page lacks %q", want)
		}
	}
	// Every element id once: the side-by-side drawings have their own
	// (the shown aligner's DAG is drawn twice: above and beside the other).
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`\sid="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		if seen[m[1]] {
			t.Errorf("the trace page has id %q twice", m[1])
		}
		seen[m[1]] = true
	}
	// Previous and next within the filter (en-x by id: p000, p001, t-en-x).
	if !strings.Contains(body, `href="/trace?direction=en-x&amp;id=p001&amp;sort=id" rel="prev"`) || strings.Contains(body, `rel="next"`) {
		t.Errorf("previous is not p001 in the filter, or t-en-x has a next")
	}
	_, body, _ = get(t, ts, "/trace?id=p000&direction=en-x&sort=id")
	if !strings.Contains(body, `href="/trace?direction=en-x&amp;id=p001&amp;sort=id" rel="next"`) || strings.Contains(body, `rel="prev"`) {
		t.Errorf("p000's next is not p001 in the filter")
	}
	// The other aligner's alignment: its ATTEMPT evidence.
	_, body, _ = get(t, ts, "/trace?id=t-en-x&aligner_shown=symbolic")
	if !strings.Contains(body, `title="n1 ATTEMPT"`) || strings.Contains(body, `title="n1 COMMIT"`) {
		t.Errorf("aligner_shown=symbolic does not show symbolic's evidence")
	}
	// x-en is never aligned by default: the page says why, not "run datg align".
	_, body, _ = get(t, ts, "/trace?id=t-x-en")
	if !strings.Contains(body, `<span class="lang">sw</span> Ni nini <span class="math math-inline">\frac{4}{2}</span>?`) ||
		!strings.Contains(body, `<span class="lang">en</span> What is`) {
		t.Errorf("an x-en trace's problem is not shown in its language and in English")
	}
	if !strings.Contains(body, "datg align aligns en-en and en-x traces") || strings.Contains(body, "run datg align") {
		t.Errorf("x-en's note: %s", regexp.MustCompile(`not-aligned">[^<]*`).FindString(body))
	}
	// Its reference DAGs have no statuses and no evidence: no legend of them.
	if strings.Contains(body, `class="legend"`) {
		t.Errorf("an unaligned trace's page shows the legend of statuses and evidence")
	}
	// An unknown id is a 404 naming it; the id is escaped there too.
	status, body, _ = get(t, ts, "/trace?id="+url.QueryEscape(hostile))
	if status != 404 || strings.Contains(body, hostile) || !strings.Contains(body, "no such trace") {
		t.Errorf("unknown id: %d", status)
	}
}

// The tables page runs sql/tables; a cell's link opens the index of
// exactly the traces it counts.
func TestTablesLinkToTheirTraces(t *testing.T) {
	_, ts := serveShared(t)
	body := tablesWhenReady(t, ts)
	i := strings.Index(body, `id="t-direction_accuracy"`)
	if i < 0 {
		t.Fatalf("no direction_accuracy:\n%s", body)
	}
	sec := body[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	// A row is one link, its first cell's (stretched over the row).
	rows := regexp.MustCompile(`<tr class="linked"><td><a class="row" href="([^"]+)">([^<]*)</a></td>(.*?)</tr>`).FindAllStringSubmatch(sec, -1)
	if len(rows) == 0 {
		t.Fatalf("no linked row:\n%s", sec)
	}
	for _, r := range rows {
		cells := append([][]string{{"", r[2]}}, regexp.MustCompile(`<td>([^<]*)</td>`).FindAllStringSubmatch(r[3], -1)...)
		n := cells[5][1] // model, model_label, level, direction, lang, n
		link := html.UnescapeString(r[1])
		_, page, _ := get(t, ts, link)
		if !strings.Contains(page, "<h1>"+n+" traces") {
			t.Errorf("row %v: %s opens %s, want %s traces", cells, link, heading(page), n)
		}
	}
}

// A new commit of the run is read on the next request, and the page says so.
func TestNewCommitIsPickedUp(t *testing.T) {
	dir := writeRun(t, 0)
	ts := serve(t, dir)
	_, body, _ := get(t, ts, "/")
	if !strings.Contains(body, "<h1>3 traces") || strings.Contains(body, "new commit") {
		t.Fatalf("before: %s", heading(body))
	}
	gen, _ := store.CurrentGeneration(dir)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces = append(traces, schema.Trace{TraceID: "new", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base"})
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	_, body, _ = get(t, ts, "/")
	if !strings.Contains(body, "<h1>4 traces") || !strings.Contains(body, "The run has a new commit") {
		t.Fatalf("after a commit: %s", heading(body))
	}
	if g, _ := store.CurrentGeneration(dir); g == gen || !strings.Contains(body, "generation ") {
		t.Errorf("generation %d -> %d", gen, g)
	}
	_, body, _ = get(t, ts, "/")
	if strings.Contains(body, "The run has a new commit") {
		t.Errorf("the banner stays after the first page")
	}
}

// Loopback only, unless asked.
func TestAddrIsLoopbackUnlessAllowed(t *testing.T) {
	dir := t.TempDir()
	for addr, ok := range map[string]bool{"127.0.0.1:8080": true, "[::1]:0": true, "localhost:9000": true, "127.3.4.5:80": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.2:8080": false, "example.com:80": false} {
		err := Config{Data: dir, Addr: addr}.Validate()
		if (err == nil) != ok || (!ok && !errors.Is(err, ErrRemote)) {
			t.Errorf("%s: %v", addr, err)
		}
		if err := (Config{Data: dir, Addr: addr, AllowRemote: true}).Validate(); err != nil {
			t.Errorf("%s with AllowRemote: %v", addr, err)
		}
	}
	if err := (Config{Data: dir, Addr: "nonsense"}).Validate(); err == nil {
		t.Errorf("no port: no error")
	}
}

// A run with no table yet is an empty index, not an error, and the index
// says which command adds traces; a run with problems but no traces logs
// nothing that reads like an error (its search index has nothing to do).
func TestEmptyRun(t *testing.T) {
	problemsOnly := t.TempDir()
	if err := store.WriteAll(problemsOnly, schema.Problems, store.Meta{}, []schema.Problem{{ProblemID: "low-1", Lang: "en", Question: "Q?", Answer: "18"}}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{t.TempDir(), problemsOnly} {
		var log strings.Builder
		s, err := newServer(context.Background(), dir, t.TempDir(), &log)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s.Handler())
		for path, want := range map[string]string{"/": "<h1>0 traces", "/tables": "<h1>Paper tables", "/trace?id=x": "no such trace"} {
			status, body, _ := get(t, ts, path)
			if !strings.Contains(body, want) || (status != 200 && path != "/trace?id=x") {
				t.Errorf("%s: %d %s", path, status, heading(body))
			}
			if path == "/" && !strings.Contains(body, "<code>datg import traces</code>") {
				t.Errorf("%s: the empty index does not say how to add traces", dir)
			}
		}
		<-s.cur.indexDone
		ts.Close()
		s.Close()
		if strings.Contains(log.String(), "not written yet") || strings.Contains(log.String(), "search index") {
			t.Errorf("%s: the log reads like an error: %q", dir, log.String())
		}
	}
}
