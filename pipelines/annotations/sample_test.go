package annotations

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/imports"
	"github.com/datg/datg/pipelines/score"
	"github.com/datg/datg/schema"
)

// The audit world: problems 0-4 of each level; en-x traces of models M1 and
// M2 in fr, sw, bn and te (10 candidates a cell) but only M1's first two
// high problems in Telugu (a cell short of candidates); decoys that must
// never be drawn: x-en, en-en, loop-retry and Japanese traces, all scored.
// Every problem has two DAGs; aligner A commits more of the second on odd
// problems, so the best DAG varies; aligner B aligns too.
const traceText = "First we find x = 1 from the data.\n\nThen y = 2 follows.\n\nSo x + y = 3, the answer is 3."

func importLines(t *testing.T, dir, kind, aligner string, lines []string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), kind+".jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := imports.Run(context.Background(), imports.Config{Kind: kind, In: in, Data: dir, Aligner: aligner}); err != nil {
		t.Fatalf("import %s: %v", kind, err)
	}
}

type traceSpec struct {
	model, input, reasoning, level, method string
	k                                      int
}

func auditWorld(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	levels := []string{"low", "medium", "high"}
	var ps []schema.Problem
	for _, level := range levels {
		for k := range 5 {
			ps = append(ps, schema.Problem{ProblemID: fmt.Sprintf("%s-%d", level, k), Level: level, Lang: "en", K: int32(k),
				Question: fmt.Sprintf("Problem %s-%d: what is x + y?", level, k), Answer: "3"})
		}
	}
	if err := store.WriteAll(dir, schema.Problems, store.Meta{}, ps); err != nil {
		t.Fatal(err)
	}
	var specs []traceSpec
	for _, level := range levels {
		for k := range 5 {
			for _, model := range []string{"M1", "M2"} {
				for _, lang := range []string{"fr", "sw", "bn", "te"} {
					if lang == "te" && level == "high" && (model == "M2" || k >= 2) {
						continue
					}
					specs = append(specs, traceSpec{model, "en", lang, level, "base", k})
				}
				specs = append(specs,
					traceSpec{model, "fr", "en", level, "base", k},       // x-en
					traceSpec{model, "en", "en", level, "base", k},       // en-en
					traceSpec{model, "en", "fr", level, "loop-retry", k}, // not base
					traceSpec{model, "en", "ja", level, "base", k})       // not audited
			}
		}
	}
	var traces, dagLines []string
	for _, s := range specs {
		b, _ := json.Marshal(map[string]any{"model": s.model, "input_lang": s.input, "reasoning_lang": s.reasoning, "level": s.level,
			"problem_id": fmt.Sprintf("%s-%d", s.level, s.k), "seed": 42, "method": s.method, "text": traceText, "completion_tokens": 30})
		traces = append(traces, string(b))
	}
	for _, p := range ps {
		for ref := range 2 {
			dagLines = append(dagLines, fmt.Sprintf(`{"problem_id": %q, "ref_index": %d, "dag": {"final_node_id": "n3", "nodes": [`+
				`{"node_id": "n1", "anchor": "x = 1", "description": "x", "parents": []}, `+
				`{"node_id": "n2", "anchor": "y = 2", "description": "y", "parents": ["n1"]}, `+
				`{"node_id": "n3", "anchor": "x + y = 3", "description": "<b>sum</b>", "parents": ["n1", "n2"]}]}}`, p.ProblemID, ref))
		}
	}
	importLines(t, dir, "traces", "", traces)
	importLines(t, dir, "dags", "", dagLines)
	all, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for _, aligner := range []string{"A", "B"} {
		var lines []string
		for _, tr := range all {
			k := tr.ProblemID[strings.LastIndexByte(tr.ProblemID, '-')+1:]
			for ref := range 2 {
				n3 := `[]`
				if (ref == 1) == (k == "1" || k == "3") {
					n3 = `[{"status": "COMMIT", "evidence": "x + y = 3", "evidence_span": "x + y = 3"}]`
				}
				lines = append(lines, fmt.Sprintf(`{"trace_id": %q, "problem_id": %q, "ref_index": %d, "alignment": {"audit_results": {`+
					`"n1": [{"status": "COMMIT", "evidence": "x = 1", "evidence_span": "x = 1"}], `+
					`"n2": [{"status": "ATTEMPT", "evidence": "y = 2", "evidence_span": "y = 2"}], "n3": %s}, `+
					`"contradictory_steps": [], "harmful_loop_steps": [{"evidence": "loop", "evidence_span": "Then y = 2 follows."}], `+
					// The paper's degenerate step: an evidence and no evidence_span.
					`"degenerate_steps": [{"evidence": "the answer is 3", "category": "collapse"}]}}`,
					tr.TraceID, tr.ProblemID, ref, n3))
			}
		}
		importLines(t, dir, "alignments", aligner, lines)
	}
	if _, err := score.Run(context.Background(), score.Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sampleConfig(dir, out string, seed int64) Config {
	cfg := DefaultConfig()
	cfg.Data, cfg.Out, cfg.Seed, cfg.PerLevel, cfg.Aligner = dir, out, seed, 3, "A"
	return cfg
}

type line struct {
	TraceID  string                    `json:"trace_id"`
	RefIndex int                       `json:"ref_index"`
	Nodes    map[string]any            `json:"nodes"`
	Edges    map[string]any            `json:"edges"`
	Statuses map[string]map[string]any `json:"statuses"`
	Harmful  map[string]any            `json:"harmful"`
	Context  struct {
		Lang, Level, Question, Trace string
		DagID                        string `json:"dag_id"`
	} `json:"context"`
}

func readSample(t *testing.T, path string) ([]line, []map[string]any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var typed []line
	var raw []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var x line
		var r map[string]any
		if err := json.Unmarshal(l, &x); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(l, &r)
		typed, raw = append(typed, x), append(raw, r)
	}
	return typed, raw
}

// The sample is the paper's design: per language and level PerLevel base
// en-x traces (all of a short cell), each with its best DAG under the
// aligner, every judgment null; seeded and deterministic.
func TestSampleIsTheAuditDesign(t *testing.T) {
	dir := auditWorld(t)
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	sum, err := Run(context.Background(), sampleConfig(dir, out, 42))
	if err != nil {
		t.Fatal(err)
	}
	traces, _ := store.ReadAll(dir, schema.Traces)
	byID := map[string]schema.Trace{}
	for _, tr := range traces {
		byID[tr.TraceID] = tr
	}
	scores, _ := store.ReadAll(dir, schema.Scores)
	best := map[string]int32{}
	for _, s := range scores {
		if s.Aligner == "A" && s.Best {
			best[s.TraceID] = s.RefIndex
		}
	}
	lines, raw := readSample(t, out)
	counts := map[[2]string]int{}
	seen := map[string]bool{}
	for i, l := range lines {
		tr, ok := byID[l.TraceID]
		switch {
		case !ok:
			t.Fatalf("line %d: trace %s not in the run", i+1, l.TraceID)
		case tr.Method != "base" || tr.Direction != "en-x" || !slices.Contains(DefaultLangs, tr.ReasoningLang):
			t.Errorf("line %d: drew a %s %s %s trace", i+1, tr.Method, tr.Direction, tr.ReasoningLang)
		case seen[l.TraceID]:
			t.Errorf("line %d: trace %s drawn twice", i+1, l.TraceID)
		case int32(l.RefIndex) != best[l.TraceID]:
			t.Errorf("line %d: ref_index %d, the best DAG under A is %d", i+1, l.RefIndex, best[l.TraceID])
		default:
			type described struct{ Lang, Level, Trace string }
			if diff := cmp.Diff(described{tr.ReasoningLang, tr.Level, tr.Text}, described{l.Context.Lang, l.Context.Level, l.Context.Trace}); diff != "" {
				t.Errorf("line %d: context (-the trace +the line):\n%s", i+1, diff)
			}
			if !strings.Contains(l.Context.Question, tr.ProblemID) {
				t.Errorf("line %d: question %q is not %s's", i+1, l.Context.Question, tr.ProblemID)
			}
		}
		seen[l.TraceID] = true
		counts[[2]string{tr.ReasoningLang, tr.Level}]++
		type toFill struct {
			Annotator                       any
			Nodes, Edges, Statuses, Harmful int
		}
		if diff := cmp.Diff(toFill{nil, 3, 3, 3, 2}, toFill{raw[i]["annotator"], len(l.Nodes), len(l.Edges), len(l.Statuses), len(l.Harmful)}); diff != "" {
			t.Errorf("line %d: judgments to fill (-want +got):\n%s", i+1, diff)
		}
		// Every candidate of the three lists is to judge, by its quote.
		if diff := cmp.Diff([]string{"Then y = 2 follows.", "the answer is 3"}, slices.Sorted(maps.Keys(l.Harmful))); diff != "" {
			t.Errorf("line %d: harmful keys (-want +got):\n%s", i+1, diff)
		}
		for _, m := range []map[string]any{l.Nodes, l.Edges, l.Harmful} {
			for k, v := range m {
				if v != nil {
					t.Errorf("line %d: %s = %v, want null", i+1, k, v)
				}
			}
		}
		for id, st := range l.Statuses {
			if st["status"] != nil || st["evidence_span"] != nil || len(st) != 2 {
				t.Errorf("line %d: status of %s = %v, want status and evidence_span null", i+1, id, st)
			}
		}
	}
	var short []Cell
	for _, lang := range DefaultLangs {
		for _, level := range DefaultLevels {
			want := 3
			if lang == "te" && level == "high" {
				want = 2
			}
			if got := counts[[2]string{lang, level}]; got != want {
				t.Errorf("%s %s: %d instances, want %d", lang, level, got, want)
			}
		}
	}
	for _, c := range sum.Cells {
		if c.Short(3) {
			short = append(short, c)
		}
	}
	type summary struct {
		Aligner          string
		Instances, Cells int
		Short            []Cell
	}
	want := summary{Aligner: "A", Instances: 35, Cells: 12, Short: []Cell{{"te", "high", 2, 2}}}
	if diff := cmp.Diff(want, summary{sum.Aligner, sum.Instances, len(sum.Cells), short}); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}

	// Same seed: byte-identical; another seed: another draw.
	again := filepath.Join(t.TempDir(), "again.jsonl")
	if _, err := Run(context.Background(), sampleConfig(dir, again, 42)); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave another file")
	}
	other := filepath.Join(t.TempDir(), "other.jsonl")
	if _, err := Run(context.Background(), sampleConfig(dir, other, 7)); err != nil {
		t.Fatal(err)
	}
	otherLines, _ := readSample(t, other)
	if len(otherLines) != len(lines) {
		t.Fatalf("seed 7 drew %d, seed 42 %d", len(otherLines), len(lines))
	}
	differ := 0
	for i := range lines {
		if lines[i].TraceID != otherLines[i].TraceID {
			differ++
		}
	}
	if differ == 0 {
		t.Error("another seed drew the same instances")
	}
}

