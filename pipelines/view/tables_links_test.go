package view

import (
	"context"
	"html"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/tables"
	"github.com/datg/datg/schema"
)

// nNotTraces are the tables whose n counts something other than traces:
// their link opens the traces the count is over, but the index's n is
// not theirs.
var nNotTraces = map[string]string{
	"aligner_agreement":   "pairs of (trace, DAG) scores",
	"human_agreement":     "annotated items",
	"reference_diversity": "DAGs",
}

// Every row of every paper table links to the index of its traces, and
// where the table has an n of traces the index shows that n.
func TestEveryTableCellLinksToItsTraces(t *testing.T) {
	s, ts := serveShared(t) // its tables computed once for the tests that read them
	tablesWhenReady(t, ts)
	p := currentTask(s).status().page
	h1 := regexp.MustCompile(`<h1>([0-9,]+) traces`)
	linked := 0
	for _, tv := range p.Tables {
		if tv.Err != "" {
			t.Errorf("%s: %s", tv.Name, tv.Err)
			continue
		}
		nCol := slices.Index(tv.Columns, "n")
		if nCol < 0 {
			// datg_correctness_main has no n: its means are over
			// n_scored traces, the ones its link opens.
			nCol = slices.Index(tv.Columns, "n_scored")
		}
		for _, row := range tv.Rows {
			if row.Href == "" {
				t.Errorf("%s: row %v has no link", tv.Name, row.Cells)
				continue
			}
			linked++
			status, page, _ := get(t, ts, html.UnescapeString(row.Href))
			m := h1.FindStringSubmatch(page)
			if status != 200 || m == nil {
				t.Errorf("%s: row %v: %s answers %d %s", tv.Name, row.Cells, row.Href, status, heading(page))
				continue
			}
			if _, other := nNotTraces[tv.Name]; nCol >= 0 && !other && m[1] != row.Cells[nCol] {
				t.Errorf("%s: row %v: %s opens %s traces, the cell's n is %s", tv.Name, row.Cells, row.Href, m[1], row.Cells[nCol])
			}
		}
	}
	if linked == 0 {
		t.Fatal("no table has a row")
	}
}

// A table whose inputs are stale over its traces (a trace's text changed
// after it was graded) is refused as datg tables refuses it: the page says
// why and what to run, and shows none of its numbers.
func TestTablesPageRefusesStaleTables(t *testing.T) {
	var mu sync.Mutex
	queried := map[string]bool{} // the tables whose query ran (a refused one's does not)
	setBeforeTable(t, func(ctx context.Context, table string) error {
		mu.Lock()
		defer mu.Unlock()
		queried[table] = true
		return skipSlow(table)
	})
	dir := writeRun(t, 2)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for i := range traces {
		if traces[i].TraceID == "p000" {
			traces[i].Text, traces[i].TextHash = "a new text", "h2"
		}
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, dir)
	body := tablesWhenReady(t, ts)
	i := strings.Index(body, `id="t-grader_agreement"`)
	if i < 0 {
		t.Fatalf("no grader_agreement section:\n%s", body)
	}
	sec := body[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	if !strings.Contains(sec, "datg tables refuses this table") || !strings.Contains(sec, "verdicts: 1 probe traces lack a grader") ||
		!strings.Contains(sec, "run datg verify") || strings.Contains(sec, "<table") {
		t.Errorf("the stale grader_agreement is shown:\n%s", sec)
	}
	mu.Lock()
	defer mu.Unlock()
	// aligner_agreement reads scores alone, not stale here (the answers
	// and verdicts every other probe table reads are).
	if queried["grader_agreement"] || !queried["aligner_agreement"] {
		t.Errorf("queried: %v (a refused table's query ran, or none did)", queried)
	}
}

// A row over every level (datg_correctness_main's level 'all') opens the
// traces of every level, not a level named "all" (no trace: the index
// showed 0 where the row's means are over 495 on the demo); and that
// table reads en-x traces only, so its rows open no en-en trace (the
// demo's low row opened 180 traces for its n_scored of 165).
func TestCorrectnessMainRowsOpenTheirTraces(t *testing.T) {
	var listing tables.Listing
	for _, l := range tables.Listings() {
		if l.Name == "datg_correctness_main" {
			listing = l
		}
	}
	if listing.Name == "" {
		t.Fatal("no datg_correctness_main table")
	}
	for _, level := range []string{"low", "all"} {
		f, ok := cellFilter(listing, map[string]string{"aligner": "symbolic", "level": level, "ord": "0", "n_c": "3", "n_i": "2",
			"car_c": "0.5", "n_graded": "5", "n_scored": "5"})
		if !ok {
			t.Fatalf("level %s: the row has no link", level)
		}
		want := map[string][]string{"aligner": {"symbolic"}, "direction": {"en-x"}, "scope": {"probe"}}
		if level != "all" {
			want["level"] = []string{level}
		}
		if !maps.EqualFunc(f.Values, want, slices.Equal) {
			t.Errorf("level %s: the row opens %v, want %v", level, f.Values, want)
		}
	}
}
