package generate

import (
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// Token counts past 2^31 are kept as they are, not wrapped around to
// negative numbers (an int32 cast made 3e9 into -1,294,967,296).
func TestTraceRowKeepsTokenCountsPastInt32(t *testing.T) {
	const huge = 3_000_000_000
	jb := Job{Key: transforms.TraceKey{Model: "m", InputLang: "en", ReasoningLang: "sw", Level: "low", ProblemID: "low-0", Seed: 42, Method: "base"},
		Direction: string(study.EnX), Question: "q", Budget: huge}
	req := llm.Request{MaxTokens: huge}
	resp := llm.Response{Text: "x", CompletionTokens: huge, PromptTokens: huge + 1, FinishReason: "length"}
	row := traceRow(jb, req, resp)
	if int64(row.CompletionTokens) != huge || int64(row.PromptTokens) != huge+1 || row.MaxTokens == nil || *row.MaxTokens != huge {
		t.Fatalf("completion %d, prompt %d, max %v tokens; want %d, %d, %d", row.CompletionTokens, row.PromptTokens, row.MaxTokens, huge, huge+1, huge)
	}
}