// The draw of a cell depends on the seed and the candidate set only.
func TestDrawIgnoresCandidateOrder(t *testing.T) {
	var cell []candidate
	for i := range 30 {
		cell = append(cell, candidate{traceID: fmt.Sprintf("t%02d", i)})
	}
	rev := slices.Clone(cell)
	slices.Reverse(rev)
	a, b := draw(cell, 5, 10), draw(rev, 5, 10)
	if len(a) != 10 {
		t.Fatalf("drew %d of 30, want 10", len(a))
	}
	if !slices.Equal(a, b) {
		t.Fatalf("the candidates reversed drew %v, in order %v", b, a)
	}
	if all := draw(cell, 5, 50); len(all) != 30 {
		t.Fatalf("a short cell gave %d of 30", len(all))
	}
}

func TestSampleRefusesToOverwrite(t *testing.T) {
	dir := auditWorld(t)
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(out, []byte("filled-in work\n"), 0o644)
	if _, err := Run(context.Background(), sampleConfig(dir, out, 42)); !errors.Is(err, ErrOutputExists) {
		t.Fatalf("got %v, want ErrOutputExists", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "filled-in work\n" {
		t.Fatal("the file was changed")
	}
	cfg := sampleConfig(dir, out, 42)
	cfg.Force = true
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Force, cfg.Aligner = false, ""
	cfg.Out = filepath.Join(t.TempDir(), "x.jsonl")
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrAmbiguousAligner) || !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("two aligners, none chosen: %v", err)
	}
	bad := DefaultConfig()
	bad.Data, bad.PerLevel, bad.Levels = dir, 0, []string{"easy"}
	_, err := Run(context.Background(), bad)
	if !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("bad config: %v, want ErrInvalidConfig", err)
	}
	if got, want := inputerr.FieldNames(err), []string{"Out", "Levels", "PerLevel"}; !slices.Equal(got, want) {
		t.Errorf("bad config: fields at fault %v, want %v", got, want)
	}
	if !strings.Contains(err.Error(), `"easy"`) {
		t.Errorf("bad config: %q does not name the level", err)
	}
}

