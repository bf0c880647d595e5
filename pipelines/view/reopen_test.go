package view

import (
	"context"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// The viewer serves, and builds its search index, from a fresh DuckDB
// once it has built its row file: what the build's queries left in
// DuckDB's C heap (its eviction queue's records of their blocks) is not
// carried. The database after a build holds what one that read the row
// file from the cache holds.
func TestTheViewerServesFromAFreshDuckDBAfterItsBuild(t *testing.T) {
	if duck.MallocInUse() < 0 {
		t.Skip("the C heap cannot be read here")
	}
	ctx := context.Background()
	dir := writeIndexRun(t, 2500, 7)
	defer func(n int) { indexPartRows = n }(indexPartRows)
	indexPartRows = 100
	cache := t.TempDir()
	heldAfterOpen := func() int64 {
		t.Helper()
		base := duck.MallocInUse()
		r, err := openRunDB(ctx, dir, cache)
		if err != nil {
			t.Fatal(err)
		}
		defer r.close()
		return duck.MallocInUse() - base
	}
	built := heldAfterOpen()
	cached := heldAfterOpen()
	t.Logf("C heap held once open: %d KB after building the row file in 25 parts, %d KB after reading it from the cache", built>>10, cached>>10)
	if built > cached+1<<20 {
		t.Errorf("after its build the viewer's DuckDB holds %d KB of C heap, %d KB more than one that built nothing", built>>10, (built-cached)>>10)
	}
}
