package dags_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
)

// An OpenAI reasoning model builds DAGs with a budget that counts its
// hidden reasoning: by default llm.ReasoningBudget, where 8,192 was the
// budget of a visible reply; a reply that spends it reasoning is asked once
// more with twice the budget; one that spends even that is an invalid DAG
// whose reason says so (never sent for repair), counted in the summary, and
// the stage commits.
func TestDAGsBudgetOfAReasoningModel(t *testing.T) {
	data := withReferences(t)
	const refs = 18
	for _, c := range []struct {
		name                string
		reasoning           int
		grown, spent, valid int
	}{
		{"fits the default", 10000, 0, 0, refs},
		{"fits twice the default", 40000, refs, 0, refs},
		{"spends even that", 70000, refs, refs, 0},
	} {
		if err := os.RemoveAll(llm.JournalDir(data)); err != nil {
			t.Fatal(err)
		}
		sc := pipelinetest.SimConfig(t)
		sc.Dialect, sc.Version, sc.HiddenReasoning = simulate.DialectOpenAI, "", c.reasoning
		sim := pipelinetest.StartSim(t, data, sc)
		cfg := dags.DefaultConfig()
		cfg.Data, cfg.Target = data, pipelinetest.Target("gpt-5.4", sim.URL)
		sum, err := dags.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if sum.DAGs != refs || sum.Valid != c.valid || sum.Grown != c.grown || sum.Spent != c.spent || sum.Repaired != 0 {
			t.Errorf("%s: %+v, want %d DAGs, %d valid, %d asked again, %d spent, none repaired", c.name, sum, refs, c.valid, c.grown, c.spent)
		}
		rows, err := store.ReadAll(data, schema.DAGs)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if spent := strings.Contains(r.Reason, "spent its budget reasoning"); spent != (c.spent > 0) {
				t.Errorf("%s: %s: reason %q", c.name, r.DagID, r.Reason)
			}
		}
	}
}
