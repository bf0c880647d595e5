package align_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/imports"
	"github.com/datg/datg/pipelines/score"
	papertables "github.com/datg/datg/pipelines/tables"
	"github.com/datg/datg/schema"
)

var alignmentTables = []*schema.Table{schema.Alignments.Table, schema.AlignmentEvents.Table, schema.HarmfulActions.Table, schema.AlignmentErrors.Table}

func symbolicConfig(data string) align.Config {
	cfg := align.DefaultConfig()
	cfg.Data, cfg.Symbolic = data, true
	return cfg
}

// The red team failed the third fsync of `datg align --aligner symbolic`
// and align exited 1 with three of its four tables replaced; datg score then
// scored alignments without their events. A fault at any step of the
// commit now leaves all four as they were.
func TestAlignCommitsItsTablesTogether(t *testing.T) {
	data := alignRun(t)
	ctx := context.Background()
	var steps []string
	restore := store.SetFaultHook(func(step string) error { steps = append(steps, step); return nil })
	_, err := align.Run(ctx, symbolicConfig(data))
	restore()
	if err != nil {
		t.Fatal(err)
	}
	before := pipelinetest.FileHashes(t, data, alignmentTables...)
	for _, step := range steps {
		if step == "after swap" {
			continue // committed by then
		}
		injected := errors.New("injected: no space left on device")
		restore := store.SetFaultHook(func(s string) error {
			if s == step {
				return injected
			}
			return nil
		})
		_, err := align.Run(ctx, symbolicConfig(data))
		restore()
		if !errors.Is(err, injected) {
			t.Fatalf("fault at %q: align returned %v", step, err)
		}
		for name, h := range pipelinetest.FileHashes(t, data, alignmentTables...) {
			if h != before[name] {
				t.Fatalf("fault at %q: %s was replaced", step, name)
			}
		}
	}
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	for name, h := range pipelinetest.FileHashes(t, data, alignmentTables...) {
		if h == before[name] {
			t.Fatalf("after a clean run %s is unchanged", name)
		}
	}
}

