package storetest

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// A commit passes "finish <table>"; a step the run never reaches is an
// error, not a measure of nothing.
func TestHeapHeldAtNeedsItsStep(t *testing.T) {
	write := func() error {
		return store.WriteAll(t.TempDir(), schema.Traces, store.Meta{}, []schema.Trace{{TraceID: "t1", ProblemID: "p1", Text: "x"}})
	}
	if _, err := HeapHeldAt("finish traces", write); err != nil {
		t.Errorf("finish traces: %v", err)
	}
	if _, err := HeapHeldAt("finish no such table", write); err == nil || !strings.Contains(err.Error(), "never reached") {
		t.Errorf("a step never reached: %v, want an error", err)
	}
}
