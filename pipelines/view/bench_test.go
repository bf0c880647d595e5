package view

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/study"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
)

// benchRun writes a run of the paper's design with perLevel problems a
// level: 3 models x 3 levels x perLevel problems x 34 language pairs of
// base traces (38,250 at 125), each graded by both graders and checked by
// both detectors, with texts of 1 to 6 KB of prose and math (one in a
// hundred a 48 KB loop); 5 DAGs of 6 nodes per problem; the en-en and en-x
// traces aligned to each DAG by one aligner (6 events an alignment) and
// scored. textScale multiplies each text's prose: 8 makes them 29 KB on
// average, as real traces are (30 KB); 0 makes them a line (no loop) and
// writes no alignment events or harmful actions (a run for the index's
// memory at any size, not for the trace page).
//
// With DATG_BENCH_KEEP set, the run is written under that directory
// (run-PERLEVEL-TEXTSCALE, left there) to be served by bin/datg view and
// measured as its own process.
func benchRun(b *testing.B, perLevel, textScale int) (string, int) {
	return benchRunAligned(b, perLevel, textScale, textScale > 0)
}

// benchRunAligned is benchRun with the alignment events and harmful
// actions written or not whatever the texts' length: a run of one-line
// texts with them (textScale 0, aligned) is the trace page's at any
// number of traces.
func benchRunAligned(b *testing.B, perLevel, textScale int, aligned bool) (string, int) {
	b.Helper()
	dir := b.TempDir()
	if keep := os.Getenv("DATG_BENCH_KEEP"); keep != "" {
		name := fmt.Sprintf("run-%d-%d", perLevel, textScale)
		if aligned != (textScale > 0) {
			name += fmt.Sprintf("-aligned-%v", aligned)
		}
		dir = filepath.Join(keep, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	models := []string{"Qwen/Qwen3-1.7B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B"}
	levels := []string{"low", "medium", "high"}
	var langs []string
	for _, l := range prompts.Languages() {
		if l.Code != "en" {
			langs = append(langs, l.Code)
		}
	}
	phrases := []string{"Let $x$ be the number of apples, so $x + 2y = 14$. ", "Then \\frac{a}{b} simplifies to $\\frac{3}{4}$. ",
		"We check the case n = 3 again carefully. ", "Kwa hiyo jibu ni $\\sqrt{2} + 1$. ", "So the total is 18 and we are done. ",
		"Substituting, $(4 + 1)(2 + 1) = 15$ divisors. ", "Wait, let me recompute the sum. "}
	text := func(i int) string {
		if textScale == 0 {
			return fmt.Sprintf("<think>\n%s%s\n</think>\n\\boxed{18}", phrases[i%len(phrases)], phrases[rng.IntN(len(phrases))])
		}
		var sb strings.Builder
		sb.WriteString("<think>\n")
		if i%100 == 0 {
			sb.WriteString(strings.Repeat("I keep checking the same step again. ", 1300))
		}
		n := (30 + rng.IntN(120)) * textScale
		for k := range n {
			sb.WriteString(phrases[rng.IntN(len(phrases))])
			if k%8 == 7 {
				sb.WriteString("\n\n")
			}
		}
		sb.WriteString("\n</think>\n\\boxed{18}")
		return sb.String()
	}
	var (
		traces   []schema.Trace
		verdicts []schema.Verdict
		dets     []schema.Detection
		problems []schema.Problem
		dags     []schema.DAG
		nodes    []schema.Node
		edges    []schema.Edge
		scores   []schema.Score
		events   []schema.AlignmentEvent
		harms    []schema.HarmfulAction
	)
	for _, level := range levels {
		for k := range perLevel {
			problem := fmt.Sprintf("%s-%d", level, k)
			for _, l := range append([]string{"en"}, langs...) {
				problems = append(problems, schema.Problem{ProblemID: problem, Level: level, Lang: l, K: int32(k), Question: "How many apples? $x + 2y = 14$", Answer: "18"})
			}
			for r := range 5 {
				dag := fmt.Sprintf("%s/r%d", problem, r)
				dags = append(dags, schema.DAG{DagID: dag, ProblemID: problem, RefIndex: int32(r), Valid: true, FinalNodeID: "n6"})
				for n := range 6 {
					nodes = append(nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", n+1), Position: int32(n), Anchor: "x + 2y = 14", Description: "the equation", Final: n == 5})
					if n > 0 {
						edges = append(edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", n), ChildID: fmt.Sprintf("n%d", n+1)})
					}
				}
			}
		}
	}
	for _, model := range models {
		for _, level := range levels {
			for k := range perLevel {
				problem := fmt.Sprintf("%s-%d", level, k)
				pairs := [][3]string{{"en", "en", "en-en"}}
				for _, x := range langs {
					pairs = append(pairs, [3]string{"en", x, "en-x"}, [3]string{x, "en", "x-en"}, [3]string{x, x, "x-x"})
				}
				for _, p := range pairs {
					id := fmt.Sprintf("t%07d", len(traces))
					txt := text(len(traces))
					traces = append(traces, schema.Trace{TraceID: id, Model: model, Level: level, ProblemID: problem, InputLang: p[0], ReasoningLang: p[1],
						Direction: p[2], Seed: 42, Method: "base", CompletionTokens: int64(len(txt) / 4), Text: txt, TextHash: "h"})
					for _, g := range []string{"math-verify", "multilingual"} {
						verdicts = append(verdicts, schema.Verdict{TraceID: id, Grader: g, HasAnswer: true, Correct: rng.IntN(2) == 0, Extracted: "18", Reason: "exact", TextHash: "h"})
					}
					for _, d := range []string{"langdetect", "lingua"} {
						dets = append(dets, schema.Detection{TraceID: id, Detector: d, Compliant: rng.IntN(10) > 0, Detected: p[1], Status: "ok", TextHash: "h"})
					}
					if p[2] != "en-en" && p[2] != "en-x" {
						continue
					}
					for r := range 5 {
						dag := fmt.Sprintf("%s/r%d", problem, r)
						pmf := rng.Float64()
						scores = append(scores, schema.Score{TraceID: id, DagID: dag, Aligner: "llm", RefIndex: int32(r), CAR: rng.Float64(), PMF: &pmf, HAR: rng.Float64() / 4, Best: r == 0, TextHash: "h"})
						if !aligned {
							continue
						}
						for n := range 6 {
							s := rng.IntN(len(txt) - 20)
							events = append(events, schema.AlignmentEvent{TraceID: id, DagID: dag, Aligner: "llm", NodeID: fmt.Sprintf("n%d", n+1), Status: "COMMIT",
								EvidenceSpan: txt[s : s+10], StartChar: i32(s), EndChar: i32(s + 10), BlockID: i32(n)})
						}
						harms = append(harms, schema.HarmfulAction{TraceID: id, DagID: dag, Aligner: "llm", Category: "harmful_loop", EvidenceSpan: "again"})
					}
				}
			}
		}
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, traces))
	must(store.WriteAll(dir, schema.Verdicts, store.Meta{}, verdicts))
	must(store.WriteAll(dir, schema.Detections, store.Meta{}, dets))
	must(store.WriteAll(dir, schema.Problems, store.Meta{}, problems))
	must(store.WriteAll(dir, schema.DAGs, store.Meta{}, dags))
	must(store.WriteAll(dir, schema.Nodes, store.Meta{}, nodes))
	must(store.WriteAll(dir, schema.Edges, store.Meta{}, edges))
	must(store.WriteAll(dir, schema.Scores, store.Meta{}, scores))
	must(store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, events))
	must(store.WriteAll(dir, schema.HarmfulActions, store.Meta{}, harms))
	return dir, len(traces)
}

// BenchmarkView times the viewer's pages over a run of the paper's design
// (perLevel 125: 38,250 traces; 12: 3,672), through HTTP on loopback as a
// browser asks them: ns/op is one page. It reports the Go heap in use and
// DuckDB's memory after the pages, to show neither grows with the run.
//
//	go test -tags duckdb_arrow -run '^$' -bench BenchmarkView -benchtime 20x ./pipelines/view
func BenchmarkView(b *testing.B) {
	for _, perLevel := range []int{12, 125} {
		dir, n := benchRun(b, perLevel, 1)
		start := time.Now()
		s, err := newServer(context.Background(), dir, b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("traces=%d: opening the run and building the index took %v", n, time.Since(start))
		<-s.cur.indexDone
		b.Logf("traces=%d: and the search index %v", n, time.Since(start))
		ts := httptest.NewServer(s.Handler())
		pages := []struct{ name, path string }{
			{"index", "/"},
			{"filter", "/?model=Qwen%2FQwen3-4B&direction=en-x&lang=sw&level=high&mv=correct"},
			{"filter-range-sort", "/?direction=en-x&car_min=0.2&car_max=0.6&sort=har&desc=1&page=7"},
			{"search", "/?q=recompute+the+sum&direction=x-x"},
			{"search-new", "/?q=recompute+the+sum+%d"}, // a new text each time: a scan of every text
			{"trace", "/trace?id=t0000101&direction=en-x"},
			{"trace-loop", "/trace?id=t0000100&direction=en-x"},
		}
		for _, p := range pages {
			b.Run(fmt.Sprintf("traces=%d/%s", n, p.name), func(b *testing.B) {
				i := 0
				cpu := testenv.CPUTime()
				for b.Loop() {
					path := p.path
					if strings.Contains(path, "%d") {
						path = fmt.Sprintf(path, i)
					}
					i++
					getOK(b, ts, path)
				}
				testenv.ReportCPU(b, cpu, 0)
				reportMemory(b)
				var duckMem int64
				if err := s.cur.db.QueryRow(`SELECT sum(memory_usage_bytes) FROM duckdb_memory()`).Scan(&duckMem); err == nil {
					b.ReportMetric(float64(duckMem)/(1<<20), "duckdb-MB")
				}
			})
		}
		ts.Close()
		s.Close()
	}
}

// BenchmarkViewLongTexts is BenchmarkView's index, new searches and trace
// page over 38,250 traces of realistic length (29 KB on average, 1.1 GB of
// text), with the search index built (its build time, CPU time and size
// logged), and a new search by the scan alone, as it is without the index
// (RE2, case-insensitive) and as it was (contains(lower(text), lower(q))).
// New searches: a string no text holds; a string most texts hold (in a new
// case each time); two bytes no text holds (every text a candidate, each
// read to its end). cpu-ns/op is the process's CPU time a page (the
// machine is shared).
//
//	go test -run '^$' -bench BenchmarkViewLongTexts -benchtime 10x ./pipelines/view
func BenchmarkViewLongTexts(b *testing.B) {
	dir, n := benchRun(b, 125, 8)
	cache := b.TempDir()
	start, cpu0 := time.Now(), testenv.CPUTime()
	s, err := newServer(context.Background(), dir, cache, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.Logf("opening the run: %v", time.Since(start))
	<-s.cur.indexDone
	if s.cur.textIndex.Load() == nil {
		b.Fatalf("no search index: %v", s.cur.indexing.Load())
	}
	var cacheBytes int64
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			cacheBytes += fi.Size()
		}
		return nil
	})
	b.Logf("opening the run and building the search index: %v (%v CPU), the index %.2f GB", time.Since(start), testenv.CPUTime()-cpu0, float64(cacheBytes)/1e9)
	var textBytes int64
	if err := s.cur.db.QueryRow(`SELECT sum(strlen(text)) FROM traces`).Scan(&textBytes); err != nil {
		b.Fatal(err)
	}
	b.Logf("traces=%d, %.2f GB of text (%.1f KB a trace)", n, float64(textBytes)/1e9, float64(textBytes)/float64(n)/1e3)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	anyCase := func(q string, i int) string {
		r := []rune(q)
		for k := range r {
			if i>>(k%20)&1 == 1 {
				r[k] = unicode.ToUpper(r[k])
			}
		}
		return url.QueryEscape(string(r))
	}
	pairs := []string{"qz", "zq", "jx", "xj", "zx", "qj", "jq", "vq", "qv", "wq", "qw", "xq", "qx", "zj", "jz", "fq"}
	for _, p := range []struct {
		name string
		path func(i int) string
	}{
		{"index", func(int) string { return "/" }},
		{"search-new-none", func(i int) string { return fmt.Sprintf("/?q=recompute+the+sum+%d", i) }},
		{"search-new-most", func(i int) string { return "/?q=" + anyCase("recompute the sum", i+1) }},
		{"search-new-2-bytes-none", func(i int) string { return "/?q=" + anyCase(pairs[i%len(pairs)], i/len(pairs)) }},
		{"trace", func(int) string { return "/trace?id=t0000101&direction=en-x" }},
	} {
		b.Run(fmt.Sprintf("traces=%d/%s", n, p.name), func(b *testing.B) {
			i := 0
			cpu := testenv.CPUTime()
			for b.Loop() {
				path := p.path(i)
				i++
				getOK(b, ts, path)
			}
			testenv.ReportCPU(b, cpu, 0)
			reportMemory(b)
		})
	}
	for _, q := range []struct{ name, sql, arg string }{
		{"scan-re2", `SELECT count(*) FROM traces WHERE regexp_matches(text, ?)`, "(?i)recompute the sum 1"},
		{"scan-lower-contains", `SELECT count(*) FROM traces WHERE contains(lower(text), lower(?))`, "recompute the sum 1"},
	} {
		b.Run(fmt.Sprintf("traces=%d/%s", n, q.name), func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				var c int64
				if err := s.cur.db.QueryRow(q.sql, q.arg).Scan(&c); err != nil {
					b.Fatal(err)
				}
			}
			testenv.ReportCPU(b, cpu, 0)
		})
	}
}

