package main

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/pipelines/simulate"
)

// requestKeys runs each prompt-sending stage once on the demo, in a small
// scope, with extra flags (say --prompts DIR) on every stage, and returns
// one request key per stage.
func requestKeys(t *testing.T, extra ...string) map[string]string {
	t.Helper()
	data := t.TempDir()
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--langs", "en,sw", "--levels", "low", "--data", data)
	_, urls := simulators(t, data, simulate.DefaultConfig())
	llm := append([]string{"--data", data, "--endpoints", urls, "--backoff", "1ms"}, extra...)
	scope := []string{"--models", "Qwen/Qwen3-4B", "--langs", "sw", "--directions", "en-x", "--levels", "low", "--seeds", "42", "--limit", "1"}
	mustDatg(t, append(append([]string{"generate"}, llm...), scope...)...)
	mustDatg(t, append(append([]string{"control", "--method", "formula-retry"}, llm...), scope...)...)
	mustDatg(t, append([]string{"references", "--model", "sim-reference", "--levels", "low", "--limit", "1", "--per-problem", "2", "--attempts", "3"}, llm...)...)
	mustDatg(t, "dags", "--data", data, "--builder", "symbolic")
	mustDatg(t, append([]string{"align", "--model", "sim-aligner", "--limit", "1"}, llm...)...)
	keys := map[string]string{}
	for stage, q := range map[string]string{
		"generate":   "select request_key from traces where method = 'base'",
		"control":    "select request_key from traces where method = 'formula-retry'",
		"references": "select request_key from derivations where attempt = 0",
		"align":      "select request_key from alignments where trace_id = (select trace_id from traces where method = 'base') and dag_id = 'low-0/r0'",
	} {
		r := mustDatg(t, "sql", "--data", data, "--format", "csv", q)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %q", stage, r.stdout)
		}
		keys[stage] = lines[1]
	}
	return keys
}

func TestCaptureKeys(t *testing.T) {
	t.Logf("%#v", requestKeys(t))
}
