package annotations

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/imports"
	"github.com/datg/datg/pipelines/score"
	"github.com/datg/datg/schema"
)

// A DAG whose node ids hold ">" has its edges a -> b>c and a>b -> c under
// two keys in the sample, and the filled-in file imports a judgment of
// each.
func TestSampleKeysEveryEdgeApart(t *testing.T) {
	dir := t.TempDir()
	ps := []schema.Problem{{ProblemID: "low-0", Level: "low", Lang: "en", Question: "What is c?", Answer: "3"}}
	if err := store.WriteAll(dir, schema.Problems, store.Meta{}, ps); err != nil {
		t.Fatal(err)
	}
	trace, _ := json.Marshal(map[string]any{"model": "M1", "input_lang": "en", "reasoning_lang": "fr", "level": "low",
		"problem_id": "low-0", "seed": 42, "method": "base", "text": "a = 1, so b > c, so a > b, so c = 3.", "completion_tokens": 30})
	importLines(t, dir, "traces", "", []string{string(trace)})
	importLines(t, dir, "dags", "", []string{`{"problem_id": "low-0", "ref_index": 0, "dag": {"final_node_id": "c", "nodes": [` +
		`{"node_id": "a", "anchor": "a = 1", "parents": []}, {"node_id": "b>c", "anchor": "b > c", "parents": ["a"]}, ` +
		`{"node_id": "a>b", "anchor": "a > b", "parents": ["b>c"]}, {"node_id": "c", "anchor": "c = 3", "parents": ["a>b"]}]}}`})
	traces, _ := store.ReadAll(dir, schema.Traces)
	importLines(t, dir, "alignments", "A", []string{fmt.Sprintf(`{"trace_id": %q, "problem_id": "low-0", "ref_index": 0, "alignment": {"audit_results": {`+
		`"a": [{"status": "COMMIT", "evidence": "a = 1", "evidence_span": "a = 1"}], "c": [{"status": "COMMIT", "evidence": "c = 3", "evidence_span": "c = 3"}]}, `+
		`"contradictory_steps": [], "harmful_loop_steps": [], "degenerate_steps": []}}`, traces[0].TraceID)})
	if _, err := score.Run(context.Background(), score.Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg := sampleConfig(dir, out, 42)
	cfg.Langs, cfg.Levels, cfg.PerLevel = []string{"fr"}, []string{"low"}, 1
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	_, raw := readSample(t, out)
	if len(raw) != 1 {
		t.Fatalf("%d instances drawn, want 1", len(raw))
	}
	edges := raw[0]["edges"].(map[string]any)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range edges {
			if !yield(k) {
				return
			}
		}
	})
	if diff := cmp.Diff([]string{`a>b\>c`, `a\>b>c`, `b\>c>a\>b`}, keys); diff != "" {
		t.Fatalf("edge keys of the sample (-want +got):\n%s", diff)
	}
	raw[0]["annotator"] = "ann"
	raw[0]["edges"] = map[string]any{`a>b\>c`: true, `a\>b>c`: false, `b\>c>a\>b`: true}
	delete(raw[0], "nodes")
	delete(raw[0], "statuses")
	delete(raw[0], "harmful")
	b, _ := json.Marshal(raw[0])
	filled := filepath.Join(t.TempDir(), "filled.jsonl")
	os.WriteFile(filled, append(b, '\n'), 0o644)
	if _, err := imports.Run(context.Background(), imports.Config{Kind: "annotations", In: filled, Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Annotations)
	var got []string
	for _, r := range rows {
		got = append(got, r.Item+" "+r.Label)
	}
	slices.Sort(got)
	if diff := cmp.Diff([]string{`a>b\>c valid`, `a\>b>c invalid`, `b\>c>a\>b valid`}, got); diff != "" {
		t.Fatalf("imported edge judgments (-want +got):\n%s", diff)
	}
	if strings.Contains(string(b), `"a>b>c"`) {
		t.Fatal("the sample still writes the ambiguous key")
	}
}
