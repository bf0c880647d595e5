package view

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// TestSignaturesAreTheTextsSize: short texts make a small signature file
// (it was 4 KB a trace whatever the text: 1.58 GB at 382,500 short
// traces), and the sets at the encodings' edges (255 traces listed, 256 a
// bitmap, one, none) find what the scan finds, in both segments.
func TestSignaturesAreTheTextsSize(t *testing.T) {
	n := sigSegment + 700
	var traces []schema.Trace
	for i := range n {
		text := fmt.Sprintf("step %d: x = %d", i, i%97)
		k := i % sigSegment
		switch {
		case k < maxListed:
			text += " qzx"
		case k < 2*maxListed+1:
			text += " vjk"
		case k == 2*maxListed+1:
			text += " wpf"
		}
		if i == n-1 {
			text = ""
		}
		traces = append(traces, schema.Trace{TraceID: fmt.Sprintf("t%05d", i), Model: "m", Direction: "en-en", InputLang: "en",
			ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base", Text: text})
	}
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	r := openIndexed(t, dir, cache)
	key, _ := searchKey(r.db.SnapshotDir())
	fi, err := os.Stat(filepath.Join(cache, "view", key, "sig"))
	if err != nil {
		t.Fatal(err)
	}
	if perTrace := fi.Size() / int64(n); perTrace > 512 {
		t.Errorf("the signatures take %d bytes a trace of about 20 bytes of text, want at most 512", perTrace)
	}
	t.Logf("%d traces: signatures of %d bytes (%d a trace)", n, fi.Size(), fi.Size()/int64(n))
	ctx := context.Background()
	for _, q := range []string{"qzx", "QZX", "vjk", "wpf", "x = 9", "step 4", "zz", "q", "qz", " ", "step 4999:", "nothing"} {
		want, err := regexpScan(ctx, r, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.textIndex.Load().searchRows(q, r.rows.N)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: the index finds %d traces, the scan %d (%v)", q, got.count(), want.count(), err)
		}
	}
	for q, c := range map[string]int{"qzx": 2 * maxListed, "vjk": 2 * (maxListed + 1), "wpf": 2} {
		if got, _ := r.searchRows(ctx, q); got.count() != c {
			t.Errorf("%q: %d traces, want %d", q, got.count(), c)
		}
	}
}