// BenchmarkViewTracePage is the trace page by the size of the run:
// benchRunAligned's one-line texts with their alignments (30 events and 5
// harmful actions a trace aligned), at 38,250 and 382,500 traces
// (perLevel 125, 1250; DATG_BENCH_SIZES narrows them; DATG_BENCH_RUN
// names a kept run to use instead), the row file and search index built
// first. Pages: an aligned trace under a filter, the
// same trace alone, an unaligned one. cpu-ns/op is the process's CPU a
// page (the machine is shared).
//
//	go test -run '^$' -bench BenchmarkViewTracePage -benchtime 20x ./pipelines/view
func BenchmarkViewTracePage(b *testing.B) {
	sizes := []int{125, 1250}
	if env := os.Getenv("DATG_BENCH_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			var n int
			fmt.Sscan(f, &n)
			sizes = append(sizes, n)
		}
	}
	runs := func(yield func(dir string) bool) {
		if dir := os.Getenv("DATG_BENCH_RUN"); dir != "" {
			yield(dir)
			return
		}
		for _, perLevel := range sizes {
			dir, _ := benchRunAligned(b, perLevel, 0, true)
			if !yield(dir) {
				return
			}
		}
	}
	for dir := range runs {
		s, err := newServer(context.Background(), dir, b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		<-s.cur.indexDone
		n := s.cur.rows.N
		ts := httptest.NewServer(s.Handler())
		for _, p := range []struct{ name, path string }{
			{"aligned-filtered", "/trace?id=t0000102&direction=en-en"},
			{"aligned", "/trace?id=t0000102"},
			{"not-aligned", "/trace?id=t0000101"},
		} {
			b.Run(fmt.Sprintf("traces=%d/%s", n, p.name), func(b *testing.B) {
				cpu := testenv.CPUTime()
				for b.Loop() {
					getOK(b, ts, p.path)
				}
				testenv.ReportCPU(b, cpu, 0)
			})
		}
		ts.Close()
		s.Close()
	}
}

