package view

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/datg/datg/study"
)

// regexpScan is the traces whose text matches q case-insensitively by
// DuckDB's RE2 (regexp_matches(text, '(?i)' || quoted q)): the outside
// reference the search's fold and match (fold.go) follow, and what
// scanSearch was.
func regexpScan(ctx context.Context, r *runDB, q string) (bitmap, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT trace_id FROM traces WHERE regexp_matches(text, ?)`, "(?i)"+regexp.QuoteMeta(q))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := newBitmap(r.rows.N)
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		j, ok := r.rows.find(id)
		if !ok {
			return nil, fmt.Errorf("%s: not in the row file", id)
		}
		found.set(j)
	}
	return found, rows.Err()
}

// TestScanSearchNeedsNoDuckDBMemory: a search before the search index is
// open (or of a query it does not take) finds what RE2 finds with
// DuckDB's memory limit far below what a regexp_matches scan of the texts
// needs. The scan was that query, under the viewer's 256 MiB beside the
// paper tables' computation at start: every search right after a start
// of the 38,250-trace run was a 500 ("Out of Memory ... 256.0 MiB/256.0
// MiB used", 8 starts of 8 at load 6).
func TestScanSearchNeedsNoDuckDBMemory(t *testing.T) {
	ctx := context.Background()
	dir, texts := searchRun(t, 600)
	cache := t.TempDir()
	r := openIndexed(t, dir, cache)
	qs := append(searchQueries(texts)[:60], "apples", "STRADDLE", "zzz-nowhere")
	wants := make([]bitmap, len(qs))
	for k, q := range qs {
		var err error
		if wants[k], err = regexpScan(ctx, r, q); err != nil {
			wants[k] = nil
		}
	}
	// The same generation opened again under a small cap, its row file
	// read from the cache (no build) and no search index: every search
	// is the scan.
	defer func(m int64) { viewMemory = m }(viewMemory)
	viewMemory = 4 << 20
	small, err := openRunDBWith(ctx, dir, cache, study.ProbeSeed, viewLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer small.close()
	if small.textIndex.Load() != nil {
		t.Fatal("the search index is open: the search is not the scan")
	}
	if _, err := regexpScan(ctx, small, "apples"); err == nil {
		t.Fatal("DuckDB's regexp scan ran under the cap: the test proves nothing")
	}
	for k, q := range qs {
		got, err := small.searchRows(ctx, q)
		switch {
		case wants[k] == nil && err == nil:
			t.Errorf("%q: the scan finds %d traces, RE2 refuses the query", q, got.count())
		case wants[k] != nil && err != nil:
			t.Errorf("%q: %v", q, err)
		case !slices.Equal(got, wants[k]):
			t.Errorf("%q: the scan finds %d traces, RE2 %d", q, got.count(), wants[k].count())
		}
	}
}
