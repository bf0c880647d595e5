package main

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
)

// --batch goes where requests can go in a batch: the OpenAI Batch API of
// references, dags and align. Elsewhere it is a usage error (exit 2).
func TestBatchFlagWhereItApplies(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dags", "--batch", "--builder", "symbolic", "--data", dir}, "--builder symbolic makes none"},
		{[]string{"align", "--batch", "--aligner", "symbolic", "--data", dir}, "--aligner symbolic makes none"},
		{[]string{"references", "--batch", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--data", dir}, "needs OpenAI's Batch API"},
		{[]string{"generate", "--batch", "--data", dir}, "flag provided but not defined: -batch"},
	} {
		if r := datg(t, nil, c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("datg %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
}

// datg references --batch runs its requests through the Batch API of a
// server speaking OpenAI's API, and a rerun creates no second batch.
func TestReferencesBatchCommand(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Dialect = simulate.DialectOpenAI
	c.Batch.StepPolls = 2
	sim := pipelinetest.StartSim(t, data, c)
	args := []string{"references", "--batch", "--batch-poll", "1ms", "--server", "openai", "--base-url", sim.URL,
		"--model", "gpt-5.4", "--levels", "low", "--limit", "2", "--per-problem", "2", "--attempts", "4", "--data", data}
	for i := 0; i < 2; i++ {
		if r := datg(t, nil, args...); r.code != 0 || !strings.Contains(r.stdout, "references: 2 problems, 2 with 2 references") {
			t.Fatalf("run %d: exit %d\nstdout %s\nstderr %s", i+1, r.code, r.stdout, r.stderr)
		}
	}
	if b := sim.Server.Batches(); len(b) != 1 || b[0].Status != "completed" || len(b[0].CustomIDs) != 4 {
		t.Fatalf("batches %+v, want one of the 4 requests", b)
	}
	if st := sim.Server.Stats(); st.Served != 4 {
		t.Fatalf("server answered %d requests, want 4", st.Served)
	}
}
