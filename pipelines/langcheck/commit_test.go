package langcheck

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// A fault at any step of langcheck's commit leaves compliance and
// detections as they were: the two never disagree about which traces they
// checked.
func TestComplianceAndDetectionsCommitTogether(t *testing.T) {
	traces := sampleTraces(t)
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces[:3]); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var steps []string
	restore := store.SetFaultHook(func(s string) error { steps = append(steps, s); return nil })
	_, err := Run(ctx, Config{Data: dir})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	hashes := func() map[string][32]byte {
		out := map[string][32]byte{}
		for _, tbl := range []*schema.Table{schema.Compliances.Table, schema.Detections.Table} {
			b, err := os.ReadFile(store.FilePath(dir, tbl))
			if err != nil {
				t.Fatal(err)
			}
			out[tbl.Name] = sha256.Sum256(b)
		}
		return out
	}
	before := hashes()
	// New traces: a run that got through would change both tables.
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	faulted := 0
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
		_, err := Run(ctx, Config{Data: dir})
		restore()
		if !errors.Is(err, injected) {
			t.Fatalf("fault at %q: %v", step, err)
		}
		faulted++
		for name, h := range hashes() {
			if h != before[name] {
				t.Fatalf("fault at %q: %s was replaced", step, name)
			}
		}
	}
	if faulted < 2 {
		t.Fatalf("only %d commit steps seen: %v", faulted, steps)
	}
	comps, dets := read(t, dir)
	if len(comps) != 3 || len(dets[string(study.Langdetect)]) != 3 || len(dets[string(study.Lingua)]) != 3 {
		t.Fatalf("after the faults: %d compliance rows, %d/%d detections", len(comps), len(dets[string(study.Langdetect)]), len(dets[string(study.Lingua)]))
	}
}
