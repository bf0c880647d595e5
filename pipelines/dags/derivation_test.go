package dags_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/study"
)

// What the DAG builder converts is the derivation the references recorded:
// from Qwen3.6-Plus thinking on Model Studio, its reasoning (with its
// second look at each step, which only the reasoning has), the answer
// being the final response beside it; with --derivation answer, the
// written answer alone.
func TestDAGsConvertTheRecordedDerivation(t *testing.T) {
	// Said only in the simulated model's reasoning (simulate's
	// thoughtThenWritten); its answer begins "Solution.".
	const reasoningOnly = "Wait, let me go over each step once more"
	const answerDerivation = `DERIVATION\nSolution.`
	for _, c := range []struct {
		derivation                  study.Derivation
		withReasoning, withAnswerAs bool // every DAG request quotes it, or none
	}{
		{study.FromReasoning, true, false},
		{study.FromAnswer, false, true},
	} {
		data := pipelinetest.DemoRun(t)
		ms := pipelinetest.SimConfig(t)
		ms.Dialect, ms.Models = simulate.DialectModelStudio, []string{"qwen3.6-plus"}
		_, urls := simulatetest.Start(t, data, ms)
		refs := references.DefaultConfig()
		refs.Data, refs.Target = data, pipelinetest.Target("qwen3.6-plus", urls[0])
		refs.Target.Pool.Server = llm.ServerModelStudio
		refs.PerProblem, refs.MaxAttempts, refs.Levels, refs.Limit, refs.Derivation = 2, 6, []string{"low"}, 2, c.derivation
		if sum, err := references.Run(context.Background(), refs); err != nil || sum.Accepted != 4 {
			t.Fatalf("%s: references %+v, %v", c.derivation, sum, err)
		}

		rec := &pipelinetest.Recording{Next: pipelinetest.Simulator(t, data, simulate.ContentFaults{}).Server}
		srv := httptest.NewServer(rec)
		t.Cleanup(srv.Close)
		cfg := dags.DefaultConfig()
		cfg.Data, cfg.Target = data, pipelinetest.Target(pipelinetest.DAGModel, srv.URL+"/v1")
		if _, err := dags.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		// Two references with the same text make one request (the
		// journal asks an identical request once).
		all := rec.Containing("Reference derivation (verified correct)")
		if all == 0 {
			t.Fatalf("%s: no DAG request", c.derivation)
		}
		every := func(yes bool) int {
			if yes {
				return all
			}
			return 0
		}
		if got := rec.Containing(reasoningOnly); got != every(c.withReasoning) {
			t.Errorf("%s: %d of %d DAG requests quote the reasoning", c.derivation, got, all)
		}
		if got := rec.Containing(answerDerivation); got != every(c.withAnswerAs) {
			t.Errorf("%s: %d of %d DAG requests convert the answer", c.derivation, got, all)
		}
	}
}
