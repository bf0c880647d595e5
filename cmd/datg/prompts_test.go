package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/prompts"
)

// promptRun is every prompt-sending stage run once on a small demo scope,
// against one simulator whose requests are recorded.
type promptRun struct {
	data     string
	endpoint string
	rec      *pipelinetest.Recording
}

// runPromptStages runs generate, control (formula-retry), references, dags
// and align (the LLM builder and aligner), each with the extra flags (say
// --prompts DIR).
func runPromptStages(t *testing.T, extra ...string) promptRun {
	t.Helper()
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,sw", "--levels", "low", "--data", data)
	cfg := simulate.DefaultConfig()
	cfg.Data = data
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &pipelinetest.Recording{Next: srv}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	llm := append([]string{"--data", data, "--endpoints", ts.URL + "/v1", "--backoff", "1ms"}, extra...)
	scope := []string{"--models", "Qwen/Qwen3-4B", "--langs", "sw", "--directions", "en-x", "--levels", "low", "--seeds", "42", "--limit", "1"}
	mustDatg(t, append(append([]string{"generate"}, llm...), scope...)...)
	mustDatg(t, append(append([]string{"control", "--method", "formula-retry"}, llm...), scope...)...)
	mustDatg(t, append([]string{"references", "--model", pipelinetest.ReferenceModel, "--levels", "low", "--limit", "1", "--per-problem", "2", "--attempts", "3"}, llm...)...)
	mustDatg(t, append([]string{"dags", "--model", pipelinetest.DAGModel}, llm...)...)
	mustDatg(t, append([]string{"align", "--model", pipelinetest.AlignModel, "--limit", "1"}, llm...)...)
	return promptRun{data: data, endpoint: ts.URL + "/v1", rec: rec}
}

// query is one column of a SQL query's rows.
func (r promptRun) query(t *testing.T, q string) []string {
	t.Helper()
	out := mustDatg(t, "sql", "--data", r.data, "--format", "csv", q)
	lines := strings.Split(strings.TrimSpace(out.stdout), "\n")
	return lines[1:]
}

// promptSets are the distinct prompt_set values of each table the stages
// wrote.
func (r promptRun) promptSets(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, q := range map[string]string{
		"traces":      "select distinct prompt_set from traces order by 1",
		"derivations": "select distinct prompt_set from derivations order by 1",
		"dags":        "select distinct prompt_set from dags order by 1",
		"alignments":  "select distinct prompt_set from alignments order by 1",
	} {
		out[table] = r.query(t, q)
	}
	return out
}

// requestKeys are the keys of one request of each stage.
func (r promptRun) requestKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for stage, q := range map[string]string{
		"generate":   "select request_key from traces where method = 'base'",
		"control":    "select request_key from traces where method = 'formula-retry'",
		"references": "select request_key from derivations where attempt = 0",
		"align":      "select request_key from alignments where trace_id = (select trace_id from traces where method = 'base') and dag_id = 'low-0/r0'",
	} {
		rows := r.query(t, q)
		if len(rows) != 1 {
			t.Fatalf("%s: %q", stage, rows)
		}
		keys[stage] = rows[0]
	}
	return keys
}

func exportPrompts(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "prompts")
	mustDatg(t, "prompts", "export", "--out", dir)
	return dir
}

