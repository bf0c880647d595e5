package dags

import (
	"context"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/schema"
)

// Token counts past 2^31 are kept as they are, not wrapped around (an
// int32 cast made 3e9 into -1,294,967,296). A valid first reply asks for no
// repair, so no client is needed.
func TestBuildKeepsTokenCountsPastInt32(t *testing.T) {
	const huge = 3_000_000_000
	r := reference{row: schema.Reference{ProblemID: "low-3", RefIndex: 0, Response: "x = 1"}, level: "low"}
	resp := llm.Response{Text: `{"final_node_id": "n1", "nodes": [{"node_id": "n1", "anchor": "x = 1", "parents": []}]}`,
		PromptTokens: huge, CompletionTokens: huge + 1}
	row, _, _, err := DefaultConfig().build(context.Background(), llm.Journaled{}, r, llm.Request{}, resp)
	if err != nil {
		t.Fatal(err)
	}
	if !row.Valid {
		t.Fatalf("the DAG is invalid: %s", row.Reason)
	}
	if int64(row.PromptTokens) != huge || int64(row.CompletionTokens) != huge+1 {
		t.Fatalf("prompt %d, completion %d tokens; want %d, %d", row.PromptTokens, row.CompletionTokens, huge, huge+1)
	}
}
