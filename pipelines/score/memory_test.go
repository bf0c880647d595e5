package score

import (
	"context"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// The stage's database has its memory capped (duck.StageLimits), not half
// the machine's: DuckDB spills past the cap instead of growing with the run.
func TestOpenRunCapsMemory(t *testing.T) {
	db, err := openRun(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	limit, err := db.MemoryLimitSet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := db.Limits.MemoryLimit; want > stageMemory || limit > want+want/50 || limit < want-want/50 {
		t.Errorf("memory_limit %d (Limits %d), want at most %d", limit, want, stageMemory)
	}
}

// The stage's DuckDB returns the pages a query frees as it frees them:
// after a grouping of a million keys, which frees tens of MB when it
// ends, its allocator keeps none of them, with no duck.ReleaseMemory. It
// kept them for a second before, during a part's query too: up to 236 MB
// of a part's peak at ten times the paper's design (issue 23).
func TestOpenRunKeepsNoFreedPages(t *testing.T) {
	if duck.AllocatorKept() < 0 {
		t.Skip("DuckDB's allocator is not readable here")
	}
	ctx := context.Background()
	db, err := openRun(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var groups int64
	if err := db.QueryRowContext(ctx,
		"SELECT count(*) FROM (SELECT i % 1000003 AS k, count(*) FROM range(3000000) t(i) GROUP BY k)").Scan(&groups); err != nil {
		t.Fatal(err)
	}
	if groups != 1000003 {
		t.Fatalf("%d groups", groups)
	}
	if kept := duck.AllocatorKept(); kept > 1<<20 {
		t.Errorf("DuckDB's allocator keeps %d KB the query freed, want at most 1024 KB", kept>>10)
	}
}
