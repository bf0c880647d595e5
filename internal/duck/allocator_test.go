package duck

import (
	"context"
	"testing"
)

// A query's freed pages, which DuckDB's allocator keeps, are returned by
// ReleaseMemory: a grouping of a million keys frees tens of MB when it
// ends, and none of it is kept after the release.
func TestReleaseMemoryReturnsAQuerysPages(t *testing.T) {
	if AllocatorKept() < 0 {
		t.Skip("DuckDB's allocator is not readable here")
	}
	dir := t.TempDir()
	writeAnswers(t, dir, "t1")
	db, err := OpenWith(context.Background(), dir, StageLimits(256<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRowContext(context.Background(),
		"SELECT count(*) FROM (SELECT i % 1000003 AS k, count(*) FROM range(3000000) t(i) GROUP BY k)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1000003 {
		t.Fatalf("%d groups", n)
	}
	t.Logf("%d KB kept after the query", AllocatorKept()>>10)
	ReleaseMemory()
	if kept := AllocatorKept(); kept > 1<<20 {
		t.Errorf("%d KB kept after ReleaseMemory, want at most 1024 KB", kept>>10)
	}
}
