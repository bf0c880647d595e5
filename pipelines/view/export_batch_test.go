package view

import (
	"bytes"
	"context"
	"maps"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// An export's pages made in batches (Pages: a query per table for many
// traces, each DAG drawn once, pages made at once) are the bytes of the
// pages made one by one (Page: a trace's rows read alone, as the server
// reads them), over more traces than a batch holds so the set spans
// batches, with aligned and unaligned traces, two aligners and harmful
// actions.
func TestExportPagesInBatchesAreThePagesOneByOne(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	dir := writeRun(t, exportBatch+40)
	ctx := context.Background()
	ex, err := OpenExport(ctx, dir, study.ProbeSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	sel, err := ex.Select(ctx, "", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.IDs) <= exportBatch {
		t.Fatalf("the set has %d traces: not more than a batch (%d)", len(sel.IDs), exportBatch)
	}
	links := Links{Index: func(int) string { return "index.html" }, File: func(id string) string { return id + ".html" }}
	var got int
	err = ex.Pages(ctx, sel, links, Head{}, func(k int, id string, page []byte) error {
		if k != got || id != sel.IDs[k] {
			t.Fatalf("page %d is %s, handed as the %dth, %s", got, sel.IDs[got], k, id)
		}
		got++
		one, err := ex.Page(ctx, sel, k, links, Head{})
		if err != nil {
			return err
		}
		if !bytes.Equal(page, one) {
			t.Errorf("the page of %s made in a batch differs from it made alone (%d bytes, %d bytes)", id, len(page), len(one))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != len(sel.IDs) {
		t.Fatalf("%d pages of %d", got, len(sel.IDs))
	}
}

// An export reads its batches' texts from the traces' row groups, not
// through DuckDB: at real lengths a batch's join decoded a row group's
// whole text column at once, more than the viewer's 256 MiB (datg explain
// of a 38,250-trace run's 12,205 en-x incorrect traces stopped "Out of
// Memory" at its first batch). Here every text is 48 KB, the traces'
// one row group about 14 MB of text, and DuckDB's cap 8 MiB, under which
// DuckDB cannot scan the texts: the pages are still made, the bytes of
// those made under the default cap.
func TestExportReadsTheTextsOutsideDuckDB(t *testing.T) {
	dir := writeRun(t, 300)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	prose := testenv.DemoQuestions(t, "bn")
	for i := range traces {
		traces[i].Text = tracegen.Write(tracegen.Trace{Prose: prose, Bytes: 128_000, Answer: "2", Seed: uint64(i)})
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cache := t.TempDir() // the row file, built under the default cap
	pagesOf := func(r *runDB) map[string][]byte {
		t.Helper()
		ex := &Export{r: r}
		sel, err := ex.Select(ctx, "", nil, "")
		if err != nil {
			t.Fatal(err)
		}
		pages := map[string][]byte{}
		err = ex.Pages(ctx, sel, Links{Index: func(int) string { return "index.html" }}, Head{}, func(k int, id string, page []byte) error {
			pages[id] = page
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return pages
	}
	big, err := openRunDBWith(ctx, dir, cache, study.ProbeSeed, viewLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := pagesOf(big)
	// The texts read by row group are DuckDB's, for every third trace (far
	// apart: a seek each) and for runs of neighbours.
	var ids []string
	for i, tr := range traces {
		if i%3 == 0 || i%50 < 5 {
			ids = append(ids, tr.TraceID)
		}
	}
	byGroup, byDuckDB := newTraceRows(), newTraceRows()
	if err := byGroup.groupTexts(big.groups, ids); err != nil {
		t.Fatal(err)
	}
	if err := byDuckDB.readText(ctx, big, keysOf(ids)); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(byGroup.text, byDuckDB.text) || !maps.Equal(byGroup.finish, byDuckDB.finish) || len(byGroup.text) != len(ids) {
		t.Fatalf("the texts of %d traces by row group differ from DuckDB's", len(ids))
	}
	big.close()

	defer func(m int64) { viewMemory = m }(viewMemory)
	viewMemory = 32 << 20
	small, err := openRunDBWith(ctx, dir, cache, study.ProbeSeed, viewLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer small.close()
	var n int64
	if err := small.db.QueryRowContext(ctx, `SELECT sum(strlen(text)) FROM traces`).Scan(&n); err == nil {
		t.Fatalf("DuckDB scanned %d bytes of text under the cap: the test proves nothing", n)
	}
	got := pagesOf(small)
	if len(got) != len(traces) || len(got) != len(want) {
		t.Fatalf("%d pages under the cap, %d under the default, of %d traces", len(got), len(want), len(traces))
	}
	for id, page := range got {
		if !bytes.Equal(page, want[id]) {
			t.Errorf("the page of %s under the cap differs (%d bytes, %d bytes)", id, len(page), len(want[id]))
		}
	}
}