// The red team corrupted alignment_events.parquet before aligning: align
// failed, yet replaced the other three tables. Now it replaces none, and
// says which file is damaged.
func TestAlignWithACorruptTableReplacesNothing(t *testing.T) {
	data := alignRun(t)
	ctx := context.Background()
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	others := alignmentTables[:1]
	others = append(others, alignmentTables[2:]...)
	before := pipelinetest.FileHashes(t, data, others...)
	if err := os.WriteFile(store.FilePath(data, schema.AlignmentEvents.Table), []byte("PAR1 not a parquet file"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := align.Run(ctx, symbolicConfig(data))
	if err == nil || !strings.Contains(err.Error(), "alignment_events.parquet") {
		t.Fatalf("align over a corrupt alignment_events: %v", err)
	}
	for name, h := range pipelinetest.FileHashes(t, data, others...) {
		if h != before[name] {
			t.Fatalf("%s was replaced although align failed", name)
		}
	}
	if _, err := score.Run(ctx, score.Config{Data: data}); err == nil {
		t.Fatal("score read a corrupt alignment_events without an error")
	}
}

// The red team replaced DAGs under existing alignments (datg import dags of
// a changed DAG, datg dags --builder symbolic after LLM DAGs): score said
// "0 stale" and scored the old alignments against the new DAGs, and the
// import said "0 replaced". Each alignment now records the content hash of
// the DAG it was made on; alignments of a changed DAG are left out and
// counted, and the import counts what it replaced and what changed.
func TestScoreFollowsTheDAGs(t *testing.T) {
	data := alignRun(t)
	ctx := context.Background()
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	first, err := score.Run(ctx, score.Config{Data: data})
	if err != nil {
		t.Fatalf("score: %v", err)
	}
	if first.StaleDAG != 0 || first.Scored == 0 {
		t.Fatalf("score: %d stale (DAG changed) and %d scored; want none stale and some scored", first.StaleDAG, first.Scored)
	}
	aligns, err := store.ReadAll(data, schema.Alignments)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range aligns {
		if a.DagHash == "" || a.DagHash != stored[a.DagID].Row.ContentHash {
			t.Fatalf("alignment %s/%s records DAG hash %q, the DAG has %q", a.TraceID, a.DagID, a.DagHash, stored[a.DagID].Row.ContentHash)
		}
	}
	// Re-import two DAGs: as they are, then with one anchor changed.
	importDAGs := func(change bool) imports.Summary {
		t.Helper()
		var lines []string
		for _, id := range []string{"low-0/r0", "low-0/r1"} {
			d := stored[id].DAG
			d.Nodes = slices.Clone(d.Nodes)
			if change {
				d.Nodes[0].Anchor += " + 0"
			}
			b, _ := json.Marshal(map[string]any{"problem_id": stored[id].Row.ProblemID, "ref_index": stored[id].Row.RefIndex, "dag": d})
			lines = append(lines, string(b))
		}
		in := filepath.Join(t.TempDir(), "dags.jsonl")
		os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		sum, err := imports.Run(ctx, imports.Config{Kind: "dags", In: in, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	replacedAndChanged := cmpopts.IgnoreFields(imports.Summary{}, "Records", "Invalid")
	if diff := cmp.Diff(imports.Summary{Replaced: 2, Changed: 0}, importDAGs(false), replacedAndChanged); diff != "" {
		t.Fatalf("re-importing two DAGs as they are (-want +got):\n%s", diff)
	}
	checkScore(t, "score after an identical import", data, score.Summary{StaleDAG: 0, Scored: first.Scored})
	if diff := cmp.Diff(imports.Summary{Replaced: 2, Changed: 2}, importDAGs(true), replacedAndChanged); diff != "" {
		t.Fatalf("importing two changed DAGs (-want +got):\n%s", diff)
	}
	stale := map[string]bool{}
	for _, a := range aligns {
		if a.DagID == "low-0/r0" || a.DagID == "low-0/r1" {
			stale[a.TraceID+"/"+a.DagID] = true
		}
	}
	if len(stale) == 0 {
		t.Fatal("no alignment of low-0/r0 or low-0/r1 to make stale")
	}
	checkScore(t, "score after the DAGs changed", data, score.Summary{StaleDAG: len(stale), Scored: first.Scored - len(stale)})
	scores, err := store.ReadAll(data, schema.Scores)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scores {
		if stale[s.TraceID+"/"+s.DagID] {
			t.Fatalf("%s/%s is scored against a DAG it was not aligned to", s.TraceID, s.DagID)
		}
	}
	// Aligning again makes them current.
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	checkScore(t, "score after aligning again", data, score.Summary{StaleDAG: 0, Scored: first.Scored})
}

// checkScore runs score and checks the alignments it scored and those it
// left out as of a changed DAG.
func checkScore(t *testing.T, name, data string, want score.Summary) {
	t.Helper()
	got, err := score.Run(context.Background(), score.Config{Data: data})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(score.Summary{}, "Traces", "StaleText", "Unusable")); diff != "" {
		t.Fatalf("%s (-want +got):\n%s", name, diff)
	}
}

// The review of the change above: DAGs changed, the alignments made again,
// but score not rerun: the scores rows then joined current alignments and
// every lineage check passed, though they were computed from the old ones.
// A score now records the alignment (and text and DAG) it came from.
func TestTablesRefuseScoresOfAlignmentsMadeAgain(t *testing.T) {
	data := alignRun(t)
	ctx := context.Background()
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	if _, err := score.Run(ctx, score.Config{Data: data}); err != nil {
		t.Fatal(err)
	}
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	d := stored["low-0/r0"].DAG
	d.Nodes = slices.Clone(d.Nodes)
	d.Nodes[0].Anchor += " + 0"
	b, _ := json.Marshal(map[string]any{"problem_id": "low-0", "ref_index": 0, "dag": d})
	in := filepath.Join(t.TempDir(), "dags.jsonl")
	os.WriteFile(in, append(b, '\n'), 0o644)
	if _, err := imports.Run(ctx, imports.Config{Kind: "dags", In: in, Data: data}); err != nil {
		t.Fatal(err)
	}
	if _, err := align.Run(ctx, symbolicConfig(data)); err != nil {
		t.Fatal(err)
	}
	_, err = papertables.Run(ctx, papertables.Config{Data: data})
	if !errors.Is(err, papertables.ErrStale) || !strings.Contains(err.Error(), "computed from alignments made again") {
		t.Fatalf("tables over scores of alignments made again: %v, want ErrStale naming them", err)
	}
	if _, err := score.Run(ctx, score.Config{Data: data}); err != nil {
		t.Fatal(err)
	}
	if _, err := papertables.Run(ctx, papertables.Config{Data: data}); err != nil {
		t.Fatalf("tables after score ran again: %v", err)
	}
}

// Issue 13: an alignment with one ERROR event whose quote also appears in
// two harmful lists scored HAR 2 (2 harmful, 1 judgeable). Actions and
// events are now matched one to one and the lists capped (2, 2, 1), the
// items past a cap recorded as too-many-actions: HAR never exceeds 1.
func TestAdversarialAlignmentHARWithinOne(t *testing.T) {
	data := alignRun(t)
	ctx := context.Background()
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	var tr schema.Trace
	traces, _ := store.ReadAll(data, schema.Traces)
	for _, x := range traces {
		if x.ProblemID == "low-0" && x.Method == "base" && x.Direction == "en-en" {
			tr = x
		}
	}
	quote := tr.Text[len(tr.Text)/2 : len(tr.Text)/2+12]
	node := stored["low-0/r0"].DAG.Nodes[0].NodeID
	item := func(s string) map[string]string { return map[string]string{"evidence": s, "evidence_span": s} }
	alignment := map[string]any{
		"audit_results":       map[string]any{node: []map[string]string{{"status": "ERROR", "evidence": quote, "evidence_span": quote}}},
		"contradictory_steps": []any{item(quote), item("nowhere one"), item("nowhere two"), item("nowhere three")},
		"harmful_loop_steps":  []any{item(quote)},
		"degenerate_steps":    []any{item("nowhere four"), item("nowhere five")},
	}
	b, _ := json.Marshal(map[string]any{"trace_id": tr.TraceID, "problem_id": "low-0", "ref_index": 0, "alignment": alignment})
	in := filepath.Join(t.TempDir(), "adversarial.jsonl")
	os.WriteFile(in, append(b, '\n'), 0o644)
	if _, err := imports.Run(ctx, imports.Config{Kind: "alignments", In: in, Data: data, Aligner: "adversary"}); err != nil {
		t.Fatal(err)
	}
	if _, err := score.Run(ctx, score.Config{Data: data}); err != nil {
		t.Fatal(err)
	}
	scores, _ := store.ReadAll(data, schema.Scores)
	found := false
	for _, s := range scores {
		if s.HAR < 0 || s.HAR > 1 {
			t.Fatalf("HAR %v for %s/%s/%s", s.HAR, s.TraceID, s.DagID, s.Aligner)
		}
		if s.Aligner == "adversary" {
			found = true
			// Kept: 2 contradictory + 1 loop + 1 degenerate; the quote
			// matches the ERROR event once: judgeable 1 + 3 unmatched.
			type har struct {
				Harmful, Judgeable int32
				HAR                float64
			}
			if diff := cmp.Diff(har{4, 4, 1}, har{s.Harmful, s.Judgeable, s.HAR}); diff != "" {
				t.Fatalf("adversarial alignment scored (-want +got):\n%s", diff)
			}
		}
	}
	if !found {
		t.Fatal("the adversarial alignment was not scored")
	}
	errs, _ := store.ReadAll(data, schema.AlignmentErrors)
	capped := 0
	for _, e := range errs {
		if e.Aligner == "adversary" && e.Kind == "too-many-actions" {
			capped++
		}
	}
	if capped != 3 {
		t.Fatalf("%d too-many-actions errors, want 3 (2 contradictory, 1 degenerate)", capped)
	}
}
