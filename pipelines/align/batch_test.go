package align_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// references, dags and align with --batch, against a server speaking
// OpenAI's API and Batch API (GPT-5 writing the references, GPT-4.1
// building and aligning), write the same tables as
// the same stages online: the same rows, under the same request keys.
// Every request of a fan-out goes in a batch (references: one per round),
// an expired and a partially failed batch included; nothing is answered
// twice.
func TestStagesThroughTheBatchAPI(t *testing.T) {
	run := func(batch bool) (string, *pipelinetest.Sim) {
		data := pipelinetest.DemoRun(t)
		c := pipelinetest.SimConfig(t)
		c.Dialect = simulate.DialectOpenAI
		if batch {
			c.Batch = simulate.BatchConfig{StepPolls: 2, ExpireFirst: 1, PartialFirst: 1, FailedLines: 2}
		}
		sim := pipelinetest.StartSim(t, data, c)
		target := pipelinetest.Target("gpt-5.4", sim.URL)
		target.Pool.Server = llm.ServerOpenAI
		if batch {
			target.Batch = llm.BatchOptions{Enabled: true, Poll: time.Millisecond}
		}
		rc := references.DefaultConfig()
		rc.Data, rc.Target, rc.Limit, rc.Levels, rc.PerProblem, rc.MaxAttempts = data, target, 2, []string{"low", "medium"}, 2, 6
		rc.Derivation = study.FromAnswer // GPT-5 hides its reasoning
		if _, err := references.Run(context.Background(), rc); err != nil {
			t.Fatalf("references (batch %v): %v", batch, err)
		}
		// The simulator's GPT-5 keeps a DAG's JSON in its hidden
		// reasoning; a chat model builds and aligns.
		target.Model = "gpt-4.1"
		dc := dags.DefaultConfig()
		dc.Data, dc.Target = data, target
		if _, err := dags.Run(context.Background(), dc); err != nil {
			t.Fatalf("dags (batch %v): %v", batch, err)
		}
		ac := align.DefaultConfig()
		ac.Data, ac.Target, ac.References = data, target, true
		if _, err := align.Run(context.Background(), ac); err != nil {
			t.Fatalf("align (batch %v): %v", batch, err)
		}
		return data, sim
	}
	online, osim := run(false)
	batched, bsim := run(true)
	if len(osim.Server.Batches()) != 0 {
		t.Fatal("the online run created batches")
	}
	batches := bsim.Server.Batches()
	if len(batches) < 3 {
		t.Fatalf("%d batches %+v, want one per fan-out or round (3 or more)", len(batches), batches)
	}
	if got, want := batches[0].Status, "expired"; got != want {
		t.Fatalf("first batch %s, want %s", got, want)
	}
	if total, dup := pipelinetest.Served(bsim.Server); dup != 0 || total == 0 {
		t.Fatalf("batch run: %d responses, %d of them paid twice", total, dup)
	}
	inBatches := 0
	for _, b := range batches {
		inBatches += len(b.CustomIDs)
	}
	if st := bsim.Server.Stats(); st.Requests > int64(inBatches) {
		t.Logf("%d requests, %d in batches: %d follow-ups (DAG repairs, second alignments) online", st.Requests, inBatches, st.Requests-int64(inBatches))
	}
	t.Logf("%d batches: %+v", len(batches), batchSizes(batches))
	same(t, "derivations", rows(t, online, schema.References), rows(t, batched, schema.References))
	same(t, "dags", rows(t, online, schema.DAGs), rows(t, batched, schema.DAGs))
	same(t, "alignments", rows(t, online, schema.Alignments), rows(t, batched, schema.Alignments))
}

// rows are a table's rows as JSON, without the time each was written,
// sorted.
func rows[T any](t *testing.T, data string, table schema.Def[T]) []string {
	t.Helper()
	all, err := store.ReadAll(data, table)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range all {
		var m map[string]any
		b, _ := json.Marshal(r)
		json.Unmarshal(b, &m)
		delete(m, "CreatedAt")
		b, _ = json.Marshal(m)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

func same(t *testing.T, name string, online, batched []string) {
	t.Helper()
	t.Logf("%s: %d rows", name, len(online))
	if len(online) == 0 {
		t.Fatalf("%s: no rows online", name)
	}
	if !slices.Equal(online, batched) {
		for i := range min(len(online), len(batched)) {
			if online[i] != batched[i] {
				t.Fatalf("%s differ (%d rows online, %d batched); first:\nonline  %s\nbatched %s", name, len(online), len(batched), online[i], batched[i])
			}
		}
		t.Fatalf("%s: %d rows online, %d batched", name, len(online), len(batched))
	}
}

func batchSizes(bs []simulate.BatchInfo) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Status+":"+strconv.Itoa(len(b.CustomIDs)))
	}
	return out
}