// BenchmarkViewBuild builds the row file of the run in $DATG_BENCH_RUN (one
// DATG_BENCH_KEEP kept, so this process has not written it) in a fresh
// cache and reports the process's peak RSS (VmHWM: the build's peak, the
// process doing nothing else) and the build's CPU time.
//
//	DATG_BENCH_RUN=DIR go test -run '^$' -bench BenchmarkViewBuild -benchtime 1x ./pipelines/view
func BenchmarkViewBuild(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		b.Skip("DATG_BENCH_RUN names no run")
	}
	cpu := testenv.CPUTime()
	for b.Loop() {
		r, err := openRunDB(context.Background(), dir, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.rows.N), "traces")
		r.close()
	}
	testenv.ReportCPU(b, cpu, 0)
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			var kb int64
			if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
				b.ReportMetric(float64(kb)/1024, "peak-rss-MB")
			}
		}
	}
}

// reportMemory reports the Go heap in use and the process's resident set
// (Linux), after a GC: all of it, its anonymous part (the process's own
// memory: the Go heap, DuckDB's) and its file-backed part (mapped files:
// the row file, the search index's positions, the binary; the OS page
// cache's pages, shared and reclaimable).
func reportMemory(b *testing.B) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "go-heap-MB")
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			var kb int64
			for _, f := range []struct{ field, unit string }{{"VmRSS", "rss-MB"}, {"RssAnon", "rss-anon-MB"}, {"RssFile", "rss-file-MB"}} {
				if _, err := fmt.Sscanf(line, f.field+": %d kB", &kb); err == nil {
					b.ReportMetric(float64(kb)/1024, f.unit)
				}
			}
		}
	}
}

