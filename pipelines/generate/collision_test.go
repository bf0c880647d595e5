package generate

import (
	"context"
	"errors"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// The red team imported a trace under the id generate derives for another
// trace; generate then replaced it silently. Import refuses such
// collisions; generate now does too, before sending anything.
func TestGenerateRefusesIDCollisions(t *testing.T) {
	st := smallStudy()
	derived := transforms.TraceKey{Model: st.Models[0], InputLang: "sw", ReasoningLang: "sw", Level: "low",
		ProblemID: "low-0", Seed: 42, Method: "base"}
	imported := map[string]schema.Trace{
		// another trace (seed 7) imported under the id generate derives
		"id taken": {TraceID: transforms.TraceID(derived), Model: derived.Model, InputLang: "sw", ReasoningLang: "sw",
			Direction: string(study.XX), Level: "low", ProblemID: "low-0", Seed: 7, Method: "base", Text: "imported", Source: "import:mine.jsonl"},
		// the very trace generate would sample, imported under an id of its own
		"held under another id": {TraceID: "my-own-id", Model: derived.Model, InputLang: "sw", ReasoningLang: "sw",
			Direction: string(study.XX), Level: "low", ProblemID: "low-0", Seed: 42, Method: "base", Text: "imported", Source: "import:mine.jsonl"},
	}
	for name, row := range imported {
		t.Run(name, func(t *testing.T) {
			data := pipelinetest.DemoRun(t)
			if err := store.WriteAll(data, schema.Traces, store.Meta{Stage: "import traces"}, []schema.Trace{row}); err != nil {
				t.Fatal(err)
			}
			eps, urls := endpoints(t, data, simulate.DefaultConfig())
			_, err := Run(context.Background(), Config{Data: data, Study: st, Endpoints: urls, Pool: pipelinetest.QuickPool()})
			if !errors.Is(err, traceids.ErrCollision) {
				t.Fatalf("generate over a colliding import: %v, want ErrCollision", err)
			}
			if sent, _ := served(eps); sent != 0 {
				t.Fatalf("%d requests sent before the collision was refused", sent)
			}
			rows, err := store.ReadAll(data, schema.Traces)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1 {
				t.Fatalf("%d traces after the refused run, want the imported one", len(rows))
			}
			if rows[0].Text != "imported" {
				t.Fatalf("the imported trace's text is now %q", rows[0].Text)
			}
		})
	}
}
