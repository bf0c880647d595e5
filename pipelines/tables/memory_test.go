package tables

import (
	"context"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// The stage's database has its memory capped (duck.StageLimits), not half
// the machine's: its memory stays flat in the run's size.
func TestOpenRunCapsMemory(t *testing.T) {
	db, err := openRun(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// DuckDB shows the limit as a size, such as 256.0 MiB.
	var shown string
	if err := db.QueryRow("SELECT current_setting('memory_limit')::VARCHAR").Scan(&shown); err != nil {
		t.Fatal(err)
	}
	limit, err := duck.ParseSize(strings.ReplaceAll(shown, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	if want := db.Limits.MemoryLimit; want > stageMemory || limit > want+want/50 || limit < want-want/50 {
		t.Errorf("memory_limit %d (Limits %d), want at most %d", limit, want, stageMemory)
	}
}
