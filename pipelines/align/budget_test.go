package align_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/journal"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// journaledBudgets are the budgets of the requests the run's journal
// answered, sorted.
func journaledBudgets(t *testing.T, data string) []int {
	t.Helper()
	j, err := journal.OpenReadOnly(llm.JournalDir(data))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var out []int
	for _, k := range j.Keys() {
		var rec llm.Record
		if ok, err := j.Get(k, &rec); !ok || err != nil {
			t.Fatalf("journal record %s: %v", k, err)
		}
		out = append(out, rec.Request.MaxTokens)
	}
	slices.Sort(out)
	return out
}

// An OpenAI reasoning model (GPT-5.4 behind an OpenAI-compatible API that
// is not api.openai.com) aligns with a budget that counts its hidden
// reasoning. Left at its default, align leaves room for reasoning
// (llm.ReasoningBudget, where 4,096 was the budget of a visible reply and
// every long reasoning spent it); a reply that spends its budget reasoning
// is asked once more with twice the budget; one that spends even that is
// an unusable alignment whose error row says why (kind
// budget-spent-reasoning), counted in the summary, and the stage still
// commits what it aligned.
func TestAlignBudgetOfAReasoningModel(t *testing.T) {
	data := alignRun(t)
	// The first low problem's (trace, DAG) pairs, as the first case (whose
	// replies fit) aligns them all.
	// Pairs whose requests are the same (two DAGs alike) share one
	// journaled answer: requests counts the distinct ones.
	pairs, requests := 0, 0
	for _, c := range []struct {
		name         string
		reasoning    int // tokens the simulated model reasons before each answer
		grown, spent int
		budgets      []int
	}{
		{"fits the default", 6000, 0, 0, nil},
		{"fits twice the default", 40000, -1, 0, nil},
		{"spends even that", 70000, -1, -1, nil},
	} {
		if err := os.RemoveAll(llm.JournalDir(data)); err != nil {
			t.Fatal(err)
		}
		sc := pipelinetest.SimConfig(t)
		sc.Dialect, sc.Version, sc.HiddenReasoning = simulate.DialectOpenAI, "", c.reasoning
		sim := pipelinetest.StartSim(t, data, sc)
		cfg := align.DefaultConfig()
		cfg.Data, cfg.Target, cfg.Levels, cfg.Limit = data, pipelinetest.Target("gpt-5.4", sim.URL), []string{"low"}, 1
		sum, err := align.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if pairs == 0 {
			if pairs = sum.Alignments; pairs == 0 {
				t.Fatal("the first low problem has nothing to align")
			}
			requests = len(journaledBudgets(t, data))
		}
		// -1: every pair.
		if c.grown < 0 {
			c.grown = pairs
		}
		if c.spent < 0 {
			c.spent = pairs
		}
		c.budgets = repeat(llm.ReasoningBudget, requests)
		if c.grown > 0 {
			c.budgets = append(c.budgets, repeat(2*llm.ReasoningBudget, requests)...)
		}
		if sum.Alignments != pairs || sum.Grown != c.grown || sum.Spent != c.spent || sum.Unusable != c.spent {
			t.Errorf("%s: %+v, want %d alignments, %d asked again, %d spent (unusable)", c.name, sum, pairs, c.grown, c.spent)
		}
		if got := journaledBudgets(t, data); !slices.Equal(got, c.budgets) {
			t.Errorf("%s: budgets sent %v, want %v", c.name, got, c.budgets)
		}
		errs, err := store.ReadAll(data, schema.AlignmentErrors)
		if err != nil {
			t.Fatal(err)
		}
		spent := 0
		for _, e := range errs {
			if e.Aligner == "gpt-5.4" && e.Kind == string(study.BudgetSpentReasoning) {
				spent++
				if !strings.Contains(e.Detail, "max_completion_tokens 65536") || !strings.Contains(e.Detail, "asked again") {
					t.Errorf("%s: detail %q", c.name, e.Detail)
				}
			}
		}
		if spent != c.spent {
			t.Errorf("%s: %d error rows of kind %s, want %d", c.name, spent, study.BudgetSpentReasoning, c.spent)
		}
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}
