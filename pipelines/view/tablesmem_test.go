package view

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// Each paper table's query starts with none of the pages DuckDB's
// allocator kept from the one before (computeTables returns them after
// each; run here as the tables' own process runs it, RunTablesChild). Kept, they added
// up to the first start's peak: 130 MB of them after a table's query at
// 382,500 traces, 1 MB of its own memory left (BENCHMARKS.md, "The
// viewer's first start"). Without the release every table starts with
// 42-96 MB kept; with it, all but one with none, and one table may start
// with a free that landed after the release (a result's memory freed by
// another thread: 24 MB once in CI under load). Where the allocator
// cannot be read (not DuckDB's Linux build) the test has nothing to check.
func TestEachTableStartsWithDuckDBsMemoryReturned(t *testing.T) {
	if duck.AllocatorKept() < 0 {
		t.Skip("DuckDB's allocator is not readable here")
	}
	var mu sync.Mutex
	kept := map[string]int64{}
	var order []string
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table != "" {
			mu.Lock()
			kept[table] = duck.AllocatorKept()
			order = append(order, table)
			mu.Unlock()
		}
		return nil
	})
	dir := t.TempDir()
	var progress strings.Builder
	err := RunTablesChild(context.Background(), TablesChildConfig{Generation: writeRun(t, 300), Out: filepath.Join(dir, "tables"),
		Key: uncachedKey, Stdout: &progress})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	// The first table follows the inputs' check, the others each a table.
	over := 0
	for _, table := range order {
		t.Logf("%s: %d KB kept before it", table, kept[table]>>10)
		if kept[table] > keptBound {
			over++
		}
	}
	if len(order) < 2 {
		t.Fatalf("%d tables computed", len(order))
	}
	if over > 1 {
		t.Errorf("%d of %d tables began with more than %d KB of freed pages kept by DuckDB's allocator", over, len(order), keptBound>>10)
	}
}

// keptBound is the most DuckDB's allocator may hold freed when a table's
// query begins: what it frees between the release and the query (the
// query's own preparation), far under a query's leftovers.
const keptBound = 1 << 20
