package view

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// TestViewerHeapIsFlatInTheTraces: what the viewer keeps in the Go heap
// while a generation is open, with its search index ready and pages
// (the index, a search, a filter, sorted by a score) answered, does not grow with the
// number of traces. Two runs of the same design, 2,000 and 20,000 traces:
// the heap held by the second may exceed the first's by at most 20 KB
// per 1,000 more traces (the kept search's bitmap and the dictionaries'
// growth are far below that; a row of the index in the heap, as it was
// before the row file, is about 0.8 KB a trace: 800 KB per 1,000). A
// structural check with a generous bound, not a timing.
func TestViewerHeapIsFlatInTheTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("writes two runs of 2,000 and 20,000 traces")
	}
	held := map[int]int64{}
	for _, n := range []int{2000, 20000} {
		dir := writeIndexRun(t, n, 11)
		base := testenv.LiveHeap()
		s, err := newServer(context.Background(), dir, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		<-s.cur.indexDone
		ts := httptest.NewServer(s.Handler())
		for _, path := range []string{"/", "/?q=apples", "/?model=Qwen%2FQwen3-4B&sort=car&desc=1&page=2", "/?q=apples&direction=en-x"} {
			if code, _, _ := get(t, ts, path); code != http.StatusOK {
				t.Fatalf("%s: %d", path, code)
			}
		}
		held[n] = testenv.LiveHeap() - base
		runtime.KeepAlive(s)
		ts.Close()
		s.Close()
		t.Logf("%d traces: the viewer holds %d KB of Go heap", n, held[n]>>10)
	}
	perThousand := float64(held[20000]-held[2000]) / 18
	if perThousand > 20<<10 {
		t.Errorf("the Go heap the viewer holds grows by %.0f KB per 1,000 traces (%d KB at 2,000, %d KB at 20,000), want at most 20 KB",
			perThousand/1024, held[2000]>>10, held[20000]>>10)
	}
}
