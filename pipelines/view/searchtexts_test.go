package view

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// TestWindowsCoverEveryStart: for texts of every length around the
// windows' ends (from either end, where they meet) and strings of 1 to
// more than a window's bytes, scanWindows's windows stay inside the text,
// are at most verifyChunk+m-1 bytes, and together hold every place the
// string can start in the text, each start in some window with the m-1
// bytes after it; a yes or an error stops them.
func TestWindowsCoverEveryStart(t *testing.T) {
	t.Parallel()
	lengths := []int64{0, 1, 2, 7, 8, 9}
	for _, at := range chunkEnds() {
		for _, d := range []int64{-9, -1, 0, 1, 9} {
			for _, l := range []int64{int64(at), 2 * int64(at), 2*int64(at) + int64(firstChunk)} {
				if l+d > 0 {
					lengths = append(lengths, l+d)
				}
			}
		}
	}
	for _, n := range lengths {
		for _, m := range []int64{1, 2, 3, 8, firstChunk + 1, verifyChunk + 5} {
			covered := make([]bool, max(0, n-m+1))
			windows := 0
			found, err := scanWindows(n, m, func(lo, hi int64) (bool, error) {
				windows++
				if lo < 0 || hi > n || hi-lo < m || hi-lo > verifyChunk+m-1 {
					t.Fatalf("n=%d m=%d: window [%d, %d)", n, m, lo, hi)
				}
				for s := lo; s+m <= hi; s++ {
					covered[s] = true
				}
				return false, nil
			})
			if found || err != nil {
				t.Fatalf("n=%d m=%d: %v %v", n, m, found, err)
			}
			for s, ok := range covered {
				if !ok {
					t.Fatalf("n=%d m=%d: no window holds the start %d", n, m, s)
				}
			}
			if n >= m && windows == 0 {
				t.Fatalf("n=%d m=%d: no window", n, m)
			}
			if n < 3*firstChunk || m > 8 {
				continue
			}
			for stopAt := 1; stopAt <= 3; stopAt++ {
				boom := errors.New("boom")
				for _, want := range []error{nil, boom} {
					calls := 0
					found, err := scanWindows(n, m, func(lo, hi int64) (bool, error) {
						calls++
						return calls == stopAt && want == nil, map[bool]error{true: want}[calls == stopAt]
					})
					if calls != stopAt || found != (want == nil) || !errors.Is(err, want) {
						t.Fatalf("n=%d m=%d: stopping at window %d (%v): %d windows, %v %v", n, m, stopAt, want, calls, found, err)
					}
				}
			}
		}
	}
}

// TestSearchChecksTextsFromBothEnds: texts of 200 KB holding the word at
// their start or only at their end are each settled by the first window
// from that end: the search checks at most two first windows a text, not
// the texts' 12.8 MB.
func TestSearchChecksTextsFromBothEnds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const n, size = 64, 200 << 10
	var traces []schema.Trace
	for i := range n {
		text := strings.Repeat("lorem ipsum ", size/12) + "final answer"
		if i%2 == 0 {
			text = "final answer " + text[:len(text)-len("final answer")]
		}
		traces = append(traces, schema.Trace{TraceID: fmt.Sprintf("t%05d", i), Model: "m", Direction: "en-en", InputLang: "en",
			ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base", Text: text})
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	r := openIndexed(t, dir, t.TempDir())
	x := r.textIndex.Load()
	before := x.checked.Load()
	found, err := x.search("FINAL Answer")
	if err != nil || len(found) != n {
		t.Fatalf("%d found (%v), want %d", len(found), err, n)
	}
	m := int64(len("final answer"))
	if got, most := x.checked.Load()-before, n*2*(firstChunk+m-1); got > most {
		t.Errorf("the search checked %d bytes of texts, want at most %d (two first windows a text)", got, most)
	}
}

// TestSearchOfTextsCutShortIsAnError: the texts file cut short under an
// open index (its pages mapped) makes a search fail with an error naming
// the file, not crash the viewer.
func TestSearchOfTextsCutShortIsAnError(t *testing.T) {
	t.Parallel()
	dir, _ := searchRun(t, 500)
	cache := t.TempDir()
	r := openIndexed(t, dir, cache)
	x := r.textIndex.Load()
	if err := os.Truncate(x.texts.Name(), 0); err != nil {
		t.Fatal(err)
	}
	_, err := x.search("Straddle")
	if err == nil || !strings.Contains(err.Error(), filepath.Base(x.texts.Name())) {
		t.Fatalf("a search of texts cut short: %v", err)
	}
}
