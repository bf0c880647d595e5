package view

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"
	"unicode"

	"github.com/datg/datg/internal/testenv"
)

// commonWords are strings most real traces hold, at their start (a word
// of the prose), throughout (LaTeX) or near their end (the answer's
// forms), and one no trace holds: each a new search costs reading the
// candidates' texts until the word shows.
var commonWords = []string{"Let", `\boxed{`, "the answer", "the", "final answer", "</think>", "zzqx-nowhere"}

// BenchmarkSearchCommonWords is a new search of a common word (issue 22:
// a filter change under 200 ms at 38,250 traces), over the run in
// $DATG_BENCH_RUN (scripts/scale.sh 1's, texts of real length), else over
// DATG_BENCH_DENSITY_N internal/tracegen traces (8,192; as
// BenchmarkSearchDensity's). The search index is built first, in
// $DATG_BENCH_CACHE when set (kept for the next run: a 38,250-trace
// index takes minutes), else in a temporary directory. Per word, "index"
// is the search index's search alone and "page" the index page of the
// search over HTTP, each time a new search (the kept searches dropped,
// the word in another case); cpu-ns/op is the process's CPU time,
// checked-MB/op the bytes of texts a search checked.
//
//	DATG_BENCH_RUN=/tmp/run DATG_BENCH_CACHE=/tmp/cache go test -run '^$' -bench BenchmarkSearchCommonWords -benchtime 20x ./pipelines/view
func BenchmarkSearchCommonWords(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		n := 8192
		if s := os.Getenv("DATG_BENCH_DENSITY_N"); s != "" {
			n, _ = strconv.Atoi(s)
		}
		dir = b.TempDir()
		writeDensityRun(b, dir, n)
	}
	cache := os.Getenv("DATG_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	start, cpu := time.Now(), testenv.CPUTime()
	s, err := newServer(context.Background(), dir, cache, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := s.cur
	<-r.indexDone
	x := r.textIndex.Load()
	if x == nil {
		b.Fatalf("no search index: %v", r.indexing.Load())
	}
	b.Logf("%d traces; opened, search index ready: %v (%v CPU)", x.n, time.Since(start), testenv.CPUTime()-cpu)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	anyCase := func(q string, i int) string {
		rs := []rune(q)
		for k := range rs {
			if i>>(k%16)&1 == 1 {
				rs[k] = unicode.ToUpper(rs[k])
			}
		}
		return string(rs)
	}
	for _, w := range commonWords {
		found, err := x.search(w)
		if err != nil {
			b.Fatal(err)
		}
		cands, err := x.candidates(appendFolded(nil, w))
		if err != nil {
			b.Fatal(err)
		}
		name := url.PathEscape(w)
		b.Run(fmt.Sprintf("traces=%d/q=%s/index", x.n, name), func(b *testing.B) {
			i := 0
			cpu, checked := testenv.CPUTime(), x.checked.Load()
			for b.Loop() {
				if _, err := x.search(anyCase(w, i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
			testenv.ReportCPU(b, cpu, 0)
			b.ReportMetric(float64(x.checked.Load()-checked)/float64(b.N)/1e6, "checked-MB/op")
			b.ReportMetric(100*float64(len(found))/float64(x.n), "matches-%")
			b.ReportMetric(100*float64(len(cands)-len(found))/float64(x.n), "false-candidates-%")
		})
		b.Run(fmt.Sprintf("traces=%d/q=%s/page", x.n, name), func(b *testing.B) {
			i := 0
			cpu := testenv.CPUTime()
			for b.Loop() {
				r.mu.Lock()
				r.searches = nil
				r.mu.Unlock()
				path := "/?q=" + url.QueryEscape(anyCase(w, i))
				i++
				getOK(b, ts, path)
			}
			testenv.ReportCPU(b, cpu, 0)
		})
	}
}
