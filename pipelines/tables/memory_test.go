package tables

import (
	"context"
	"testing"
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