func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The builtin set exported and read back with --prompts sends the very
// requests the built-in one does, and records the builtin hash.
func TestExportedPromptsSendTheBuiltinRequests(t *testing.T) {
	builtin := runPromptStages(t)
	exported := runPromptStages(t, "--prompts", exportPrompts(t))
	if a, b := builtin.requestKeys(t), exported.requestKeys(t); len(a) != 4 || !mapsEqual(a, b) {
		t.Errorf("request keys differ:\nbuiltin  %v\nexported %v", a, b)
	}
	for _, run := range []promptRun{builtin, exported} {
		for table, sets := range run.promptSets(t) {
			if len(sets) != 1 || sets[0] != prompts.Builtin().Hash() {
				t.Errorf("%s.prompt_set = %v, want the builtin hash %s", table, sets, prompts.Builtin().Hash())
			}
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Every file of an edited set reaches the requests of its stage, and the
// rows record the edited set's hash. (The simulator recognizes a task by
// datg's own system messages, and a reference request by its question, so
// those edits are of user templates and the solver system message, and the
// reference template is edited in a second set, run on its own.)
func TestEditedPromptsReachTheRequests(t *testing.T) {
	dir := exportPrompts(t)
	marks := map[string]string{ // file -> a line added to it
		"dag_user.tmpl":        "EDITED-DAG-USER",
		"align_user.tmpl":      "EDITED-ALIGN-USER",
		"scaffold_system.tmpl": "EDITED-SCAFFOLD",
	}
	for file, mark := range marks {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), append(b, "\n"+mark+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The Swahili solver system message of generate (control's Base and
	// Loop-Retry send it too).
	editFile(t, filepath.Join(dir, "languages.json"), `"system": "Wewe`, `"system": "EDITED-SW-SYSTEM Wewe`)
	marks["languages.json"] = "EDITED-SW-SYSTEM"
	set, err := prompts.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if set.Hash() == prompts.Builtin().Hash() {
		t.Fatal("an edited set has the builtin hash")
	}
	run := runPromptStages(t, "--prompts", dir)
	for file, mark := range marks {
		if run.rec.Containing(mark) == 0 {
			t.Errorf("no request holds the edit of %s (%q)", file, mark)
		}
	}
	for table, sets := range run.promptSets(t) {
		if len(sets) != 1 || sets[0] != set.Hash() {
			t.Errorf("%s.prompt_set = %v, want the edited set's hash %s", table, sets, set.Hash())
		}
	}

	refDir := exportPrompts(t)
	editFile(t, filepath.Join(refDir, "reference_user.tmpl"), "{{.Question}}", "EDITED-REFERENCE-USER\n{{.Question}}")
	refSet, err := prompts.Load(refDir)
	if err != nil {
		t.Fatal(err)
	}
	mustDatg(t, "references", "--data", run.data, "--endpoints", run.endpoint, "--backoff", "1ms", "--prompts", refDir,
		"--model", pipelinetest.ReferenceModel, "--levels", "low", "--limit", "1", "--per-problem", "2", "--attempts", "3")
	if run.rec.Containing("EDITED-REFERENCE-USER") == 0 {
		t.Error("no reference request holds the edit of reference_user.tmpl")
	}
	if sets := run.query(t, "select distinct prompt_set from derivations"); len(sets) != 1 || sets[0] != refSet.Hash() {
		t.Errorf("derivations.prompt_set = %v, want %s", sets, refSet.Hash())
	}
}

// A set with a missing file, an unknown variable or a template that does
// not parse stops every prompt-sending stage with exit 2, naming the file
// (and line), before any request.
func TestBadPromptSetIsAUsageError(t *testing.T) {
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,sw", "--levels", "low", "--data", data)
	cfg := simulate.DefaultConfig()
	cfg.Data = data
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &pipelinetest.Recording{Next: srv}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)

	missing := exportPrompts(t)
	if err := os.Remove(filepath.Join(missing, "align_user.tmpl")); err != nil {
		t.Fatal(err)
	}
	unknown := exportPrompts(t)
	editFile(t, filepath.Join(unknown, "dag_user.tmpl"), "<<<TAIL", "{{.Tial}}\n<<<TAIL")
	broken := exportPrompts(t)
	editFile(t, filepath.Join(broken, "reference_user.tmpl"), "{{.Question}}", "{{.Question}")
	cases := map[string]struct {
		dir  string
		want []string
	}{
		"missing file":     {missing, []string{filepath.Join(missing, "align_user.tmpl"), "prompt file missing"}},
		"unknown variable": {unknown, []string{filepath.Join(unknown, "dag_user.tmpl") + ":7", "unknown template variable", "{{.Tial}}"}},
		"does not parse":   {broken, []string{filepath.Join(broken, "reference_user.tmpl") + ":1", "prompt template is broken"}},
	}
	stages := map[string][]string{
		"generate":   {"generate", "--langs", "sw", "--levels", "low", "--limit", "1"},
		"control":    {"control", "--method", "formula-retry", "--langs", "sw", "--levels", "low", "--limit", "1"},
		"references": {"references", "--model", pipelinetest.ReferenceModel, "--levels", "low", "--limit", "1"},
		"dags":       {"dags", "--model", pipelinetest.DAGModel},
		"align":      {"align", "--model", pipelinetest.AlignModel},
	}
	for name, c := range cases {
		for stage, args := range stages {
			args = append(args, "--data", data, "--endpoints", ts.URL+"/v1", "--prompts", c.dir)
			r := datg(t, nil, args...)
			if r.code != 2 {
				t.Errorf("%s, %s: exit %d, want 2\n%s", name, stage, r.code, r.stderr)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%s, %s: stderr does not name %q:\n%s", name, stage, w, r.stderr)
				}
			}
			if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
				t.Errorf("%s, %s: %d lines of error", name, stage, n+1)
			}
		}
	}
	if n := rec.Containing(""); n != 0 {
		t.Errorf("%d requests were sent with a bad prompt set", n)
	}
}

// prompts export refuses to overwrite, and prompts check prints the hash.
func TestPromptsExportAndCheck(t *testing.T) {
	dir := exportPrompts(t)
	r := datg(t, nil, "prompts", "export", "--out", dir)
	if r.code != 2 || !strings.Contains(r.stderr, "exists") {
		t.Errorf("export over a set: exit %d\n%s", r.code, r.stderr)
	}
	out := mustDatg(t, "prompts", "check", dir)
	if !strings.Contains(out.stdout, prompts.Builtin().Hash()) {
		t.Errorf("check of the exported set: %s", out.stdout)
	}
}
