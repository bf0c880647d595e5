package explain

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// A filter's scope=probe is the direction probe's base traces at the
// seed given, as datg view --probe-seed: a run sampled at seed 1 (as
// scripts/scale.sh's) exports its probe with ProbeSeed 1, and nothing at
// the study's 42.
func TestExportByProbeSeed(t *testing.T) {
	dir := writeMixedRun(t)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for i := range traces {
		traces[i].Seed = 1
		if traces[i].TraceID == "t3" || traces[i].TraceID == "t4" {
			traces[i].Seed = 7
		}
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seed int64
		want []string
	}{{1, []string{"t1", "t2"}}, {7, []string{"t3", "t4"}}} {
		out := filepath.Join(t.TempDir(), "site")
		sum, err := Run(context.Background(), Config{Data: dir, Filter: "scope=probe&sort=id", Out: out, ProbeSeed: &c.seed})
		if err != nil {
			t.Fatalf("seed %d: %v", c.seed, err)
		}
		var want []string
		for _, id := range c.want {
			want = append(want, filepath.Join(out, pageName(id)))
		}
		want = append(want, filepath.Join(out, "index.html"))
		if !slices.Equal(sum.Written, want) {
			t.Errorf("seed %d: wrote %v, want %v", c.seed, sum.Written, want)
		}
	}
	if _, err := Run(context.Background(), Config{Data: dir, Filter: "scope=probe", Out: t.TempDir()}); !errors.Is(err, ErrNoTraces) {
		t.Errorf("the probe at the study's seed on a run sampled at 1 and 7: %v", err)
	}
}