// sample -> fill -> import: the unfilled file is refused naming the line
// and field, the filled one imports.
func TestSampleFillImport(t *testing.T) {
	dir := auditWorld(t)
	out := filepath.Join(t.TempDir(), "audit.jsonl")
	if _, err := Run(context.Background(), sampleConfig(dir, out, 42)); err != nil {
		t.Fatal(err)
	}
	imp := func(path string) error {
		_, err := imports.Run(context.Background(), imports.Config{Kind: "annotations", In: path, Data: dir})
		return err
	}
	checkInputError(t, "unfilled sample", imp(out), 1, "annotator")
	_, raw := readSample(t, out)
	write := func(lines []map[string]any) string {
		var buf bytes.Buffer
		for _, l := range lines {
			b, _ := json.Marshal(l)
			buf.Write(append(b, '\n'))
		}
		p := filepath.Join(t.TempDir(), "filled.jsonl")
		os.WriteFile(p, buf.Bytes(), 0o644)
		return p
	}
	for _, l := range raw {
		l["annotator"] = "ann"
	}
	if err := checkInputError(t, "judgments unfilled", imp(write(raw)), 1, "nodes.n1"); !strings.Contains(err.Error(), "not judged yet") {
		t.Fatalf("judgments unfilled: %v, want it to say \"not judged yet\"", err)
	}
	spans := map[string]any{"n1": "x = 1", "n2": "y = 2", "n3": nil}
	status := map[string]any{"n1": "COMMIT", "n2": "ATTEMPT", "n3": "MISSING"}
	for _, l := range raw {
		for _, part := range []string{"nodes", "edges", "harmful"} {
			for k := range l[part].(map[string]any) {
				l[part].(map[string]any)[k] = true
			}
		}
		for k := range l["statuses"].(map[string]any) {
			l["statuses"].(map[string]any)[k] = map[string]any{"status": status[k], "evidence_span": spans[k]}
		}
	}
	// The last line leaves one status unfilled: refused, naming it.
	last := raw[len(raw)-1]["statuses"].(map[string]any)
	last["n2"] = map[string]any{"status": nil, "evidence_span": nil}
	checkInputError(t, "a status unfilled", imp(write(raw)), len(raw), "statuses.n2")
	last["n2"] = map[string]any{"status": "ATTEMPT", "evidence_span": "y = 2"}
	if err := imp(write(raw)); err != nil {
		t.Fatalf("filled sample: %v", err)
	}
	rows, err := store.ReadAll(dir, schema.Annotations)
	if err != nil {
		t.Fatal(err)
	}
	// Per instance: 3 nodes, 3 edges, 3 statuses, 2 harmful.
	if len(rows) != 11*len(raw) {
		t.Fatalf("%d rows for %d instances", len(rows), len(raw))
	}
	start, block := int32(strings.Index(traceText, "x = 1")), int32(0)
	type located struct{ StartChar, BlockID *int32 }
	for _, r := range rows {
		if r.Layer != "status" || r.Item != "n1" {
			continue
		}
		if diff := cmp.Diff(located{&start, &block}, located{r.StartChar, r.BlockID}); diff != "" {
			t.Fatalf("n1's span of %s not located (-want +got):\n%s", r.TraceID, diff)
		}
	}
	// The loop quotes n2's paragraph; the degenerate step, judged by its
	// evidence, quotes text of no event (n3 is MISSING).
	matched := map[string]string{"Then y = 2 follows.": "n2", "the answer is 3": ""}
	for _, r := range rows {
		if want, ok := matched[r.Item]; r.Layer == "harmful" && (!ok || r.MatchedNode != want) {
			t.Fatalf("the confirmed candidate %q is matched to %q, want %q", r.Item, r.MatchedNode, want)
		}
	}
}

// checkInputError checks that an import failed on a bad record at line and
// field, and returns the error.
func checkInputError(t *testing.T, name string, err error, line int, field string) error {
	t.Helper()
	var ie *inputerr.Error
	if !errors.As(err, &ie) || !errors.Is(err, imports.ErrBadRecord) {
		t.Fatalf("%s: got %v, want ErrBadRecord at a line", name, err)
	}
	type place struct {
		Line  int
		Field string
	}
	if diff := cmp.Diff(place{line, field}, place{ie.Line, ie.Field}); diff != "" {
		t.Fatalf("%s: %v (-want +got):\n%s", name, err, diff)
	}
	return err
}
