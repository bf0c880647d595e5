package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
)

// --batch goes where requests can go in a batch: the OpenAI Batch API of
// references, dags and align. Elsewhere it is a usage error (exit 2), as
// is a field the model refuses.
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
		// Refused before anything is uploaded, not found in the batch a day later.
		{[]string{"references", "--batch", "--server", "openai", "--base-url", "http://127.0.0.1:1/v1", "--model", "gpt-4.1", "--reasoning-effort", "medium", "--data", dir}, "gpt-4.1 does not reason and refuses reasoning_effort"},
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
		"--model", "gpt-5.4", "--derivation", "answer", "--levels", "low", "--limit", "2", "--per-problem", "2", "--attempts", "4", "--data", data}
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

// datg references --dry-run --batch prints its plan and writes nothing of
// the LLM path: no journal directory, no LOCK, no batch log (the listing
// of the run's journal is the same, empty, before and after; the tables'
// own transaction is the stage's), and the server gets no call.
func TestReferencesBatchDryRunWritesNothing(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	c := pipelinetest.SimConfig(t)
	c.Dialect = simulate.DialectOpenAI
	sim := pipelinetest.StartSim(t, data, c)
	before := runDirListing(t, data)
	r := datg(t, nil, "references", "--batch", "--dry-run", "--price-input", "1", "--price-output", "8", "--server", "openai", "--base-url", sim.URL,
		"--model", "gpt-5.4", "--derivation", "answer", "--levels", "low", "--limit", "2", "--per-problem", "2", "--data", data)
	if r.code != 0 || !strings.Contains(r.stdout, "dry run (nothing sent, nothing written)") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if after := runDirListing(t, data); !slices.Equal(before, after) {
		t.Fatalf("the dry run wrote into the run:\nbefore %v\nafter  %v", before, after)
	}
	if calls := sim.Server.BatchCalls(); len(calls) != 0 {
		t.Fatalf("the dry run called the Batch API: %v", calls)
	}
	if st := sim.Server.Stats(); st.Requests != 0 {
		t.Fatalf("the dry run sent %d requests", st.Requests)
	}
}

// runDirListing lists every file and directory under dir with its size
// and modification time (none when dir does not exist).
func runDirListing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == dir {
			return nil
		}
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %d", path, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
