package control

import (
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/pipelines/generate"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// A controlled trace's tokens (the accepted attempt's plus the scaffold's)
// past 2^31 are kept as they are, not wrapped around (int32 casts made 3e9
// into -1,294,967,296 in Table 3's tokens).
func TestTraceRowKeepsTokenCountsPastInt32(t *testing.T) {
	const huge = 3_000_000_000
	cfg := DefaultConfig()
	e := &example{cfg: &cfg, job: generate.Job{Key: transforms.TraceKey{Model: "m", InputLang: "en", ReasoningLang: "sw",
		Level: "low", ProblemID: "low-0", Seed: 42, Method: string(study.FormulaRetry)}, Direction: string(study.EnX), Budget: huge}}
	var accepted schema.Trial
	tr := e.traceRow(transforms.Conversation{}, "text", llm.Request{}, llm.Response{PromptTokens: huge}, accepted, huge)
	if int64(tr.CompletionTokens) != huge || int64(tr.PromptTokens) != huge || tr.MaxTokens == nil || *tr.MaxTokens != huge {
		t.Fatalf("completion %d, prompt %d, max %v tokens; want %d each", tr.CompletionTokens, tr.PromptTokens, tr.MaxTokens, huge)
	}
	// The example's total over its attempts, reported in the run summary.
	out := outcome{trials: []schema.Trial{{CompletionTokens: 2_000_000_000}, {CompletionTokens: 2_000_000_000}}}
	if got := out.tokens(); int64(got) != 4_000_000_000 {
		t.Fatalf("tokens() = %d", got)
	}
}
