package view

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/tables"
	"github.com/datg/datg/schema"
)

// setBeforeTable makes fn run before each table's query (and, as table
// "", before the tables' inputs are checked) for the rest of the test,
// the tables computed in the test's process (fn is a hook of this
// process, not of a child's: tablesInChild). Set it before the server
// starts: it is put back after the server (and every computation of its
// tables) has stopped.
func setBeforeTable(t *testing.T, fn func(ctx context.Context, table string) error) {
	old, oldChild := beforeTable, tablesInChild
	beforeTable, tablesInChild = fn, false
	t.Cleanup(func() { beforeTable, tablesInChild = old, oldChild })
}

// slowTables are the tables whose queries take seconds of CPU on any run,
// however small (the DATG tables' bootstrap replicates, the control and
// agreement tables' joins): 5-6 s a computation. Tests of the page rather
// than of those tables fail them at once (skipSlow): their computation is
// tested where the tables are kept (TestTablesAreKeptForTheNextViewer,
// TestKeptTablesAreTheComputed) and read (sharedTables).
var slowTables = map[string]bool{"datg_main": true, "datg_correctness_main": true, "datg_full": true, "datg_correctness": true,
	"control": true, "grader_agreement": true, "human_agreement": true}

// skipSlow fails a slow table's query before it runs (its error shown in
// its place, as any failed query's).
func skipSlow(table string) error {
	if slowTables[table] {
		return errors.New("not computed in this test (slowTables)")
	}
	return nil
}

