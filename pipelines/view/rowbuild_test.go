package view

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// TestRowFileBuildIsWhatItWas: the row file streamed by one query
// (buildRows) is byte for byte the one the tables of the old build made
// (legacyBuildRows), over the index's hostile runs (three aligners, tied
// and missing scores, stale and missing verdicts) and the trace page's
// (verdicts under answers, detections under compliance, with and without
// them), the new one built under the viewer's memory cap, in one part and
// in parts of 97 traces and of five (ids repeated across parts' ends).
func TestRowFileBuildIsWhatItWas(t *testing.T) {
	ctx := context.Background()
	type run struct {
		dir   string
		parts []int
	}
	runs := map[string]run{}
	for _, n := range []int{0, 1, 300, 2500} {
		parts := []int{indexPartRows, 97}
		if n <= 300 {
			parts = append(parts, 5)
		}
		runs[fmt.Sprintf("index run of %d", n)] = run{writeIndexRun(t, n, uint64(n)+11), parts}
	}
	for _, full := range []bool{false, true} {
		dir, _ := writePageRun(t, 700, 5, full)
		runs[fmt.Sprintf("page run, full %v", full)] = run{dir, []int{indexPartRows, 97}}
	}
	defer func(n int) { indexPartRows = n }(indexPartRows)
	for name, run := range runs {
		dir := run.dir
		open := func(limits duck.Limits) *duck.DB {
			t.Helper()
			db, err := duck.OpenWith(ctx, dir, limits)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		// One database for the old build, one (under the viewer's cap) for
		// the new builds of every part size: a database's setup costs more
		// than a build of these runs.
		oldDB, newDB := open(duck.DefaultLimits()), open(viewLimits())
		build := func(db *duck.DB, how func(context.Context, *duck.DB, *os.File, string) error) []byte {
			t.Helper()
			f, err := os.Create(filepath.Join(t.TempDir(), "rows"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := how(ctx, db, f, "the same key"); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			data, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
		old := build(oldDB, legacyBuildRows)
		for _, size := range run.parts {
			indexPartRows = size
			now := build(newDB, buildRows)
			if !bytes.Equal(old, now) {
				t.Errorf("%s, parts of %d: the streamed row file (%d bytes) differs from the old build's (%d bytes)", name, size, len(now), len(old))
			}
		}
		if len(old) < 100 {
			t.Errorf("%s: a row file of %d bytes: the test compares nothing", name, len(old))
		}
	}
}

// Each part of the row file's build begins with the pages the part before
// freed returned: DuckDB's allocator kept 140-170 MB of them after a part
// at ten times the paper's design, and the build's peak grew part after
// part (176 to 231 MB of anonymous memory over 24 parts).
func TestEachPartOfTheRowBuildStartsWithMemoryReturned(t *testing.T) {
	if duck.AllocatorKept() < 0 {
		t.Skip("DuckDB's allocator is not readable here")
	}
	ctx := context.Background()
	dir := writeIndexRun(t, 2500, 7)
	db, err := duck.OpenWith(ctx, dir, viewLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	defer func(n int) { indexPartRows = n }(indexPartRows)
	indexPartRows = 500
	var kept []int64
	beforeIndexPart = func() { kept = append(kept, duck.AllocatorKept()) }
	defer func() { beforeIndexPart = nil }()
	f, err := os.Create(filepath.Join(t.TempDir(), "rows"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := buildRows(ctx, db, f, "key"); err != nil {
		t.Fatal(err)
	}
	if len(kept) < 4 {
		t.Fatalf("%d parts built, want 5", len(kept))
	}
	// The first part follows the queries that count and cut the run.
	over := 0
	for i, k := range kept[1:] {
		t.Logf("part %d: %d KB kept before it", i+1, k>>10)
		if k > keptBound {
			over++
		}
	}
	if over > 1 {
		t.Errorf("%d of %d parts began with more than %d KB of freed pages kept by DuckDB's allocator", over, len(kept)-1, keptBound>>10)
	}
}
