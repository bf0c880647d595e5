package dags_test

import (
	"context"
	"errors"
	"testing"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
)

// dags wrote dags, nodes and edges one after the other, so a fault between
// the commits left DAGs with another DAG's nodes. A fault at any step of
// the one commit now leaves all three as they were.
func TestDAGsCommitTheirTablesTogether(t *testing.T) {
	data := withReferences(t)
	cfg := dags.DefaultConfig()
	cfg.Data, cfg.Symbolic = data, true
	ctx := context.Background()
	var steps []string
	restore := store.SetFaultHook(func(s string) error { steps = append(steps, s); return nil })
	_, err := dags.Run(ctx, cfg)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	tables := []*schema.Table{schema.DAGs.Table, schema.Nodes.Table, schema.Edges.Table}
	hashes := func() map[string][32]byte { return pipelinetest.FileHashes(t, data, tables...) }
	before := hashes()
	for _, step := range steps {
		if step == "after swap" {
			continue
		}
		injected := errors.New("injected fault")
		restore := store.SetFaultHook(func(s string) error {
			if s == step {
				return injected
			}
			return nil
		})
		_, err := dags.Run(ctx, cfg)
		restore()
		if !errors.Is(err, injected) {
			t.Fatalf("fault at %q: %v", step, err)
		}
		for name, h := range hashes() {
			if h != before[name] {
				t.Fatalf("fault at %q: %s was replaced", step, name)
			}
		}
	}
}
