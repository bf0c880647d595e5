package score

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strings"
	"testing"
)

// maxTableBytesPerAlignment bounds what DuckDB holds in tables (in memory
// or spilled) while datg score scores its first part, per alignment of
// the run beyond a constant (the study's reference tables). Copies of
// the run's inputs in trace id order as temporary tables (before the
// part files) held them whole all along: 573 bytes an alignment here,
// resident between the parts and under each part's peak, part of what
// datg score's peak gained from 1x to 10x (issue 23).
const maxTableBytesPerAlignment = 16

// TestScoreHoldsNoCopyOfTheRun scores runs of 4,000 and 20,000
// alignments, both in parts (of 900 alignments), and reads what
// DuckDB's tables hold when the first part's scores.sql starts: it may not
// grow with the run by more than a few bytes an alignment.
func TestScoreHoldsNoCopyOfTheRun(t *testing.T) {
	defer func(n int) { partAlignments = n }(partAlignments)
	partAlignments = 900
	held := map[int]int64{}
	for _, pairs := range []int{4_000, 20_000} {
		dir := t.TempDir()
		designWorld(rand.New(rand.NewPCG(uint64(pairs), 3)), pairs, 1).write(t, dir)
		held[pairs] = -1
		beforeQuery = func(ctx context.Context, conn *sql.Conn, query string) {
			if held[pairs] >= 0 || !strings.Contains(query, "stg_alignment_scores") {
				return
			}
			var bytes int64
			if err := conn.QueryRowContext(ctx, `SELECT coalesce(sum(memory_usage_bytes + temporary_storage_bytes), 0)
				FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`).Scan(&bytes); err != nil {
				t.Error(err)
			}
			held[pairs] = bytes
		}
		sum, err := Run(context.Background(), Config{Data: dir})
		beforeQuery = nil
		if err != nil {
			t.Fatal(err)
		}
		if sum.Scored != pairs {
			t.Fatalf("scored %d of %d", sum.Scored, pairs)
		}
		if held[pairs] < 0 {
			t.Fatalf("%d alignments: scores.sql never ran", pairs)
		}
	}
	per := (held[20_000] - held[4_000]) / 16_000
	t.Logf("DuckDB's tables at the first part: %d KB at 4,000 alignments, %d KB at 20,000: %d bytes an alignment", held[4_000]>>10, held[20_000]>>10, per)
	if per > maxTableBytesPerAlignment {
		t.Errorf("datg score holds %d bytes of tables per alignment of the run while it scores a part (at most %d): its memory grows with the run", per, maxTableBytesPerAlignment)
	}
}
