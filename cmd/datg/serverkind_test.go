package main

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
)

// openAIGateway is the simulator speaking OpenAI's chat API on loopback,
// as a gateway, Azure or a proxy would at a host that is not
// api.openai.com: it does not answer vLLM's GET /version, and it refuses
// max_tokens for a reasoning model with OpenAI's "Use
// 'max_completion_tokens'".
func openAIGateway(t *testing.T, data string) *pipelinetest.Sim {
	c := pipelinetest.SimConfig(t)
	c.Dialect, c.Version = simulate.DialectOpenAI, ""
	return pipelinetest.StartSim(t, data, c)
}

// gpt-5.4 behind an OpenAI-compatible API that is not api.openai.com is
// sent what OpenAI's reasoning models take, with no --server: the servers
// say what they are.
func TestReasoningModelBehindAGateway(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := openAIGateway(t, data)
	r := datg(t, nil, "references", "--model", "gpt-5.4", "--derivation", "answer", "--base-url", sim.URL, "--levels", "low", "--limit", "1",
		"--per-problem", "1", "--attempts", "2", "--data", data)
	if r.code != 0 || !strings.Contains(r.stdout, "references: 1 problems, 1 with 1 references") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if st := sim.Server.Stats(); st.Errors != 0 || st.Requests != st.Served {
		t.Fatalf("server stats %+v: some requests were refused", st)
	}
}

// Said wrongly to be vLLM, the gateway refuses the form of the first
// request: the run ends at once naming --server as the fix, not with
// failures counted and a rerun asked for that would fail the same way.
func TestWrongServerKindEndsTheRunNamingServer(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := openAIGateway(t, data)
	r := datg(t, nil, "references", "--server", "vllm", "--model", "gpt-5.4", "--base-url", sim.URL, "--levels", "low", "--limit", "1",
		"--per-problem", "1", "--attempts", "3", "--data", data)
	if r.code == 0 || !strings.Contains(r.stderr, "--server openai") || !strings.Contains(r.stderr, "max_completion_tokens") {
		t.Fatalf("exit %d\nstderr %s\nwant a failure naming --server", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "rerun to retry") || strings.Contains(r.stderr, "failed for good") {
		t.Fatalf("the run asks for a rerun that would fail again:\n%s", r.stderr)
	}
}

// A dry run prints its plan, the budgets included (for a reasoning model
// behind an OpenAI-compatible API: max_completion_tokens, which counts its
// reasoning, at the default that leaves room for it), and nothing else: no
// progress line ("0 done").
func TestDryRunPrintsOnlyItsPlanWithTheBudgets(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := openAIGateway(t, data)
	r := datg(t, nil, "references", "--dry-run", "--model", "gpt-5.4", "--base-url", sim.URL, "--levels", "low", "--limit", "2",
		"--per-problem", "2", "--data", data)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "references: dry run (nothing sent, nothing written)") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"4 requests to send", "budget: max_completion_tokens 32768 (it counts the hidden reasoning; a reply that spends it reasoning is asked once more with 65536)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the plan does not say %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("a dry run printed besides its plan:\n%s", r.stderr)
	}
	if st := sim.Server.Stats(); st.Requests != 0 {
		t.Fatalf("the dry run sent %d requests", st.Requests)
	}
}
