package langcheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/store/storetest"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// maxHeapPerTrace bounds the live heap datg langcheck holds per trace
// when it commits, beyond a constant: its writers' footers (an entry
// every 20,000 rows) and the noise of the Parquet writers' buffers (a few
// MB either way: 0-8 bytes a trace measured). Writers that kept a digest
// of every row's key held 59-73 bytes a trace (three rows).
const maxHeapPerTrace = 20

// TestLangcheckHeapFlat checks runs of n traces and measures the live
// heap when the tables are committed: it may grow with n only by a few
// bytes a trace.
func TestLangcheckHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 70,000 traces")
	}
	// The first run also makes what every run shares (the detectors'
	// models, the graders' tables): it is run again.
	measure := func(n int) int64 {
		dir := t.TempDir()
		traces := make([]schema.Trace, n)
		for i := range traces {
			traces[i] = trace(fmt.Sprintf("t%016x", i), "en", fmt.Sprintf("First we add the two numbers, then step %d checks the sum.", i))
		}
		if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
			t.Fatal(err)
		}
		traces = nil
		held, err := storetest.HeapHeldAt("finish compliance", func() error {
			_, err := Run(context.Background(), Config{Data: dir})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return held
	}
	// Both sizes leave the row groups being filled (of 20,000 rows: a
	// row a trace in one table, two in the other) equally full.
	measure(10_000)
	per := testenv.HeapPer(t, "trace", 10_000, 50_000, measure)
	if per > maxHeapPerTrace {
		t.Errorf("datg langcheck holds %d bytes of live heap per trace until its commit (at most %d): its memory grows with the run", per, maxHeapPerTrace)
	}
}