// BenchmarkViewMemory is the viewer's memory by the size of the run:
// benchRun's design with a line of text a trace (textScale 0), at 3,672,
// 38,250 and 382,500 traces (perLevel 12, 125, 1250; DATG_BENCH_SIZES
// narrows them, e.g. "12,125"). Each size opens the run (building its row
// file and search index in a fresh cache), answers the index, a filter, a
// score's sort, a search made once and a trace page (ns/op: one of each),
// and reports the Go heap and the RSS after them, and their growth over
// the process before the viewer opened (the run written, the writer's
// garbage freed to the OS). A second viewer then opens the run from the
// cache (logged).
//
//	go test -run '^$' -bench BenchmarkViewMemory -benchtime 5x ./pipelines/view
func BenchmarkViewMemory(b *testing.B) {
	sizes := []int{12, 125, 1250}
	if env := os.Getenv("DATG_BENCH_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			var n int
			fmt.Sscan(f, &n)
			sizes = append(sizes, n)
		}
	}
	for _, perLevel := range sizes {
		dir, n := benchRun(b, perLevel, 0)
		heap0, rss0 := memNow()
		cache := b.TempDir()
		start, cpu := time.Now(), testenv.CPUTime()
		s, err := newServer(context.Background(), dir, cache, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("traces=%d: opening the run and building its row file: %v (%v CPU)", n, time.Since(start), testenv.CPUTime()-cpu)
		<-s.cur.indexDone
		b.Logf("traces=%d: and the search index: %v (%v CPU)", n, time.Since(start), testenv.CPUTime()-cpu)
		start, cpu = time.Now(), testenv.CPUTime()
		again, err := newServer(context.Background(), dir, cache, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("traces=%d: a second viewer, the row file from the cache: %v (%v CPU)", n, time.Since(start), testenv.CPUTime()-cpu)
		<-again.cur.indexDone
		again.Close()
		ts := httptest.NewServer(s.Handler())
		pages := []string{"/", "/?model=Qwen%2FQwen3-4B&direction=en-x&lang=sw&level=high&mv=correct",
			"/?direction=en-x&car_min=0.2&car_max=0.6&sort=har&desc=1&page=7", "/?q=recompute+the+sum&direction=x-x",
			"/trace?id=t0000101&direction=en-x"}
		b.Run(fmt.Sprintf("traces=%d", n), func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				for _, path := range pages {
					getOK(b, ts, path)
				}
			}
			testenv.ReportCPU(b, cpu, 0)
			reportMemory(b)
			heap, rss := memNow()
			b.ReportMetric(float64(heap-heap0)/(1<<20), "go-heap-growth-MB")
			b.ReportMetric(float64(rss-rss0)/(1<<20), "rss-growth-MB")
			var duckMem int64
			if err := s.cur.db.QueryRow(`SELECT sum(memory_usage_bytes) FROM duckdb_memory()`).Scan(&duckMem); err == nil {
				b.ReportMetric(float64(duckMem)/(1<<20), "duckdb-MB")
			}
		})
		ts.Close()
		s.Close()
	}
}

