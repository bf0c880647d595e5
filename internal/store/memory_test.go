package store

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// scaleTrace is the i-th trace of a generated table: 3 KB of text, the
// identity fields of a real one.
func scaleTrace(i int, text string) schema.Trace {
	return schema.Trace{TraceID: fmt.Sprintf("t%016x", i), Model: "qwen3-8b", InputLang: "sw", ReasoningLang: "sw",
		Direction: "native", Level: "low", ProblemID: fmt.Sprintf("low-%d", i%125), Seed: int64(i / 5000), Method: "prompt",
		Text: text, CompletionTokens: int64(i % 4096)}
}

// maxHeapPerRow bounds the live heap a writer or a scan may hold per row of
// the table, beyond a constant: the writer's key digests (16 bytes and the
// map's slot) and a footer entry per row group of a thousand rows. A writer
// that kept every key as a string and a footer entry every 128 traces held
// 280 bytes a row (107 MB at 382,500 traces); a scan that loaded the page
// indexes of such a file 260.
const maxHeapPerRow = 128

// TestWriterHeapFlat writes a traces table of n rows and measures the live
// heap before the commit: it may grow with n only by a few bytes a row.
func TestWriterHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40,000 traces")
	}
	text := realisticTraces(1, 3000)[0].Text
	per := testenv.HeapPer(t, "row", 5_000, 40_000, func(n int) int64 {
		w, err := Create(t.TempDir(), schema.Traces, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		before := testenv.LiveHeap()
		for i := range n {
			if err := w.Write(scaleTrace(i, text)); err != nil {
				t.Fatal(err)
			}
		}
		held := testenv.LiveHeap() - before
		runtime.KeepAlive(w)
		return held
	})
	if per > maxHeapPerRow {
		t.Errorf("the writer holds %d bytes of live heap per row written (at most %d): its memory grows with the table", per, maxHeapPerRow)
	}
}

// TestScanHeapFlat scans traces tables of n rows and measures the live
// heap at the last row: a scan holds the file's footer, which may grow
// with n only by a few bytes a row.
func TestScanHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40,000 traces")
	}
	text := realisticTraces(1, 3000)[0].Text
	per := testenv.HeapPer(t, "row", 5_000, 40_000, func(n int) int64 {
		dir := t.TempDir()
		w, err := Create(dir, schema.Traces, Meta{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := w.Write(scaleTrace(i, text)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		w = nil
		before := testenv.LiveHeap()
		var held int64
		seen := 0
		err = Scan(dir, schema.Traces, func(*schema.Trace) error {
			if seen++; seen == n {
				held = testenv.LiveHeap() - before
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return held
	})
	if per > maxHeapPerRow {
		t.Errorf("a scan holds %d bytes of live heap per row of the file (at most %d): its memory grows with the table", per, maxHeapPerRow)
	}
}

// TestRowGroupsKeepEveryRowInOrder writes traces of mixed lengths (some
// long and incompressible, so groups end on bytes as well as on rows) in
// batches of mixed sizes, and reads every row back in order.
func TestRowGroupsKeepEveryRowInOrder(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 4))
	short := realisticTraces(1, 800)[0].Text
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ."
	var want []schema.Trace
	for i := range 1_500 {
		text := short[:rnd.IntN(len(short))]
		if rnd.IntN(6) == 0 { // 250 traces of 100-300 KB of noise: 50 MB, several groups' worth
			var b strings.Builder
			for range 100_000 + rnd.IntN(200_000) {
				b.WriteByte(letters[rnd.IntN(len(letters))])
			}
			text = b.String()
		}
		want = append(want, scaleTrace(i, text))
	}
	w, err := Create(dir, schema.Traces, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for rest := want; len(rest) > 0; {
		n := min(len(rest), []int{1, 7, 64, 65, 300, 1500}[rnd.IntN(6)])
		if err := w.Write(rest[:n]...); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d rows back, wrote %d", len(got), len(want))
	}
	for i := range want {
		if got[i].TraceID != want[i].TraceID || got[i].Text != want[i].Text || got[i].ProblemID != want[i].ProblemID ||
			got[i].Seed != want[i].Seed || got[i].CompletionTokens != want[i].CompletionTokens {
			t.Fatalf("row %d: read %s (%d bytes of text), wrote %s (%d bytes)", i, got[i].TraceID, len(got[i].Text), want[i].TraceID, len(want[i].Text))
		}
	}
	paths, err := Paths(dir, schema.Traces.Table)
	if err != nil {
		t.Fatal(err)
	}
	pf, f, err := OpenFile(paths[0], true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	groups := pf.RowGroups()
	byRows := (len(want) + schema.Traces.RowsPerGroup - 1) / schema.Traces.RowsPerGroup
	if len(groups) <= byRows {
		t.Errorf("%d row groups: the long texts should have ended some groups before %d rows", len(groups), schema.Traces.RowsPerGroup)
	}
	for i, g := range groups {
		var size int64
		for _, c := range pf.Metadata().RowGroups[i].Columns {
			size += c.MetaData.TotalCompressedSize
		}
		// A group ends once it holds maxGroupBytes, checked every
		// writeChunk rows: it may pass the bound by that many rows.
		if size > maxGroupBytes+writeChunk*300_000 {
			t.Errorf("row group %d holds %d bytes of pages (%d rows): more than the bound", i, size, g.NumRows())
		}
	}
}
