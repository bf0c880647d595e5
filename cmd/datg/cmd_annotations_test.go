package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// datg annotations sample over a run scored through the CLI: short cells
// are reported on stderr with their counts, an existing --out is kept, and
// a missing --out is a usage error.
func TestAnnotationsSampleCommand(t *testing.T) {
	dir, files := t.TempDir(), t.TempDir()
	problems := []schema.Problem{{ProblemID: "low-0", Level: "low", Lang: "en", Question: "1 + 1?", Answer: "2"},
		{ProblemID: "low-1", Level: "low", Lang: "en", Question: "2 + 2?", Answer: "4"}}
	if err := store.WriteAll(dir, schema.Problems, store.Meta{}, problems); err != nil {
		t.Fatal(err)
	}
	file := func(name string, lines ...string) string {
		p := filepath.Join(files, name)
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return p
	}
	var traces, dagLines, aligns []string
	for k := range 2 {
		traces = append(traces, fmt.Sprintf(`{"trace_id": "t%d", "model": "m", "input_lang": "en", "reasoning_lang": "fr", "level": "low", "problem_id": "low-%d", "seed": 42, "method": "base", "text": "Donc 1 + 1 = 2.", "completion_tokens": 5}`, k, k))
		dagLines = append(dagLines, fmt.Sprintf(`{"problem_id": "low-%d", "ref_index": 0, "dag": {"final_node_id": "n1", "nodes": [{"node_id": "n1", "anchor": "1 + 1 = 2", "description": "", "parents": []}]}}`, k))
		aligns = append(aligns, fmt.Sprintf(`{"trace_id": "t%d", "problem_id": "low-%d", "ref_index": 0, "alignment": {"audit_results": {"n1": [{"status": "COMMIT", "evidence": "1 + 1 = 2", "evidence_span": "1 + 1 = 2"}]}, "contradictory_steps": [], "harmful_loop_steps": [], "degenerate_steps": []}}`, k, k))
	}
	for _, step := range [][]string{
		{"import", "traces", "--data", dir, "--in", file("traces.jsonl", traces...)},
		{"import", "dags", "--data", dir, "--in", file("dags.jsonl", dagLines...)},
		{"import", "alignments", "--data", dir, "--aligner", "sim", "--in", file("aligns.jsonl", aligns...)},
		{"score", "--data", dir},
	} {
		if r := datg(t, nil, step...); r.code != 0 {
			t.Fatalf("%v: %+v", step, r)
		}
	}
	out := filepath.Join(files, "audit.jsonl")
	r := datg(t, nil, "annotations", "sample", "--data", dir, "--langs", "fr,sw", "--levels", "low", "--per-level", "3", "--out", out)
	if r.code != 0 || !strings.Contains(r.stderr, "fr low has 2 candidates, fewer than --per-level 3: all 2 taken") ||
		!strings.Contains(r.stderr, "sw low has 0 candidates") || !strings.Contains(r.stdout, "2 instances") {
		t.Fatalf("%+v", r)
	}
	b, _ := os.ReadFile(out)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Fatalf("%d lines", n)
	}
	if r := datg(t, nil, "annotations", "sample", "--data", dir, "--out", out); r.code != 1 || !strings.Contains(r.stderr, "exists") || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("existing --out: %+v", r)
	}
	if r := datg(t, nil, "annotations", "sample", "--data", dir); r.code != 2 || !strings.Contains(r.stderr, "--out") {
		t.Fatalf("no --out: %+v", r)
	}
	if r := datg(t, nil, "annotations", "draw", "--data", dir); r.code != 2 {
		t.Fatalf("unknown subcommand: %+v", r)
	}
	if r := datg(t, nil, "import", "annotations", "--data", dir, "--in", out); r.code != 1 || !strings.Contains(r.stderr, "annotator") || !strings.Contains(r.stderr, "audit.jsonl:1") {
		t.Fatalf("importing the unfilled sample: %+v", r)
	}
}
