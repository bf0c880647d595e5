package explain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// An aligner that aligned nothing is an error naming the ones that did,
// for the index and for one trace (not a "Not aligned" page).
func TestUnknownAlignerNamesTheKnownOnes(t *testing.T) {
	dir := writeRun(t)
	for _, id := range []string{"", "t1"} {
		_, err := Run(context.Background(), Config{Data: dir, TraceID: id, Aligner: "nosuch", Out: filepath.Join(t.TempDir(), "x.html")})
		if !errors.Is(err, ErrUnknownAligner) || !strings.Contains(err.Error(), `"nosuch": the run's aligners are llm`) {
			t.Errorf("trace %q, --aligner nosuch: %v", id, err)
		}
		if err != nil && strings.Contains(err.Error(), "run datg align") {
			t.Errorf("trace %q: tells to run datg align: %v", id, err)
		}
	}
}

// An x-en trace is never aligned by align's default: its page says so
// rather than "run datg align".
func TestXEnPageSaysWhyNotAligned(t *testing.T) {
	dir := writeRun(t)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	traces = append(traces, schema.Trace{TraceID: "xen", Model: "m", Direction: "x-en", InputLang: "sw", ReasoningLang: "en",
		Level: "low", ProblemID: "low-0", Seed: 42, Method: "base", Text: "x-en text"})
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "xen.html")
	if _, err := Run(context.Background(), Config{Data: dir, TraceID: "xen", Out: out}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if page := string(b); strings.Contains(page, "run datg align") || !strings.Contains(page, "datg align aligns en-en and en-x traces") || !strings.Contains(page, "direction is x-en.") {
		t.Errorf("the x-en page's note:\n%s", page)
	}
}