// serveWith is the viewer over dir with its cache in cache, and its
// Server.
func serveWith(t *testing.T, dir, cache string) (*Server, *httptest.Server) {
	t.Helper()
	s, err := newServer(context.Background(), dir, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return s, ts
}

var busyRe = regexp.MustCompile(`being computed: (\d+) of (\d+) done`)

// tablesWhenReady is /tables once the tables are computed (the page
// reloads itself until then, as a browser would).
func tablesWhenReady(t testing.TB, ts *httptest.Server) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		status, body, _ := get(t, ts, "/tables")
		if status != 200 {
			t.Fatalf("/tables: %d\n%s", status, body)
		}
		if !strings.Contains(body, `class="busy"`) {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tables are not ready after 5 minutes:\n%s", body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// currentTask is the tables' computation of the generation s reads.
func currentTask(s *Server) *tablesTask {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.tablesTask()
}

// The first load of /tables answers while the tables are computed, with
// how many are done, and reloads itself; once they are done it shows them.
// So when the viewer computes them from the moment it opens the
// generation, and when the first /tables starts them.
func TestTablesPageAnswersAtOnce(t *testing.T) {
	for _, atOpen := range []bool{true, false} {
		t.Run(fmt.Sprintf("at open %v", atOpen), func(t *testing.T) {
			if atOpen {
				tablesAtOpen(t)
			}
			tablesPageAnswersAtOnce(t, atOpen)
		})
	}
}

func tablesPageAnswersAtOnce(t *testing.T, atOpen bool) {
	total := len(tables.Listings())
	third := tables.Listings()[2].Name
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release)
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == third { // two tables done: wait for the test
			select {
			case <-gate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return skipSlow(table)
	})
	s, ts := serveWith(t, writeRun(t, 6), t.TempDir())
	if task := currentTask(s); !atOpen && task != nil {
		t.Fatal("the tables are computed before any /tables")
	} else if atOpen { // two tables computed before any request
		if task == nil {
			t.Fatal("the viewer opened the generation without computing its tables")
		}
		for task.status().done < 2 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	var body string
	for { // the two tables before the gate finish in the background
		status, b, h := get(t, ts, "/tables")
		if status != 200 || h.Get("Cache-Control") != "no-store" {
			t.Fatalf("/tables while computing: %d, Cache-Control %q\n%s", status, h.Get("Cache-Control"), b)
		}
		m := busyRe.FindStringSubmatch(b)
		if m == nil {
			t.Fatalf("/tables while the third table waits is not the page of tables being computed:\n%s", b)
		}
		if m[2] != fmt.Sprint(total) {
			t.Fatalf("%s tables to compute, want %d", m[2], total)
		}
		if body = b; m[1] == "2" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, want := range []string{`<meta http-equiv="refresh" content="2">`, `<h1>Paper tables</h1>`, fmt.Sprintf(`<progress max="%d" value="2">`, total)} {
		if !strings.Contains(body, want) {
			t.Errorf("the page of tables being computed lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<section") {
		t.Errorf("the page of tables being computed shows a table")
	}
	release()
	if !atOpen {
		return // the tables as they show: the other subtest
	}
	ready := tablesWhenReady(t, ts)
	if strings.Contains(ready, "http-equiv") || strings.Count(ready, `<section class="table"`) != total ||
		!strings.Contains(ready, `id="t-direction_accuracy"`) || !strings.Contains(ready, "<table class=\"paper\">") {
		t.Errorf("the ready page:\n%s", ready)
	}
}

// The tables computed once are kept in the cache: the next viewer of the
// same generation shows them on its first load, computing nothing, and
// the very page the computation made. A new commit computes them again;
// a damaged entry is removed and the tables computed again.
func TestTablesAreKeptForTheNextViewer(t *testing.T) {
	tablesAtOpen(t)
	var mu sync.Mutex
	computed := 0
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == "" {
			mu.Lock()
			computed++
			mu.Unlock()
		}
		return nil
	})
	computations := func() int { mu.Lock(); defer mu.Unlock(); return computed }
	dir, cache := writeRun(t, 6), t.TempDir()

	s1, ts1 := serveWith(t, dir, cache)
	first := tablesWhenReady(t, ts1)
	<-currentTask(s1).done // the entry is written
	ts1.Close()
	s1.Close()
	if computations() != 1 {
		t.Fatalf("%d computations for one viewer", computations())
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "view", "tables", "*"))
	if len(entries) != 1 || !isKey(filepath.Base(entries[0])) {
		t.Fatalf("the cache holds %v", entries)
	}

	s2, ts2 := serveWith(t, dir, cache)
	if task := currentTask(s2); task == nil || !task.cached {
		t.Fatalf("the second viewer did not find the tables in the cache")
	}
	_, again, _ := get(t, ts2, "/tables")
	if computations() != 1 {
		t.Errorf("the second viewer computed the tables again")
	}
	if again != first {
		t.Errorf("the kept tables' page differs from the computed one:\n%s\n---\n%s", again, first)
	}

	// A new commit: its tables are computed (the cache keeps both).
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces = append(traces, schema.Trace{TraceID: "new", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base"})
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	get(t, ts2, "/")
	newer := tablesWhenReady(t, ts2)
	if computations() != 2 || currentTask(s2).cached {
		t.Errorf("the new generation's tables were not computed (%d computations)", computations())
	}
	if newer == first {
		t.Errorf("the new generation shows the old one's page")
	}
	<-currentTask(s2).done
	ts2.Close()
	s2.Close()
	entries, _ = filepath.Glob(filepath.Join(cache, "view", "tables", "*"))
	if len(entries) != 2 {
		t.Fatalf("the cache holds %v", entries)
	}

	// Damaged: every entry loses its last byte, or has one changed.
	for i, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			b = b[:len(b)-1]
		} else {
			b[len(b)-3] ^= 1
		}
		if err := os.WriteFile(e, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s3, ts3 := serveWith(t, dir, cache)
	if currentTask(s3).cached {
		t.Errorf("a damaged entry was read")
	}
	if got := tablesWhenReady(t, ts3); got != newer {
		t.Errorf("the tables computed after a damaged entry differ:\n%s\n---\n%s", got, newer)
	}
	if computations() != 3 {
		t.Errorf("%d computations, want 3", computations())
	}
}

// The kept tables are the computed ones, with stale inputs too: the same
// page, cell for cell and link for link (a run without a manifest keeps
// none).
func TestKeptTablesAreTheComputed(t *testing.T) {
	stale := writeRun(t, 4)
	traces, err := store.ReadAll(stale, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces[0].Text, traces[0].TextHash = "a new text", "h2"
	if err := store.WriteAll(stale, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{"empty": t.TempDir(), "stale": stale} { // and 9 traces: TestTablesAreKeptForTheNextViewer
		cache := t.TempDir()
		s, ts := serveWith(t, dir, cache)
		computed := tablesWhenReady(t, ts)
		task := currentTask(s)
		<-task.done
		if task.cached {
			t.Fatalf("%s: read from an empty cache", name)
		}
		ts.Close()
		s.Close()
		s, ts = serveWith(t, dir, cache)
		_, kept, _ := get(t, ts, "/tables")
		if name == "empty" { // a run without a manifest: nothing is kept
			if currentTask(s).cached {
				t.Errorf("%s: tables kept for a run without a manifest", name)
			}
			continue
		}
		if !currentTask(s).cached || kept != computed {
			t.Errorf("%s: the kept page (cached %v) differs from the computed one:\n%s\n---\n%s", name, currentTask(s).cached, kept, computed)
		}
	}
}

// A table whose query fails shows its error beside the others, and such a
// page is not kept: the next viewer tries again.
func TestTableErrorShowsTheOthers(t *testing.T) {
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == "direction_accuracy" {
			return errors.New("Binder Error: a failing query")
		}
		return skipSlow(table)
	})
	dir, cache := writeRun(t, 6), t.TempDir()
	s, ts := serveWith(t, dir, cache)
	body := tablesWhenReady(t, ts)
	sec := section(t, body, "direction_accuracy")
	if !strings.Contains(sec, `<p class="error">Binder Error: a failing query</p>`) || strings.Contains(sec, "<table") {
		t.Errorf("the failed table:\n%s", sec)
	}
	if other := section(t, body, "accuracy_groups"); !strings.Contains(other, `<table class="paper">`) {
		t.Errorf("a table beside the failed one is not shown:\n%s", other)
	}
	<-currentTask(s).done
	if kept, _ := filepath.Glob(filepath.Join(cache, "view", "tables", "*")); len(kept) != 0 {
		t.Errorf("a page with a failed table was kept: %v", kept)
	}
}

// section is the part of the tables page about one table.
func section(t *testing.T, body, table string) string {
	t.Helper()
	i := strings.Index(body, `id="t-`+table+`"`)
	if i < 0 {
		t.Fatalf("no %s section:\n%s", table, body)
	}
	sec := body[i:]
	return sec[:strings.Index(sec, "</section>")]
}

// A computation that fails as a whole is said (a 500 naming it), and the
// next load starts it again.
func TestTablesFailureIsRetried(t *testing.T) {
	tablesAtOpen(t)
	var mu sync.Mutex
	calls := 0
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table != "" {
			return skipSlow(table)
		}
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == 1 {
			return errors.New("the disk is on fire")
		}
		return nil
	})
	s, ts := serveWith(t, writeRun(t, 2), t.TempDir())
	<-currentTask(s).done
	status, body, _ := get(t, ts, "/tables")
	if status != 500 || !strings.Contains(body, "computing the paper tables of generation") || !strings.Contains(body, "the disk is on fire") {
		t.Errorf("a failed computation: %d\n%s", status, body)
	}
	if body := tablesWhenReady(t, ts); !strings.Contains(body, `id="t-direction_accuracy"`) {
		t.Errorf("after the failure, the tables are not computed again:\n%s", body)
	}
}

// A newer generation stops the computation of the old one's tables at
// once (its DuckDB queries interrupted), and closing the server stops the
// newer one's: no goroutine is left computing.
func TestTablesStopWithTheirGeneration(t *testing.T) {
	tablesAtOpen(t)
	entered, stopped := make(chan string, 4), make(chan string, 4)
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == "" {
			return nil
		}
		entered <- table
		<-ctx.Done() // never done: only a stop ends it
		stopped <- table
		return ctx.Err()
	})
	dir := writeRun(t, 2)
	s, ts := serveWith(t, dir, t.TempDir())
	old := currentTask(s)
	<-entered
	if _, body, _ := get(t, ts, "/tables"); !busyRe.MatchString(body) {
		t.Fatalf("not computing:\n%s", body)
	}
	commitFirstTraces(t, dir, ts, 2)
	waitClosed(t, old.done, "the old generation's tables")
	if st := old.status(); !errors.Is(st.err, context.Canceled) {
		t.Errorf("the old generation's tables ended with %v", st.err)
	}
	newer := currentTask(s)
	if newer == old {
		t.Fatal("the new generation has the old one's tables")
	}
	if _, body, _ := get(t, ts, "/tables"); !busyRe.MatchString(body) {
		t.Errorf("the new generation's tables:\n%s", body)
	}
	<-entered
	ts.Close()
	s.Close()
	waitClosed(t, newer.done, "the tables after Close")
	if n := len(stopped); n != 2 {
		t.Errorf("%d computations saw their stop, want 2", n)
	}
	if g := goroutinesIn("(*tablesTask).run"); g != 0 {
		t.Errorf("%d goroutines still compute tables", g)
	}
}

// waitClosed waits for ch to close: a minute is far more than a stop
// takes (the test fails rather than hang when it never comes).
func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not stop", what)
	}
}

// goroutinesIn counts the goroutines with fn on their stack.
func goroutinesIn(fn string) int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, fn) {
			n++
		}
	}
	return n
}

// commitFirstTraces commits the run's first n traces as its traces table
// and checks the viewer has read the new commit.
func commitFirstTraces(t *testing.T, dir string, ts *httptest.Server, n int) {
	t.Helper()
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces[:n]); err != nil {
		t.Fatal(err)
	}
	if _, body, _ := get(t, ts, "/"); !strings.Contains(body, "The run has a new commit") {
		t.Fatalf("the new commit is not read")
	}
}
