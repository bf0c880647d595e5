package view

import (
	"context"
	"sync"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// Each paper table's query starts with none of the pages DuckDB's
// allocator kept from the one before (returned after each: tablestask.go).
// Kept, they added up to the first start's peak: 130 MB of them after a
// table's query at 382,500 traces, 1 MB of its own memory left
// (BENCHMARKS.md, "The viewer's first start"). Where the allocator cannot
// be read (not DuckDB's Linux build) the test has nothing to check.
func TestEachTableStartsWithDuckDBsMemoryReturned(t *testing.T) {
	if duck.AllocatorKept() < 0 {
		t.Skip("DuckDB's allocator is not readable here")
	}
	tablesAtOpen(t)
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
	s, ts := serveWith(t, writeRun(t, 300), t.TempDir())
	tablesWhenReady(t, ts)
	<-currentTask(s).done
	mu.Lock()
	defer mu.Unlock()
	// The first table follows the inputs' check, the others each a table.
	var worst int64
	for _, table := range order {
		t.Logf("%s: %d KB kept before it", table, kept[table]>>10)
		worst = max(worst, kept[table])
	}
	if len(order) < 2 {
		t.Fatalf("%d tables computed", len(order))
	}
	if worst > keptBound {
		t.Errorf("up to %d KB of freed pages kept by DuckDB's allocator when a table's query began, want at most %d KB", worst>>10, keptBound>>10)
	}
}

// keptBound is the most DuckDB's allocator may hold freed when a table's
// query begins: what it frees between the release and the query (the
// query's own preparation), far under a query's leftovers.
const keptBound = 1 << 20
