package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/worked"
	"github.com/datg/datg/transforms/datg"
)

// With -solutions every problem gets a worked solution ending in its gold
// answer, whose references make DAGs of several nodes, and its traces
// write its steps.
func TestSolutionsWovenIntoTraces(t *testing.T) {
	saved := levels
	t.Cleanup(func() { levels = saved })
	for i := range levels {
		levels[i].problemsCount = 2
	}
	src := t.TempDir()
	answers := map[string]string{"low-0": "18", "low-1": "3", "medium-0": "140,892", "medium-1": `\frac{3}{4}`, "high-0": "70", "high-1": "588"}
	if err := os.MkdirAll(filepath.Join(src, "en"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, lv := range levels {
		var b strings.Builder
		for k := 0; k < 3; k++ {
			fmt.Fprintf(&b, `{"id": "%s-en-%d", "question": "q", "answer": %q}`+"\n", lv.name, k, answers[fmt.Sprintf("%s-%d", lv.name, k)])
		}
		if err := os.WriteFile(filepath.Join(src, "en", lv.name+".jsonl"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "solutions.jsonl")
	solved, err := writeSolutions(path, src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d solutions, want 6", len(lines))
	}
	for _, line := range lines {
		var s struct {
			ProblemID string   `json:"problem_id"`
			Steps     []string `json:"steps"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		var ref strings.Builder
		for _, step := range s.Steps {
			ref.WriteString("Next, we compute $ " + step + " $. ")
		}
		d := datg.SymbolicDAG(ref.String(), answers[s.ProblemID])
		if len(d.Nodes) < 4 {
			t.Errorf("%s: a DAG of %d nodes from %q", s.ProblemID, len(d.Nodes), s.Steps)
		}
		if a := answers[s.ProblemID]; a != `\frac{3}{4}` && !strings.HasSuffix(s.Steps[len(s.Steps)-1], "= "+strings.ReplaceAll(a, ",", "")) {
			t.Errorf("%s: the last step %q does not end in %s", s.ProblemID, s.Steps[len(s.Steps)-1], a)
		}
	}
	// Traces write their problem's steps with them, none without.
	written := func(solved map[string][]string) int {
		var out bytes.Buffer
		if err := run(&out, 1, testenv.Demo(t), 0.2, solved); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			for _, step := range worked.Solution(1, "18") { // low-0's
				if r.ProblemID == "low-0" && strings.Contains(r.Text, "$"+step+"$") {
					n++
				}
			}
		}
		return n
	}
	if n := written(solved); n < 34*3 {
		t.Errorf("low-0's 102 traces write %d of its steps, want most", n)
	}
	if n := written(nil); n != 0 {
		t.Errorf("without solutions, traces write %d steps", n)
	}
}

func TestSolutionsNeedPolyMath(t *testing.T) {
	if _, err := writeSolutions(filepath.Join(t.TempDir(), "s.jsonl"), ""); err == nil {
		t.Fatal("no error without -polymath")
	}
	if _, err := writeSolutions(filepath.Join(t.TempDir(), "s.jsonl"), t.TempDir()); err == nil {
		t.Fatal("no error for a directory without PolyMath")
	}
}
