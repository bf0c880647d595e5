package view

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// BenchmarkTracePageOf is the trace page of given traces of a given run
// (texts of real length, as scripts/scale.sh writes them), CPU a page:
//
//	DATG_BENCH_RUN=DIR DATG_BENCH_CACHE=CACHE DATG_BENCH_TRACES=ID,ID \
//	  go test -run '^$' -bench BenchmarkTracePageOf -benchtime 20x -cpuprofile cpu.pprof ./pipelines/view
//
// CACHE is a datg view's cache of the run (its row file, so the benchmark
// does not build it); the page is asked for as Chromium does, gzip
// accepted.
func BenchmarkTracePageOf(b *testing.B) {
	dir, ids := os.Getenv("DATG_BENCH_RUN"), os.Getenv("DATG_BENCH_TRACES")
	if dir == "" || ids == "" {
		b.Skip("DATG_BENCH_RUN and DATG_BENCH_TRACES are not set")
	}
	cache := os.Getenv("DATG_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	s, err := newServer(context.Background(), dir, cache, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	<-s.cur.indexDone
	h := s.Handler()
	for _, id := range strings.Split(ids, ",") {
		b.Run(id, func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				req, _ := http.NewRequest("GET", "/trace?id="+url.QueryEscape(id), nil)
				req.Header.Set("Accept-Encoding", "gzip")
				w := &discard{header: http.Header{}}
				h.ServeHTTP(w, req)
				if w.status != 0 && w.status != http.StatusOK {
					b.Fatalf("%s: %d", id, w.status)
				}
			}
			testenv.ReportCPU(b, cpu, 0)
		})
	}
}

// discard is a ResponseWriter that keeps the status only.
type discard struct {
	header http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(code int)        { d.status = code }
