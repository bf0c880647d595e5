package duck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A reopened database reads the generation the first one pinned, however
// many commits came since, with the run's views, macros and staging views
// made again and the probe's seed kept; the entries asked for are in its new private directory, and
// the old directory is gone.
func TestReopenKeepsTheGenerationAndTheNamedFiles(t *testing.T) {
	dir := t.TempDir()
	writeAnswers(t, dir, "old")
	db := open(t, dir)
	ctx := context.Background()
	oldPrivate := db.PrivateDir()
	if err := os.WriteFile(filepath.Join(oldPrivate, "kept"), []byte("part"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(oldPrivate, "dropped"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeAnswers(t, dir, "new")
	if err := db.SetProbeSeed(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if err := db.Reopen(ctx, "kept"); err != nil {
		t.Fatal(err)
	}
	checkQuery(t, "the reopened view", db, "SELECT trace_id FROM answers", "trace_id\nold\n")
	checkQuery(t, "the probe's seed", db, "SELECT seed FROM datg_probe", "seed\n7\n")
	checkQuery(t, "a staging view", db, "SELECT count(*) AS n FROM stg_graded_traces", "n\n0\n")
	if got, err := os.ReadFile(filepath.Join(db.PrivateDir(), "kept")); err != nil || string(got) != "part" {
		t.Errorf("the kept file after the reopen: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(db.PrivateDir(), "dropped")); !os.IsNotExist(err) {
		t.Errorf("a file not named to keep is in the new private directory: %v", err)
	}
	if _, err := os.Stat(oldPrivate); !os.IsNotExist(err) {
		t.Errorf("the old private directory is still there: %v", err)
	}
	// The file kept is readable by the new database: its private
	// directory is its temporary one.
	checkQuery(t, "the kept file", db, fmt.Sprintf("SELECT content FROM read_text(%s)", Quote(filepath.Join(db.PrivateDir(), "kept"))), "content\npart\n")
	if err := db.Reopen(ctx, "kept", "missing"); err == nil {
		t.Error("a reopen that cannot keep what it was asked to succeeded")
	}
	checkQuery(t, "after a failed reopen", db, "SELECT trace_id FROM answers", "trace_id\nold\n")
	if _, err := os.Stat(filepath.Join(db.PrivateDir(), "kept")); err != nil {
		t.Errorf("a failed reopen lost the file it had moved: %v", err)
	}
}

// What DuckDB keeps from query to query outside its buffer manager (the
// footers of the Parquet files read, its eviction queue's nodes) is
// returned by a reopen, and not before.
func TestReopenReturnsWhatDuckDBKeptFromItsQueries(t *testing.T) {
	if MallocInUse() < 0 {
		t.Skip("the C heap cannot be read here")
	}
	dir := t.TempDir()
	db := open(t, dir)
	ctx := context.Background()
	// Files of many row groups, each read by a join: their footers are
	// cached and every join leaves nodes in the eviction queue.
	for i := range 20 {
		f := filepath.Join(db.PrivateDir(), fmt.Sprintf("part-%d.parquet", i))
		if _, err := db.ExecContext(ctx, fmt.Sprintf("COPY (SELECT r %% 997 AS k, r AS v, 'text ' || r AS s FROM range(60000) t(r)) TO %s (FORMAT parquet, ROW_GROUP_SIZE 2048)", Quote(f))); err != nil {
			t.Fatal(err)
		}
	}
	join := func(i int) {
		f := filepath.Join(db.PrivateDir(), fmt.Sprintf("part-%d.parquet", i))
		var n int64
		if err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM read_parquet(%[1]s) a JOIN read_parquet(%[1]s) b USING (k) WHERE a.v < 3000", Quote(f))).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	join(0)
	ReleaseMemory()
	start := MallocInUse()
	for i := range 20 {
		for range 10 {
			join(i)
		}
	}
	ReleaseMemory()
	grown := MallocInUse() - start
	names := make([]string, 20)
	for i := range names {
		names[i] = fmt.Sprintf("part-%d.parquet", i)
	}
	if err := db.Reopen(ctx, names...); err != nil {
		t.Fatal(err)
	}
	join(0)
	ReleaseMemory()
	after := MallocInUse() - start
	t.Logf("C heap in use: %d KB more after 200 joins over 20 files, %d KB after the reopen and one join", grown>>10, after>>10)
	if grown < 1<<20 {
		t.Fatalf("the joins kept %d KB: too little to tell a reopen's effect", grown>>10)
	}
	if after > grown/4 {
		t.Errorf("after the reopen the C heap holds %d KB of the %d KB the joins kept", after>>10, grown>>10)
	}
}
