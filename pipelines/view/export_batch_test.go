package view

import (
	"bytes"
	"context"
	"testing"

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
	links := Links{Index: "index.html", File: func(id string) string { return id + ".html" }}
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
