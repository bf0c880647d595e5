package control_test

import (
	"context"
	"errors"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/traceids"
	"github.com/datg/datg/pipelines/control"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// An imported trace under the id a control derives for one of its examples
// is refused before any request, as import refuses it.
func TestControlRefusesIDCollisions(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	s := startSim(t, data, simulate.DefaultConfig())
	cfg := config(data, study.LoopRetry, s)
	key := transforms.TraceKey{Model: cfg.Generation.Study.Models[0], InputLang: "en", ReasoningLang: "sw", Level: "low",
		ProblemID: "low-0", Seed: 42, Method: string(study.LoopRetry)}
	other := schema.Trace{TraceID: transforms.TraceID(key), Model: key.Model, InputLang: "en", ReasoningLang: "sw",
		Direction: string(study.EnX), Level: "low", ProblemID: "low-1", Seed: 42, Method: string(study.LoopRetry), Text: "imported", Source: "import:x.jsonl"}
	if err := store.WriteAll(data, schema.Traces, store.Meta{}, []schema.Trace{other}); err != nil {
		t.Fatal(err)
	}
	_, err := control.Run(context.Background(), cfg)
	if !errors.Is(err, traceids.ErrCollision) {
		t.Fatalf("control over a colliding import: %v, want ErrCollision", err)
	}
	if sent, _ := pipelinetest.Served(s.Server); sent != 0 {
		t.Fatalf("%d requests sent", sent)
	}
}
