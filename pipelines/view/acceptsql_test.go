package view

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestViewerAgainstSQL checks, in Chromium over a `datg view` already
// serving a run, what the viewer says against what `datg sql` says over
// the same run (issue 22's acceptance, done skeptically): every facet
// value's count, the CAR/PMF/HAR ranges' counts, the summary's n,
// accuracy and Wilson interval and mean scores, searches in Bengali,
// Japanese, TeX and quotes, a sort's pages against SQL's order, previous
// and next across a page boundary and at both ends of the filter, the
// comparison view's n, paper-table cells (the 4B, en->sw, high kind
// included) against their opened index, an export of a list of ids,
// the Content-Security-Policy of every route, hostile parameters, a
// non-loopback address, every request the pages made and the console.
//
//	bin/datg view --data RUN --addr 127.0.0.1:8080 &
//	DATG_VIEW_URL=http://127.0.0.1:8080 DATG_VIEW_RUN=RUN DATG=$PWD/bin/datg \
//	  go test -run TestViewerAgainstSQL -v ./pipelines/view
//
// It skips without DATG_VIEW_URL and DATG_VIEW_RUN.
func TestViewerAgainstSQL(t *testing.T) {
	base := strings.TrimSuffix(os.Getenv("DATG_VIEW_URL"), "/")
	run := os.Getenv("DATG_VIEW_RUN")
	if base == "" || run == "" {
		t.Skip("DATG_VIEW_URL and DATG_VIEW_RUN are not set (a running datg view and its run)")
	}
	datg := os.Getenv("DATG")
	if datg == "" {
		datg = "../../bin/datg"
	}
	sql := func(q string) [][]string {
		t.Helper()
		out, err := exec.Command(datg, "sql", "--data", run, "--format", "csv", q).Output()
		if err != nil {
			msg := ""
			if e, ok := err.(*exec.ExitError); ok {
				msg = string(e.Stderr)
			}
			t.Fatalf("datg sql %q: %v\n%s", q, err, msg)
		}
		rows, err := csv.NewReader(strings.NewReader(string(out))).ReadAll()
		if err != nil {
			t.Fatalf("datg sql %q: %v", q, err)
		}
		return rows[1:]
	}
	b := newBrowser(t, 1280, 900)
	heading := func() int {
		t.Helper()
		return atoiCount(eval[string](b, `document.querySelector("h1").textContent`))
	}

	// Every facet value's count, unfiltered, against SQL's.
	b.do("index", chromedp.Navigate(base+"/"), chromedp.WaitVisible(`h1`))
	total := heading()
	if n := atoiCount(sql(`select count(*) from traces`)[0][0]); n != total {
		t.Errorf("the index shows %d traces, the run has %d", total, n)
	}
	type value struct {
		Href string `json:"href"`
		N    string `json:"n"`
	}
	facetsShown := eval[map[string]map[string]value](b, `(function () { var out = {};
		document.querySelectorAll("section.facet[data-facet]").forEach(function (s) { var vs = {};
			s.querySelectorAll("li").forEach(function (li) { var a = li.querySelector("a"), n = li.querySelector(".n");
				vs[a.getAttribute("data-value") || a.textContent] = {href: a.getAttribute("href"), n: n ? n.textContent : ""}; });
			out[s.getAttribute("data-facet")] = vs; });
		return out; })()`)
	verdict := func(g string) string {
		return `select coalesce(case when v.trace_id is null then null when v.reason = 'gold-unparsed' then 'gold-unparsed'
			when not v.has_answer then 'no-answer' when v.correct then 'correct' else 'incorrect' end, 'ungraded'), count(*)
			from traces t left join verdicts v on v.trace_id = t.trace_id and v.grader = '` + g + `' group by all`
	}
	detection := func(d string) string {
		return `select case when d.trace_id is null then 'unchecked' when d.compliant then 'compliant' else 'not compliant' end, count(*)
			from traces t left join detections d on d.trace_id = t.trace_id and d.detector = '` + d + `' group by all`
	}
	facetSQL := map[string]string{
		"model":     `select model, count(*) from traces group by all`,
		"level":     `select level, count(*) from traces group by all`,
		"direction": `select direction, count(*) from traces group by all`,
		"lang":      `select target_lang(direction, input_lang, reasoning_lang), count(*) from traces group by all`,
		"input":     `select input_lang, count(*) from traces group by all`,
		"reasoning": `select reasoning_lang, count(*) from traces group by all`,
		"method":    `select method, count(*) from traces group by all`,
		"seed":      `select cast(seed as varchar), count(*) from traces group by all`,
		"mv":        verdict("math-verify"),
		"ml":        verdict("multilingual"),
		"ld":        detection("langdetect"),
		"lg":        detection("lingua"),
		"aligner": `select aligner, count(distinct trace_id) from scores where best group by all
			union all select '-', count(*) from traces where trace_id not in (select trace_id from scores where best)`,
	}
	for facet, q := range facetSQL {
		shown := facetsShown[facet]
		want := map[string]int{}
		for _, r := range sql(q) {
			if n := atoiCount(r[1]); n > 0 {
				want[r[0]] = n
			}
		}
		for v, n := range want {
			if got, ok := shown[v]; !ok || atoiCount(got.N) != n {
				t.Errorf("facet %s=%s: the index shows %q, datg sql counts %d", facet, v, got.N, n)
			}
		}
		for v, got := range shown {
			if _, ok := want[v]; !ok && atoiCount(got.N) > 0 {
				t.Errorf("facet %s=%s: the index shows %s, datg sql counts none", facet, v, got.N)
			}
		}
		t.Logf("facet %s: %d values, each as datg sql counts it", facet, len(want))
	}
	// Each value opened: the index's heading is its count (at most 6 a facet).
	opened := 0
	for facet, shown := range facetsShown {
		k := 0
		for v, got := range shown {
			if k == 6 || got.Href == "" {
				continue
			}
			k++
			b.do("facet "+facet, chromedp.Navigate(base+got.Href), chromedp.WaitVisible(`h1`))
			if n := heading(); n != atoiCount(got.N) {
				t.Errorf("facet %s=%s counts %s, its index shows %d", facet, v, got.N, n)
			}
			opened++
		}
	}
	t.Logf("%d facet values opened, each showing its count", opened)

	// Ranges of the shown aligner's best DAG, against SQL.
	b.do("index", chromedp.Navigate(base+"/"), chromedp.WaitVisible(`h1`))
	for _, m := range []string{"car", "pmf", "har"} {
		for label, got := range facetsShown[m] {
			u, err := url.Parse(got.Href)
			if err != nil {
				t.Fatal(err)
			}
			aligner := u.Query().Get("aligner_shown")
			if aligner == "" {
				aligner = eval[string](b, fmt.Sprintf(`document.querySelector('section[data-facet=%q] h3').textContent.replace(/^.*\((.*)\).*$/, "$1")`, m))
			}
			lo, hi := u.Query().Get(m+"_min"), u.Query().Get(m+"_max")
			cond := m + " >= " + lo + " and (" + m + " < " + hi + " or (" + hi + " >= 1 and " + m + " <= " + hi + "))"
			n := atoiCount(sql(`select count(*) from (select trace_id, any_value(` + m + `) as ` + m + ` from scores where best and aligner = '` + aligner + `' group by trace_id) where ` + cond)[0][0])
			if atoiCount(got.N) != n {
				t.Errorf("range %s %s (%s, aligner %s): the index shows %s, datg sql counts %d", m, label, got.Href, aligner, got.N, n)
			}
			b.do("range", chromedp.Navigate(base+got.Href), chromedp.WaitVisible(`h1`))
			if h := heading(); h != n {
				t.Errorf("range %s %s: its index shows %d, datg sql counts %d", m, label, h, n)
			}
		}
		t.Logf("range %s: %d buckets, each as datg sql counts it", m, len(facetsShown[m]))
	}

	// The summary under filters: n, accuracy and its Wilson interval, the
	// aligners' coverage and mean scores.
	for _, f := range []struct{ query, where string }{
		{"direction=en-x&level=high", "t.direction = 'en-x' and t.level = 'high'"},
		{"reasoning=bn&mv=correct&mv=incorrect", "t.reasoning_lang = 'bn'"},
		{"", "true"},
	} {
		b.do("summary "+f.query, chromedp.Navigate(base+"/?"+f.query), chromedp.WaitVisible(`#summary`))
		s := eval[string](b, `document.querySelector("#summary").innerText`)
		for _, g := range []string{"math-verify", "multilingual"} {
			where := f.where
			if strings.Contains(f.query, "mv=") {
				where += " and exists (select 1 from verdicts w where w.trace_id = t.trace_id and w.grader = 'math-verify' and w.reason <> 'gold-unparsed' and w.has_answer)"
			}
			r := sql(`with x as (select count(v.trace_id) as graded,
					count(*) filter (where v.has_answer and v.correct and v.reason <> 'gold-unparsed') as k
				from traces t left join verdicts v on v.trace_id = t.trace_id and v.grader = '` + g + `' where ` + where + `)
				select graded, k, round(100.0 * k / graded, 1), round(100 * wilson_low(k, graded), 1), round(100 * wilson_high(k, graded), 1) from x`)[0]
			want := fmt.Sprintf("Accuracy (%s) %s%% [%s, %s] over %s graded", g, r[2], r[3], r[4], fmtCount(atoiCount(r[0])))
			m := regexp.MustCompile(`Accuracy \(` + g + `\) ([0-9.]+)% \[([0-9.]+), ([0-9.]+)\] over ([0-9,]+) graded`).FindStringSubmatch(s)
			if m == nil || !sameTenth(m[1], r[2]) || !sameTenth(m[2], r[3]) || !sameTenth(m[3], r[4]) || atoiCount(m[4]) != atoiCount(r[0]) {
				t.Errorf("summary of %q: %q lacks datg sql's %q", f.query, s, want)
			} else {
				t.Logf("summary of %q: %s (datg sql: %s)", f.query, m[0], want)
			}
		}
		where := f.where
		if strings.Contains(f.query, "mv=") {
			where += " and exists (select 1 from verdicts w where w.trace_id = t.trace_id and w.grader = 'math-verify' and w.reason <> 'gold-unparsed' and w.has_answer)"
		}
		n := atoiCount(sql(`select count(*) from traces t where ` + where)[0][0])
		if !strings.Contains(s, "n = "+fmtCount(n)+".") {
			t.Errorf("summary of %q: %q, datg sql counts n = %d", f.query, s, n)
		}
		for _, r := range sql(`select aligner, count(*), round(avg(car), 3), round(avg(har), 3) from (select trace_id, aligner, any_value(car) as car, any_value(har) as har
				from scores where best group by all) join traces t using (trace_id) where ` + where + ` group by all order by all`) {
			row := eval[string](b, fmt.Sprintf(`(function () { var rows = document.querySelectorAll("#summary table.scores tr");
				for (var i = 0; i < rows.length; i++) { if (rows[i].cells[0].textContent === %q) { return rows[i].innerText; } } return ""; })()`, r[0]))
			cells := strings.Split(row, "\t")
			if len(cells) < 6 || atoiCount(cells[1]) != atoiCount(r[1]) || !sameNumber(cells[3], r[2]) || !sameNumber(cells[5], r[3]) {
				t.Errorf("summary of %q, aligner %s: %q; datg sql: scored %s, mean CAR %s, mean HAR %s", f.query, r[0], row, r[1], r[2], r[3])
			}
		}
	}

	// Search: Bengali and Japanese words of the run's texts, TeX, quotes,
	// a phrase, each against SQL's substring count, and with a facet.
	var queries []string
	for _, p := range []struct{ lang, re string }{{"bn", `[\x{0980}-\x{09FF}]{4,}`}, {"ja", `[\x{3040}-\x{30FF}\x{4E00}-\x{9FFF}]{3,}`}, {"te", `[\x{0C00}-\x{0C7F}]{4,}`}} {
		if r := sql(`select regexp_extract(text, '` + p.re + `') as w from traces where reasoning_lang = '` + p.lang + `' and regexp_matches(text, '` + p.re + `') order by trace_id limit 1`); len(r) > 0 {
			queries = append(queries, r[0][0])
		}
	}
	queries = append(queries, `\frac{`, `\boxed{`, `"`, `'`, `$x`, "= 2")
	for _, q := range queries {
		n := atoiCount(sql(`select count(*) from traces where strpos(text, '` + strings.ReplaceAll(q, "'", "''") + `') > 0`)[0][0])
		b.do("search "+q, chromedp.Navigate(base+"/?q="+url.QueryEscape(q)), chromedp.WaitVisible(`h1`))
		h := eval[string](b, `document.querySelector("h1").textContent`)
		if got := atoiCount(h); got != n {
			t.Errorf("search %q: the index shows %q, datg sql counts %d texts holding it", q, h, n)
		} else {
			t.Logf("search %q: %d traces, as datg sql", q, n)
		}
		if !strings.Contains(h, q) {
			t.Errorf("search %q: the heading %q does not show it", q, h)
		}
		if got := eval[string](b, `document.querySelector('input[name="q"]').value`); got != q {
			t.Errorf("search %q: the box holds %q", q, got)
		}
	}
	if n := atoiCount(sql(`select count(*) from traces where strpos(text, '\frac{') > 0 and direction = 'en-x'`)[0][0]); true {
		b.do("search and facet", chromedp.Navigate(base+"/?q="+url.QueryEscape(`\frac{`)+"&direction=en-x"), chromedp.WaitVisible(`h1`))
		if h := heading(); h != n {
			t.Errorf(`search \frac{ in en-x: the index shows %d, datg sql %d`, h, n)
		}
	}

	// Pagination and sort: the pages of tokens descending are SQL's, with
	// no trace on two pages, and the last page holds the rest.
	filter := "direction=en-x&level=high&sort=tokens&desc=1&per=50"
	b.do("sorted", chromedp.Navigate(base+"/?"+filter), chromedp.WaitVisible(`h1`))
	n := heading()
	want := sql(`select completion_tokens from traces where direction = 'en-x' and level = 'high' order by completion_tokens desc limit 100`)
	var page1, page2 []string
	rows := func() ([]string, []string) {
		ids := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("table.traces tbody tr"), function (tr) { return tr.cells[0].textContent; })`)
		tok := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("table.traces tbody tr"), function (tr) { return tr.cells[8].textContent.replace("✂", ""); })`)
		return ids, tok
	}
	page1, tok1 := rows()
	b.do("next page", settledClick(`nav.pages a[rel="next"]`), chromedp.WaitVisible(`nav.pages a[rel="prev"]`))
	page2, tok2 := rows()
	for i, tk := range append(tok1, tok2...) {
		if i < len(want) && tk != want[i][0] {
			t.Errorf("tokens descending, row %d: %s, datg sql's %s", i+1, tk, want[i][0])
			break
		}
	}
	for _, id := range page2 {
		if contains(page1, id) {
			t.Errorf("trace %s is on pages 1 and 2", id)
		}
	}
	page2URL := b.location()
	state := eval[string](b, `document.querySelector("main").innerText`)
	fresh := newBrowser(t, 1280, 900) // another browser, another profile: a colleague's
	fresh.do("the shared URL", chromedp.Navigate(page2URL), chromedp.WaitVisible(`h1`))
	if again := eval[string](fresh, `document.querySelector("main").innerText`); again != state {
		t.Errorf("the shared URL %s shows another page in a fresh browser", page2URL)
	}
	pages := (n + 49) / 50
	b.do("last page", settledClick(`nav.pages a[rel="last"]`), chromedp.WaitVisible(`h1`))
	last, _ := rows()
	if len(last) != n-(pages-1)*50 {
		t.Errorf("the last of %d pages holds %d traces of %d", pages, len(last), n)
	}

	// Previous and next: across the page boundary and at the filter's ends.
	trail := func() (pos, of int, prev, next bool) {
		s := eval[string](b, `document.querySelector("nav.trail").textContent`)
		m := regexp.MustCompile(`trace ([0-9,]+) of ([0-9,]+)`).FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("trail %q", s)
		}
		return atoiCount(m[1]), atoiCount(m[2]), eval[bool](b, `!!document.querySelector("#prev")`), eval[bool](b, `!!document.querySelector("#next")`)
	}
	open := func(u string) string {
		t.Helper()
		b.do("open "+u, chromedp.Navigate(u), chromedp.WaitVisible(`h1.trace-id`))
		return eval[string](b, `document.querySelector("h1.trace-id").textContent`)
	}
	b.do("page 1", chromedp.Navigate(base+"/?"+filter), chromedp.WaitVisible(`h1`))
	hrefs := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("a.trace-link"), function (a) { return a.href; })`)
	if id := open(hrefs[0]); id != page1[0] {
		t.Errorf("the first row's link opens %s, not %s", id, page1[0])
	}
	if pos, of, prev, _ := trail(); pos != 1 || of != n || prev {
		t.Errorf("the filter's first trace: trace %d of %d, previous %v", pos, of, prev)
	}
	open(hrefs[len(hrefs)-1])
	if pos, _, _, next := trail(); pos != 50 || !next {
		t.Errorf("the page's last trace: trace %d, next %v", pos, next)
	}
	b.do("next across the page", settledClick(`#next`), chromedp.WaitVisible(`#prev`))
	if id := eval[string](b, `document.querySelector("h1.trace-id").textContent`); id != page2[0] {
		t.Errorf("next after the page's last trace is %s, page 2 begins with %s", id, page2[0])
	}
	if pos, _, _, _ := trail(); pos != 51 {
		t.Errorf("next after trace 50 is trace %d", pos)
	}
	b.do("previous back", settledClick(`#prev`), chromedp.WaitVisible(`#next`))
	if id := eval[string](b, `document.querySelector("h1.trace-id").textContent`); id != page1[len(page1)-1] {
		t.Errorf("previous after trace 51 is %s, not %s", id, page1[len(page1)-1])
	}
	b.do("last page", chromedp.Navigate(base+"/?"+filter+"&page="+strconv.Itoa(pages)), chromedp.WaitVisible(`h1`))
	hrefs = eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("a.trace-link"), function (a) { return a.href; })`)
	if id := open(hrefs[len(hrefs)-1]); id != last[len(last)-1] {
		t.Errorf("the last row's link opens %s, not %s", id, last[len(last)-1])
	}
	if pos, of, _, next := trail(); pos != n || of != n || next {
		t.Errorf("the filter's last trace: trace %d of %d, next %v", pos, of, next)
	}

	// The same problem elsewhere: every trace of it listed, the comparison
	// view counting them, a related link opening the same problem.
	problem := sql(`select problem_id from traces where direction = 'en-x' order by trace_id limit 1`)[0][0]
	inProblem := atoiCount(sql(`select count(*) from traces where problem_id = '` + problem + `'`)[0][0])
	first := sql(`select trace_id from traces where problem_id = '` + problem + `' and direction = 'en-x' order by trace_id limit 1`)[0][0]
	open(base + "/trace?id=" + url.QueryEscape(first))
	if rows := eval[int](b, `document.querySelectorAll("table.related tr").length - 1`); rows != inProblem {
		t.Errorf("trace %s lists %d traces of problem %s, datg sql counts %d", first, rows, problem, inProblem)
	}
	other := eval[string](b, `(function () { var rows = document.querySelectorAll("table.related tr");
		for (var i = 1; i < rows.length; i++) { var a = rows[i].querySelector("a"); if (a && rows[i].cells[1].textContent === "x-en") { return a.href; } } return ""; })()`)
	if other == "" {
		t.Errorf("trace %s links no x-en trace of its problem", first)
	} else {
		open(other)
		if meta := eval[string](b, `document.querySelector("p.meta").textContent`); !strings.Contains(meta, problem) || !strings.Contains(meta, "x-en") {
			t.Errorf("the x-en link of %s opens %q", first, meta)
		}
	}
	b.do("compare", chromedp.Navigate(base+"/?problem="+url.QueryEscape(problem)), chromedp.WaitVisible(`h1`))
	if h := heading(); h != inProblem {
		t.Errorf("the comparison view of %s shows %d traces, datg sql counts %d", problem, h, inProblem)
	}

	// Paper tables: every table's first rows and the 4B, en->sw, high
	// accuracy cell open as many traces as their n.
	b.do("tables", chromedp.Navigate(base+"/tables"), chromedp.WaitVisible(`h1`))
	b.wait("tables ready", `!document.querySelector("p.busy")`)
	if eval[int](b, `document.querySelectorAll("table.paper tbody tr").length`) == 0 {
		// A run whose probe is at another seed than the viewer's: the
		// page names the run's seeds (start datg view with --probe-seed).
		t.Errorf("no paper table has a row: %q", eval[string](b, `document.querySelector("main").innerText.slice(0, 400)`))
	}
	cells := eval[[][]string](b, `(function () { var out = [];
		document.querySelectorAll("table.paper").forEach(function (t) {
			var heads = Array.prototype.map.call(t.querySelectorAll("thead th, tr:first-child th"), function (th) { return th.textContent.trim(); });
			var ni = heads.indexOf("n"); if (ni < 0) { ni = heads.indexOf("n_scored"); } var id = t.closest("section") ? t.closest("section").id : "";
			var rows = t.querySelectorAll("tbody tr");
			for (var i = 0; i < rows.length; i++) { var a = rows[i].querySelector("a");
				var text = Array.prototype.map.call(rows[i].cells, function (c) { return c.textContent.trim(); }).join("|");
				var pick = i < 3 || ("|" + text + "|").indexOf("|all|") >= 0 || /4B/.test(text) && /\bsw\b/.test(text) && /high/.test(text) && /en-x/.test(text);
				if (a && pick) { out.push([id, a.getAttribute("href"), ni >= 0 ? rows[i].cells[ni].textContent.trim() : "", text]); } } });
		return out; })()`)
	sections := map[string]bool{}
	for _, c := range cells {
		sections[c[0]] = true
		b.do("cell "+c[0], chromedp.Navigate(base+c[1]), chromedp.WaitVisible(`h1`))
		h := heading()
		switch {
		case c[2] == "":
			t.Logf("%s: row %s opens %d traces (no n column)", c[0], c[3], h)
		case atoiCount(c[2]) != h && c[0] != "t-aligner_agreement" && c[0] != "t-human_agreement":
			t.Errorf("%s: row %s counts n=%s, its link %s opens %d traces", c[0], c[3], c[2], c[1], h)
		default:
			t.Logf("%s: row %s: n=%s opens %d traces", c[0], c[3], c[2], h)
		}
	}
	t.Logf("%d cells of %d tables opened", len(cells), len(sections))

	// An export of a list of ids: every page, offline, the same rendering.
	ids := sql(`select trace_id from traces where direction = 'en-x' and trace_id in (select trace_id from scores) order by trace_id limit 3`)
	out := t.TempDir()
	args := []string{"explain", "--data", run, "--out", out}
	for _, r := range ids {
		args = append(args, r[0])
	}
	if msg, err := exec.Command(datg, args...).CombinedOutput(); err != nil {
		t.Fatalf("datg explain %v: %v\n%s", args, err, msg)
	}
	x := newBrowser(t, 1280, 900)
	x.do("export index", chromedp.Navigate("file://"+filepath.Join(out, "index.html")), chromedp.WaitVisible(`h1`))
	links := eval[[]string](x, `Array.prototype.map.call(document.querySelectorAll("a.trace-link"), function (a) { return a.textContent; })`)
	if len(links) != len(ids) {
		t.Errorf("the export of %d ids links %v", len(ids), links)
	}
	for i := range links {
		x.do("export page", chromedp.Navigate("file://"+filepath.Join(out, "index.html")), chromedp.WaitVisible(`h1`),
			settledClick(fmt.Sprintf(`(//a[@class="trace-link"])[%d]`, i+1)), chromedp.WaitVisible(`h1.trace-id`))
		checkTracePage(t, x, "export-list-"+strconv.Itoa(i))
		if n := eval[int](x, `document.querySelectorAll("svg.dag path[marker-end]").length`); n == 0 {
			t.Errorf("export page %d: no arrowheads", i)
		}
	}
	if fs := x.foreign("file://"); len(fs) > 0 {
		t.Errorf("the export asked for: %v", fs)
	}
	if c := x.console(); len(c) > 0 {
		t.Errorf("the export's console is not empty:\n%s", strings.Join(c, "\n"))
	}

	// Security over HTTP: every route's CSP; hostile parameters refused
	// with a 400 (never a 500), still under the CSP.
	for _, p := range []string{"/", "/?direction=en-x", "/trace?id=" + url.QueryEscape(first), "/tables", "/static/view.js", "/trace?id=nosuch"} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Content-Security-Policy"); got != csp {
			t.Errorf("%s: status %d, CSP %q", p, resp.StatusCode, got)
		}
	}
	for _, p := range []string{"/?page=0", "/?page=-1", "/?per=100000", "/?sort=car;DROP%20TABLE%20traces", "/?q=%ff", "/?q=" + strings.Repeat("a", 1001),
		"/?model=%27%20OR%201%3D1--", "/?car_min=abc", "/?car_min=NaN", "/?car_min=1e309", "/?page=99999999999999999999", "/?%zz", "/trace?id=%00",
		"/trace", "/?direction=" + url.QueryEscape(`"><script>alert(1)</script>`)} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, 4096)
		k, _ := resp.Body.Read(body)
		resp.Body.Close()
		if resp.StatusCode >= 500 || strings.Contains(string(body[:k]), "<script>alert") {
			t.Errorf("%s: status %d: %s", p, resp.StatusCode, body[:k])
		}
		t.Logf("%s: %d", p, resp.StatusCode)
	}
	// A non-loopback address is refused without --allow-remote.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	msg, err := exec.CommandContext(ctx, datg, "view", "--data", run, "--addr", "0.0.0.0:0").CombinedOutput()
	if err == nil || ctx.Err() != nil || !strings.Contains(string(msg), "--allow-remote") {
		t.Errorf("datg view --addr 0.0.0.0:0: %v, %s", err, msg)
	} else {
		t.Logf("datg view --addr 0.0.0.0:0: %s", strings.TrimSpace(string(msg)))
	}

	if fs := append(b.foreign(base), fresh.foreign(base)...); len(fs) > 0 {
		t.Errorf("pages asked for URLs off the viewer: %v", fs)
	}
	if c := append(b.console(), fresh.console()...); len(c) > 0 {
		t.Errorf("the console is not empty:\n%s", strings.Join(c, "\n"))
	}
}

var digitsRE = regexp.MustCompile(`[0-9][0-9,]*`)

// atoiCount is the first number of s, its thousands separators dropped
// (-1 when s holds none).
func atoiCount(s string) int {
	m := digitsRE.FindString(s)
	if m == "" {
		return -1
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m, ",", ""))
	if err != nil {
		return -1
	}
	return n
}

// fmtCount writes n as the viewer's count does, with thousands separators.
func fmtCount(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// sameNumber says two decimals are equal to the last digit shown.
func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return err1 == nil && err2 == nil && (x-y < 0.0015 && y-x < 0.0015)
}

// sameTenth says two percentages are equal to the tenth shown.
func sameTenth(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x-y < 0.051 && y-x < 0.051
}
