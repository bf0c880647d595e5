package verify

import (
	"context"
	"fmt"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/store/storetest"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// maxHeapPerTrace bounds the live heap datg verify holds per trace when
// it commits, beyond a constant: its writers' footers (an entry every
// 20,000 rows) and the noise of the Parquet writers' buffers (a few MB
// either way: 0-8 bytes a trace measured). Writers that kept a digest of
// every row's key held 45-50 bytes a trace (three rows).
const maxHeapPerTrace = 20

// TestVerifyHeapFlat grades runs of n traces and measures the live heap
// when the tables are committed: it may grow with n only by a few bytes a
// trace.
func TestVerifyHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("grades 70,000 traces")
	}
	// The first run also makes what every run shares (the detectors'
	// models, the graders' tables): it is run again.
	measure := func(n int) int64 {
		dir := t.TempDir()
		if err := store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{{ProblemID: "low-0", Lang: "en", Answer: "18"}}); err != nil {
			t.Fatal(err)
		}
		traces := make([]schema.Trace, n)
		for i := range traces {
			traces[i] = schema.Trace{TraceID: fmt.Sprintf("t%016x", i), ProblemID: "low-0",
				Text: fmt.Sprintf("<think>\nstep %d\n</think>\n\nAnswer \\boxed{%d}", i, 17+i%2)}
		}
		if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
			t.Fatal(err)
		}
		traces = nil
		held, err := storetest.HeapHeldAt("finish answers", func() error {
			_, err := Run(context.Background(), Config{Data: dir, Grader: string(study.Multilingual)})
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
		t.Errorf("datg verify holds %d bytes of live heap per trace until its commit (at most %d): its memory grows with the run", per, maxHeapPerTrace)
	}
}
