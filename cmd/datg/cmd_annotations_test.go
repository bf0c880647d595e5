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
	// expect checks a run's exit code and that its stderr says each of says.
	expect := func(name string, r result, code int, says ...string) {
		t.Helper()
		if r.code != code {
			t.Fatalf("%s: exit code %d, want %d; stderr:\n%s", name, r.code, code, r.stderr)
		}
		for _, s := range says {
			if !strings.Contains(r.stderr, s) {
				t.Fatalf("%s: stderr does not say %q:\n%s", name, s, r.stderr)
			}
		}
	}
	out := filepath.Join(files, "audit.jsonl")
	r := datg(t, nil, "annotations", "sample", "--data", dir, "--langs", "fr,sw", "--levels", "low", "--per-level", "3", "--out", out)
	expect("sample", r, 0, "fr low has 2 candidates, fewer than --per-level 3: all 2 taken", "sw low has 0 candidates")
	if !strings.Contains(r.stdout, "2 instances") {
		t.Fatalf("sample: stdout does not say %q:\n%s", "2 instances", r.stdout)
	}
	b, _ := os.ReadFile(out)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Fatalf("the sample has %d lines, want 2", n)
	}
	expect("existing --out", datg(t, nil, "annotations", "sample", "--data", dir, "--out", out), 1, "exists", "--force")
	expect("no --out", datg(t, nil, "annotations", "sample", "--data", dir), 2, "--out")
	expect("unknown subcommand", datg(t, nil, "annotations", "draw", "--data", dir), 2)
	expect("importing the unfilled sample", datg(t, nil, "import", "annotations", "--data", dir, "--in", out), 1, "annotator", "audit.jsonl:1")
}
