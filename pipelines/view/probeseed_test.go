package view

import (
	"context"
	"encoding/csv"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/tables"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// writeSeedRun is writeRun(t, more) with its direction probe at seed 1,
// as scripts/scale.sh writes it: every trace at seed 1 but every third
// page trace, at seed 7 (base traces outside the probe, in the probe's
// cells: a link that opened them would count too many); with answers
// (math-verify's verdicts) and compliance (langdetect's detections), so
// that the accuracy and compliance tables have rows.
func writeSeedRun(t *testing.T, more int) string {
	t.Helper()
	dir := writeRun(t, more)
	verdicts, err := store.ReadAll(dir, schema.Verdicts)
	if err != nil {
		t.Fatal(err)
	}
	var answers []schema.Answer
	for _, v := range verdicts {
		if v.Grader == "math-verify" {
			answers = append(answers, schema.Answer{TraceID: v.TraceID, Extracted: v.Extracted, HasAnswer: v.HasAnswer, Correct: v.Correct,
				Gold: "2", Reason: v.Reason, Grader: "math-verify 0.1", TextHash: v.TextHash})
		}
	}
	dets, err := store.ReadAll(dir, schema.Detections)
	if err != nil {
		t.Fatal(err)
	}
	var comps []schema.Compliance
	for _, d := range dets {
		if d.Detector == "langdetect" {
			comps = append(comps, schema.Compliance{TraceID: d.TraceID, Detected: d.Detected, Compliant: d.Compliant, Status: d.Status,
				Detector: d.Detector, TextHash: d.TextHash})
		}
	}
	if err := store.WriteAll(dir, schema.Answers, store.Meta{}, answers); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteAll(dir, schema.Compliances, store.Meta{}, comps); err != nil {
		t.Fatal(err)
	}
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for i := range traces {
		traces[i].Seed = 1
		if i%3 == 2 && strings.HasPrefix(traces[i].TraceID, "p") {
			traces[i].Seed = 7
		}
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	return dir
}

// serveAt is serveWith with the direction probe at seed.
func serveAt(t *testing.T, dir, cache string, seed int64) (*Server, *httptest.Server) {
	t.Helper()
	s, err := newServerAt(context.Background(), dir, cache, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return s, ts
}

// probeTables are the probe tables the tests here compute (not the slow
// ones: skipSlow).
func probeTables() []string {
	var names []string
	for _, l := range tables.Listings() {
		if l.Scope == "probe" && !slowTables[l.Name] {
			names = append(names, l.Name)
		}
	}
	return names
}

// Over a run whose probe is at seed 1, datg view --probe-seed 1 shows the
// probe tables datg tables --probe-seed 1 writes, value for value, and
// each row opens the traces it counts: seed 1's, not the base traces of
// seed 7 in the same cells.
func TestProbeSeedTablesAreDatgTables(t *testing.T) {
	setBeforeTable(t, func(ctx context.Context, table string) error { return skipSlow(table) })
	dir := writeSeedRun(t, 300)
	s, ts := serveAt(t, dir, t.TempDir(), 1)
	body := tablesWhenReady(t, ts)
	if strings.Contains(body, "probe-note") {
		t.Errorf("the page says the probe is elsewhere:\n%s", body)
	}
	page := currentTask(s).status().page

	seed := int64(1)
	out := t.TempDir()
	names := probeTables()
	if _, err := tables.Run(context.Background(), tables.Config{Data: dir, Out: out, Only: names, ProbeSeed: &seed}); err != nil {
		t.Fatalf("datg tables --probe-seed 1: %v", err)
	}
	h1 := regexp.MustCompile(`<h1>([0-9,]+) traces`)
	compared, opened := 0, 0
	for _, tv := range page.Tables {
		if !slices.Contains(names, tv.Name) {
			continue
		}
		f, err := os.Open(filepath.Join(out, tv.Name+".csv"))
		if os.IsNotExist(err) {
			if len(tv.Missing) == 0 {
				t.Errorf("%s: datg tables wrote no csv, the page shows it", tv.Name)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s.csv: %v", tv.Name, err)
		}
		if tv.Err != "" || !slices.Equal(recs[0], tv.Columns) || len(recs)-1 != len(tv.Rows) {
			t.Errorf("%s: the page has %v and %d rows (%s), datg tables %v and %d", tv.Name, tv.Columns, len(tv.Rows), tv.Err, recs[0], len(recs)-1)
			continue
		}
		for i, rec := range recs[1:] {
			for j, want := range rec {
				if got := tv.Rows[i].Cells[j]; got != want && !sameNumber(got, want) {
					t.Errorf("%s row %d %s: the page shows %q, datg tables %q", tv.Name, i, tv.Columns[j], got, want)
				}
			}
			compared++
		}
		nCol := slices.Index(tv.Columns, "n")
		if _, other := nNotTraces[tv.Name]; nCol < 0 || other {
			continue
		}
		for _, row := range tv.Rows {
			if row.Href == "" {
				t.Errorf("%s: row %v has no link", tv.Name, row.Cells)
				continue
			}
			_, p, _ := get(t, ts, html.UnescapeString(row.Href))
			if m := h1.FindStringSubmatch(p); m == nil || m[1] != row.Cells[nCol] {
				t.Errorf("%s: row %v opens %s, want %s traces", tv.Name, row.Cells, heading(p), row.Cells[nCol])
			}
			opened++
		}
	}
	if compared == 0 || opened == 0 {
		t.Fatalf("%d rows compared with datg tables, %d opened: the probe tables are empty at seed 1", compared, opened)
	}
	t.Logf("%d rows of %v compared with datg tables --probe-seed 1, %d opened", compared, names, opened)
	// The index's probe is seed 1's: 203 of the 303 traces (every third
	// page trace is at seed 7).
	if _, p, _ := get(t, ts, "/?scope=probe"); !strings.Contains(p, "<h1>203 traces") {
		t.Errorf("the probe's traces: %s", heading(p))
	}
}

// Without --probe-seed the same run's probe tables are empty, and the page
// says why: the seeds the run's base traces are at, and the flag to read
// them; a run with base traces at one other seed is told that seed.
func TestEmptyProbeNamesTheRunsSeeds(t *testing.T) {
	setBeforeTable(t, func(ctx context.Context, table string) error { return skipSlow(table) })
	for name, c := range map[string]struct {
		seven bool // every third page trace at seed 7
		want  string
	}{
		"one seed":  {false, "this run&#39;s direction-probe traces are at seed 1, not 42: start datg view with --probe-seed 1."},
		"two seeds": {true, "this run&#39;s base traces, the direction probe&#39;s, are at seeds 1, 7, none at 42: start datg view with --probe-seed and one of them (--probe-seed 1: the first)."},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeSeedRun(t, 4)
			if !c.seven {
				traces, err := store.ReadAll(dir, schema.Traces)
				if err != nil {
					t.Fatal(err)
				}
				for i := range traces {
					traces[i].Seed = 1
				}
				if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
					t.Fatal(err)
				}
			}
			_, ts := serveWith(t, dir, t.TempDir()) // the study's seed, 42
			body := tablesWhenReady(t, ts)
			if !strings.Contains(body, `<p class="error probe-note" role="note">The direction probe's tables have no rows: `+c.want+`</p>`) {
				t.Errorf("no note of the probe's seeds:\n%s", body)
			}
			for _, name := range probeTables() {
				sec := section(t, body, name)
				if strings.Contains(sec, "<table") || !strings.Contains(sec, `<p class="note">no rows: `+strings.TrimSuffix(c.want, ".")+`</p>`) {
					t.Errorf("%s at seed 42:\n%s", name, sec)
				}
			}
			// A table that is not the probe's says nothing of its seed.
			if sec := section(t, body, "human_eval"); strings.Contains(sec, "probe-seed") {
				t.Errorf("human_eval:\n%s", sec)
			}
		})
	}
	// A run with its probe at 42 has no note.
	_, ts := serveWith(t, writeRun(t, 0), t.TempDir())
	if body := tablesWhenReady(t, ts); strings.Contains(body, "probe-seed") {
		t.Errorf("a run at seed 42 is told to use --probe-seed")
	}
}

// Viewers of one run at two seeds over one cache keep two row files and
// two sets of tables, each its seed's: a viewer started again with another
// seed serves neither the other seed's index nor its tables. (Every table
// is computed: a page with a failed one is not kept.)
func TestProbeSeedIsInTheCacheKeys(t *testing.T) {
	dir, cache := writeSeedRun(t, 6), t.TempDir()
	type seen struct {
		probe   string // the index's heading for ?scope=probe
		note    bool   // /tables says the probe is at other seeds
		rows    bool   // direction_accuracy has rows
		cached  bool
		rowKey  string
		tabsKey string
	}
	view := func(seed int64) seen {
		s, ts := serveAt(t, dir, cache, seed)
		defer func() { ts.Close(); s.Close() }()
		var v seen
		v.cached = currentTask(s) != nil && currentTask(s).cached
		if task := s.replaceTables(s.cur, nil); task != nil && task.cached {
			v.cached = true
		}
		body := tablesWhenReady(t, ts)
		<-currentTask(s).done // the entry is written
		v.note = strings.Contains(body, "probe-note")
		v.rows = strings.Contains(section(t, body, "direction_accuracy"), "<table")
		_, p, _ := get(t, ts, "/?scope=probe")
		v.probe = heading(p)
		var err error
		if v.rowKey, err = rowKey(context.Background(), s.cur.db); err != nil {
			t.Fatal(err)
		}
		if v.tabsKey, err = tablesKey(context.Background(), s.cur.db); err != nil {
			t.Fatal(err)
		}
		return v
	}
	at42 := view(study.ProbeSeed)
	at1 := view(1)
	again42 := view(study.ProbeSeed)
	again1 := view(1)
	if !at42.note || at42.rows || !strings.Contains(at42.probe, "0 traces") {
		t.Errorf("at seed 42: %+v", at42)
	}
	if at1.cached || at1.note || !at1.rows || !strings.Contains(at1.probe, "7 traces") {
		t.Errorf("at seed 1 after seed 42 over the same cache: %+v (cached: the seed 42 viewer's tables)", at1)
	}
	if at1.rowKey == at42.rowKey || at1.tabsKey == at42.tabsKey {
		t.Errorf("one key for both seeds: rows %s %s, tables %s %s", at42.rowKey, at1.rowKey, at42.tabsKey, at1.tabsKey)
	}
	if !again42.cached || again42 != (seen{at42.probe, true, false, true, at42.rowKey, at42.tabsKey}) {
		t.Errorf("seed 42 again: %+v, first %+v", again42, at42)
	}
	if !again1.cached || again1 != (seen{at1.probe, false, true, true, at1.rowKey, at1.tabsKey}) {
		t.Errorf("seed 1 again: %+v, first %+v", again1, at1)
	}
	for _, sub := range []string{"rows", "tables"} {
		if kept, _ := filepath.Glob(filepath.Join(cache, "view", sub, "*")); len(kept) != 2 {
			t.Errorf("the cache's %s: %v, want one a seed", sub, kept)
		}
	}
}

// A newer generation the viewer moves to keeps its probe seed.
func TestProbeSeedStaysOnANewCommit(t *testing.T) {
	dir := writeSeedRun(t, 0)
	_, ts := serveAt(t, dir, t.TempDir(), 1)
	if _, p, _ := get(t, ts, "/?scope=probe"); !strings.Contains(p, "<h1>3 traces") {
		t.Fatalf("before: %s", heading(p))
	}
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces = append(traces, schema.Trace{TraceID: "new", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base", Seed: 1})
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	if _, p, _ := get(t, ts, "/?scope=probe"); !strings.Contains(p, "<h1>4 traces") || !strings.Contains(p, "The run has a new commit") {
		t.Errorf("after a commit: %s", heading(p))
	}
}
