package control_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/control"
	"github.com/datg/datg/prompts"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// Examples whose requests the server rejects fail the run and nothing is
// written, the error naming Generation.KeepGoing; with KeepGoing the
// examples that finished are written and the failures still reported.
func TestRejectedExamplesFailTheRunUnlessKeepGoing(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Data = data
	srv, err := simulate.NewServer(c)
	if err != nil {
		t.Fatal(err)
	}
	// Telugu's prefix opens the reasoning of every Telugu example (its
	// first line: a request body spells the line break \n).
	te, err := prompts.Lookup("te")
	if err != nil {
		t.Fatal(err)
	}
	h := &pipelinetest.Rejecting{Next: srv, Marker: strings.Split(te.Prefix, "\n")[0], Message: "prompt too long"}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	cfg := control.DefaultConfig()
	cfg.Method = study.LoopRetry
	cfg.Generation.Data, cfg.Generation.Endpoints, cfg.Generation.Pool = data, []string{ts.URL + "/v1"}, pipelinetest.QuickPool()
	cfg.Generation.Study.Levels, cfg.Generation.Study.Limit = []string{"low"}, 2
	const examples, rejected = 12, 6 // 2 problems x 2 languages x 3 seeds; Telugu's

	sum, err := control.Run(context.Background(), cfg)
	if !errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("got %v, want ErrFailedRequests", err)
	}
	if got := fieldNames(err); !slices.Equal(got, []string{"Generation.KeepGoing"}) {
		t.Errorf("fields named %q, want Generation.KeepGoing", got)
	}
	if !strings.Contains(err.Error(), "prompt too long") {
		t.Errorf("error %q does not give the server's reason", err)
	}
	if sum.Examples != examples {
		t.Errorf("summary: %d examples, want %d", sum.Examples, examples)
	}
	if sum.Failed != rejected {
		t.Errorf("summary: %d failed, want %d", sum.Failed, rejected)
	}
	if store.Exists(data, schema.Traces.Table) {
		t.Error("a failed run wrote the traces table")
	}
	if store.Exists(data, schema.Trials.Table) {
		t.Error("a failed run wrote the trials table")
	}

	cfg.Generation.KeepGoing = true
	sum, err = control.Run(context.Background(), cfg)
	if !errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("keep going: got %v, want ErrFailedRequests", err)
	}
	if !strings.Contains(err.Error(), "the examples that finished were written") {
		t.Errorf("keep going: error %q does not say what was written", err)
	}
	if sum.Resumed != examples-rejected {
		t.Errorf("keep going: %d examples from the journal, want %d", sum.Resumed, examples-rejected)
	}
	traces, _ := read(t, data)
	if len(traces) != examples-rejected {
		t.Errorf("keep going wrote %d traces, want %d", len(traces), examples-rejected)
	}
	for id, tr := range traces {
		if tr.ReasoningLang == "te" {
			t.Errorf("trace %s of a rejected example was written", id)
		}
	}
}