// memNow is the Go heap's live bytes and the RSS after a GC that returns
// freed memory to the OS.
func memNow() (heap, rss int64) {
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			var kb int64
			if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kb); err == nil {
				rss = kb << 10
			}
		}
	}
	return int64(m.HeapAlloc), rss
}

// BenchmarkExport makes the pages of an exported set (benchRun's en-x
// traces at perLevel 4, aligned, 20 problems' DAGs) one by one as Page
// makes them (a trace's rows read alone: the server's way, and datg
// explain's before batching) and in batches as Pages makes them (a query
// per table a batch, each drawing once, pages on every core): ns/op is
// the whole set.
//
//	go test -run '^$' -bench BenchmarkExport -benchtime 3x ./pipelines/view
func BenchmarkExport(b *testing.B) {
	dir, _ := benchRun(b, 4, 1)
	ctx := context.Background()
	ex, err := OpenExport(ctx, dir, study.ProbeSeed)
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	sel, err := ex.Select(ctx, "direction=en-x", nil, "")
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d pages", len(sel.IDs))
	links := Links{Index: func(int) string { return "index.html" }, File: func(id string) string { return id + ".html" }}
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for k := range sel.IDs {
				if _, err := ex.Page(ctx, sel, k, links, Head{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(sel.IDs)), "ms/page")
	})
	b.Run("batched", func(b *testing.B) {
		for b.Loop() {
			err := ex.Pages(ctx, sel, links, Head{}, func(int, string, []byte) error { return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(sel.IDs)), "ms/page")
	})
}
