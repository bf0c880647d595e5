package references

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/mathverify"
)

// Token counts past 2^31 are kept as they are, not wrapped around (an
// int32 cast made 3e9 into -1,294,967,296).
func TestGradeKeepsTokenCountsPastInt32(t *testing.T) {
	const huge = 3_000_000_000
	a := attempt{p: &problem{Problem: schema.Problem{ProblemID: "low-0", Answer: "18"}, gold: mathverify.NewGold("18")}}
	res := grade(study.FromAnswer, a, llm.Request{Model: "m"}, llm.Response{Text: `\boxed{18}`, FinishReason: "stop", PromptTokens: huge, CompletionTokens: huge + 1})
	type kept struct {
		Accepted                       bool
		PromptTokens, CompletionTokens int64
	}
	if diff := cmp.Diff(kept{true, huge, huge + 1}, kept{res.row.Accepted, int64(res.row.PromptTokens), int64(res.row.CompletionTokens)}); diff != "" {
		t.Fatalf("derivation row (-want +got):\n%s", diff)
	}
}
