package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/testenv"
)

// table3Marker opens the documentation's block of Table 3's steps: the
// shell lines a user adds to a finished probe run.
const table3Marker = "# Table 3: Base and the test-time controls, after the direction probe"

// table3Recipe is the block that table3Marker opens, as printed in
// README.md or a page of docs/: its lines up to the closing fence.
func table3Recipe(t *testing.T) (file string, lines []string) {
	t.Helper()
	root := testenv.Root(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, path := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, after, found := strings.Cut(string(b), "```sh\n"+table3Marker+"\n")
		if !found {
			continue
		}
		block, _, closed := strings.Cut(after, "\n```")
		if !closed {
			t.Fatalf("%s: the block after %q has no closing fence", path, table3Marker)
		}
		return path, strings.Split(block, "\n")
	}
	t.Fatalf("no ```sh block opening with %q in README.md or docs/*.md", table3Marker)
	return "", nil
}

// recipeCommands turns the block's lines into datg command lines: scope=
// assignments are expanded where $scope is used, "$endpoints" is the test's
// servers, `cmd && cmd` is two commands, a trailing comment is dropped, and
// `make tables` is datg tables. Any other line fails the test, so the test
// follows the block as printed.
func recipeCommands(t *testing.T, file string, lines []string, endpoints string) [][]string {
	t.Helper()
	vars := map[string][]string{"endpoints": {endpoints}}
	var cmds [][]string
	for i, line := range lines {
		if c := strings.Index(line, " #"); c >= 0 {
			line = line[:c]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, value, ok := strings.Cut(line, "="); ok && !strings.Contains(name, " ") {
			vars[name] = strings.Fields(strings.Trim(value, `"`))
			continue
		}
		for _, part := range strings.Split(line, "&&") {
			words := strings.Fields(part)
			switch {
			case slices.Equal(words, []string{"make", "tables"}):
				cmds = append(cmds, []string{"tables"})
			case len(words) > 1 && words[0] == "bin/datg":
				var args []string
				for _, w := range words[1:] {
					name := strings.TrimPrefix(strings.Trim(w, `"`), "$")
					if v, ok := vars[name]; ok && strings.HasPrefix(strings.Trim(w, `"`), "$") {
						args = append(args, v...)
					} else if strings.Contains(w, "$") {
						t.Fatalf("%s: block line %d: %q uses a variable the block does not set", file, i+1, w)
					} else {
						args = append(args, w)
					}
				}
				cmds = append(cmds, args)
			default:
				t.Fatalf("%s: block line %d: %q is no datg command this test knows", file, i+1, part)
			}
		}
	}
	return cmds
}

// tableFiles reads every output datg tables wrote, by name.
func tableFiles(t *testing.T, data string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(data, "tables"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(data, "tables", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = b
		}
	}
	return out
}

// TestTable3RecipeLeavesTheProbeTables runs a finished probe run (the
// direction probe, graded and language-checked, references, DAGs, two
// aligners, scores, tables), then the documentation's Table 3 steps as
// printed, and checks that every probe table's outputs (csv, md, tex, the
// figure) are byte for byte those of the probe alone, and that Table 3 has
// its three methods. Then it adds what else a run may hold (base traces of
// the controls' scope at seeds 42, 215 and 316 from datg generate, as the
// recipe once had it; imported base traces at another seed) and checks
// that no output moves at all.
func TestTable3RecipeLeavesTheProbeTables(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,fr,sw,te", "--data", data)
	sim := pipelinetest.SimConfig(t)
	_, urls := simulators(t, data, sim, sim)
	llm := []string{"--endpoints", urls, "--backoff", "1ms"}
	in := func(args ...string) []string { return append(append([]string{}, args...), "--data", data) }

	// The probe, finished.
	mustDatg(t, in("generate", "--langs", "en,fr,sw,te", "--limit", "2", "--endpoints", urls)...)
	mustDatg(t, append(in("references", "--model", "sim-reference"), llm...)...)
	mustDatg(t, in("verify")...)
	mustDatg(t, in("langcheck")...)
	mustDatg(t, append(in("dags", "--model", "sim-dag-builder"), llm...)...)
	mustDatg(t, append(in("align", "--model", "sim-aligner"), llm...)...)
	mustDatg(t, in("align", "--aligner", "symbolic")...)
	mustDatg(t, in("score")...)
	mustDatg(t, in("tables")...)
	probe := tableFiles(t, data)
	for _, name := range []string{"direction_accuracy.csv", "datg_main.md", "datg_full.tex", "compliance.csv", "accuracy_groups.svg", "accuracy_groups.pdf"} {
		if _, ok := probe[name]; !ok {
			t.Fatalf("the probe run has no %s: %v", name, mapKeys(probe))
		}
	}
	if _, ok := probe["control.csv"]; ok {
		t.Fatal("the probe run wrote Table 3 before any control")
	}

	// Table 3's steps, as printed.
	file, lines := table3Recipe(t)
	env := []string{"DATG_DATA=" + data}
	for _, args := range recipeCommands(t, file, lines, urls) {
		if r := datg(t, env, args...); r.code != 0 {
			t.Fatalf("%s: datg %s: exit %d\n%s", file, strings.Join(args, " "), r.code, r.stderr)
		}
	}
	after := tableFiles(t, data)
	for name, want := range probe {
		if !bytes.Equal(after[name], want) {
			t.Errorf("%s changed with Table 3's steps:\n--- probe alone\n%s\n--- with Table 3\n%s", name, want, after[name])
		}
	}
	control := string(after["control.md"])
	for _, row := range []string{"| Base |", "| Loop-Retry |", "| Formula-Retry |"} {
		if !strings.Contains(control, row) {
			t.Errorf("control.md lacks the row %q:\n%s", row, control)
		}
	}

	// More beyond the probe: base traces of the controls' scope at its
	// seeds on the probe's problems (the recipe's old step: at seed 42 it
	// samples the probe's traces again, which the journal answers), and
	// imported ones at seed 7.
	mustDatg(t, in("generate", "--models", "Qwen/Qwen3-4B", "--directions", "en-x", "--langs", "sw,te", "--seeds", "42,215,316", "--limit", "2", "--endpoints", urls)...)
	var imported bytes.Buffer
	for _, lang := range []string{"sw", "te", "fr"} {
		fmt.Fprintf(&imported, `{"model": "Qwen/Qwen3-4B", "input_lang": "en", "reasoning_lang": %q, "level": "low", "problem_id": "low-0", "seed": 7, "method": "base", "text": "<think>\nimported\n</think> \\boxed{0}", "completion_tokens": 9}`+"\n", lang)
	}
	jsonl := filepath.Join(t.TempDir(), "other-seed.jsonl")
	if err := os.WriteFile(jsonl, imported.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustDatg(t, in("import", "traces", "--in", jsonl)...)
	mustDatg(t, in("verify")...)
	mustDatg(t, in("langcheck")...)
	r := mustDatg(t, in("tables")...)
	if !strings.Contains(r.stderr, "are not the direction probe's (seed 42)") {
		t.Errorf("tables did not say it leaves base traces of other seeds out: %q", r.stderr)
	}
	final := tableFiles(t, data)
	for name, want := range after {
		if !bytes.Equal(final[name], want) {
			t.Errorf("%s changed with base traces beyond the probe:\n--- before\n%s\n--- after\n%s", name, want, final[name])
		}
	}
}

func mapKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
