package view

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// The search index built from the text column's pages (scanTexts) is byte
// for byte the one built through parquet-go's generic reader, as before,
// over searchRun's hostile texts (a NUL, an empty text, long texts, case
// folds) in more than one row group.
func TestSearchIndexFromPagesIsWhatItWas(t *testing.T) {
	ctx := context.Background()
	dir, texts := searchRun(t, 2*sigSegment+300)
	r, err := openRunDBWith(ctx, dir, "", 42, viewLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer r.db.Close()
	snap := r.db.SnapshotDir()
	groups := 0
	paths, err := store.Paths(snap, schema.Traces.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		pf, f, err := store.OpenFile(p, true)
		if err != nil {
			t.Fatal(err)
		}
		groups += len(pf.RowGroups())
		f.Close()
	}
	if groups < 2 {
		t.Fatalf("the traces are in %d row group: the test reads no second one", groups)
	}
	legacy := func(fn func(id string, text []byte) error) error {
		type idText struct {
			TraceID string `parquet:"trace_id"`
			Text    string `parquet:"text"`
		}
		return store.ScanProjection(snap, schema.Traces.Table, func(r *idText) error {
			return fn(r.TraceID, []byte(r.Text))
		})
	}
	was, now := t.TempDir(), t.TempDir()
	if err := buildSearchIndexFrom(ctx, was, "key", r.rows, legacy); err != nil {
		t.Fatal(err)
	}
	if err := buildSearchIndex(ctx, snap, now, "key", r.rows); err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(was)
	if err != nil {
		t.Fatal(err)
	}
	if len(des) == 0 {
		t.Fatal("the index has no files")
	}
	for _, de := range des {
		a, errA := os.ReadFile(filepath.Join(was, de.Name()))
		b, errB := os.ReadFile(filepath.Join(now, de.Name()))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", de.Name(), errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: %d bytes from the pages, %d as before: they differ", de.Name(), len(b), len(a))
		}
	}
	t.Logf("%d texts in %d row groups, %d files compared", len(texts), groups, len(des))
}
