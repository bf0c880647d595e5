package view

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"testing"
)

// steadyPages are the requests after which the viewer's memory is measured
// at its steady state: the index, a filter, four trace pages (one under a
// filter), a sort at page 20 and a search (the process harness of
// BENCHMARKS.md's "The viewer" measures the same pages over bin/datg view).
var steadyPages = []string{"/", "/?direction=en-en", "/trace?id=t0000102", "/trace?id=t0000101",
	"/trace?id=t0000102&direction=en-en", "/trace?id=t0000205", "/trace?id=t0003007", "/?sort=car&page=20", "/?q=apples"}

// BenchmarkViewSteadyMemory is where the viewer's memory is once it has
// answered steadyPages, over the run in $DATG_BENCH_RUN (one DATG_BENCH_KEEP
// kept): a first viewer builds the row file and search index in a fresh
// cache and closes, a second opens them from the cache (as a restarted
// bin/datg view does) and answers the pages. Reported, after a GC that
// returns freed memory to the OS: the Go heap in use, the Go runtime's
// resident memory (heap, stacks, its own structures), DuckDB's
// (duckdb_memory(): its buffer manager's), and the process's anonymous
// RSS (the rest of which is C memory outside DuckDB's accounting: its
// allocator's free lists, caches such as the Parquet metadata cache). With
// DATG_BENCH_HEAPPROFILE set, the heap profile (inuse_space) is written
// there.
//
//	DATG_BENCH_RUN=DIR go test -run '^$' -bench BenchmarkViewSteadyMemory -benchtime 1x ./pipelines/view
func BenchmarkViewSteadyMemory(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		b.Skip("DATG_BENCH_RUN names no run")
	}
	cache := os.Getenv("DATG_BENCH_CACHE") // a cache another process built, else one built here first
	if cache == "" {
		cache = b.TempDir()
		first, err := newServer(context.Background(), dir, cache, nil)
		if err != nil {
			b.Fatal(err)
		}
		<-first.cur.indexDone
		first.Close()
	}
	for b.Loop() {
		s, err := newServer(context.Background(), dir, cache, nil)
		if err != nil {
			b.Fatal(err)
		}
		<-s.cur.indexDone
		ts := httptest.NewServer(s.Handler())
		for _, path := range steadyPages {
			getOK(b, ts, path)
		}
		b.ReportMetric(float64(s.cur.rows.N), "traces")
		reportSteadyMemory(b, s.cur)
		ts.Close()
		s.Close()
	}
}

// reportSteadyMemory reports r's process's memory by owner (see
// BenchmarkViewSteadyMemory).
func reportSteadyMemory(b *testing.B, r *runDB) {
	// As the process holds it before a GC returns the freed memory: the
	// Go heap's spans the runtime keeps (in use or free, not returned).
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapSys-m.HeapReleased)/(1<<20), "go-heap-kept-before-MB")
	b.ReportMetric(float64(statusKB("RssAnon"))/1024, "rss-anon-before-MB")
	debug.FreeOSMemory()
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "go-heap-MB")
	goResident := m.HeapInuse + m.StackInuse + m.MSpanInuse + m.MCacheInuse + m.BuckHashSys + m.GCSys + m.OtherSys
	b.ReportMetric(float64(goResident)/(1<<20), "go-resident-MB")
	var duckMem, duckTemp int64
	if err := r.db.QueryRow(`SELECT sum(memory_usage_bytes), sum(temporary_storage_bytes) FROM duckdb_memory()`).Scan(&duckMem, &duckTemp); err == nil {
		b.ReportMetric(float64(duckMem)/(1<<20), "duckdb-MB")
	}
	if rows, err := r.db.Query(`SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0`); err == nil {
		var parts []string
		for rows.Next() {
			var tag string
			var n int64
			if rows.Scan(&tag, &n) == nil {
				parts = append(parts, fmt.Sprintf("%s %.1f MB", tag, float64(n)/(1<<20)))
			}
		}
		rows.Close()
		b.Logf("duckdb_memory(): %s", strings.Join(parts, ", "))
	}
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
	if path := os.Getenv("DATG_BENCH_HEAPPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// statusKB is a field of /proc/self/status in kB (0 when not there).
func statusKB(field string) int64 {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, field+": %d kB", &kb); err == nil {
			return kb
		}
	}
	return 0
}
