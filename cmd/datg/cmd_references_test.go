package main

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/simulate/simulatetest"
)

// The README's reference step: Qwen3.6-Plus on Model Studio
// (--server modelstudio, the key from DASHSCOPE_API_KEY), against the
// simulator speaking Model Studio's API and accepting only that key. The
// references are made of the model's reasoning and graded by
// Math-Verify, and the key is in no output and no table.
func TestReferencesFromModelStudioCommand(t *testing.T) {
	const key = "sk-datg-test-dashscope-key"
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Dialect, c.Models, c.RequireKey = simulate.DialectModelStudio, []string{"qwen3.6-plus"}, key
	_, urls := simulatetest.Start(t, data, c)
	if !strings.HasSuffix(urls[0], "/compatible-mode/v1") {
		t.Fatalf("simulator at %s", urls[0])
	}
	r := datg(t, []string{"DASHSCOPE_API_KEY=" + key}, "references", "--data", data, "--server", "modelstudio",
		"--base-url", urls[0], "--model", "qwen3.6-plus", "--api-key-env", "DASHSCOPE_API_KEY",
		"--levels", "low", "--limit", "2", "--per-problem", "2", "--attempts", "4", "--backoff", "1ms")
	if r.code != 0 || !strings.Contains(r.stdout, "references: 2 problems, 2 with 2 references") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	q := mustDatg(t, "sql", "--data", data, "--format", "csv",
		"select derivation, grader, count(*) filter (where reasoning <> '') = count(*) as all_reasoned from derivations group by all")
	if want := "derivation,grader,all_reasoned\nreasoning,math-verify,true\n"; q.stdout != want {
		t.Fatalf("derivations say\n%s\nwant\n%s", q.stdout, want)
	}
	dump := mustDatg(t, "sql", "--data", data, "--format", "csv", "select * from derivations")
	for _, out := range []string{r.stdout, r.stderr, dump.stdout} {
		if strings.Contains(out, key) {
			t.Fatal("the API key is in the output or a table")
		}
	}
}

// A --derivation that is neither reasoning nor answer is a usage error
// (exit 2) naming the flag and the values it takes, before anything is
// sent.
func TestReferencesDerivationFlag(t *testing.T) {
	r := datg(t, nil, "references", "--data", pipelinetest.DemoRun(t), "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--derivation", "cot")
	if r.code != 2 || !strings.Contains(r.stderr, "--derivation") || !strings.Contains(r.stderr, `"cot"`) || !strings.Contains(r.stderr, "answer") {
		t.Fatalf("exit %d\nstderr %s", r.code, r.stderr)
	}
}
