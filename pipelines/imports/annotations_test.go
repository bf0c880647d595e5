package imports

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// tracesAndDAGs is a run with the import tests' traces and DAGs; it returns
// the run and the id of the low-3 trace.
func tracesAndDAGs(t *testing.T) (string, string) {
	t.Helper()
	dir := runDir(t)
	if _, err := Run(context.Background(), Config{Kind: "traces", In: write(t, good), Data: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, dagLines), Data: dir}); err != nil {
		t.Fatal(err)
	}
	traces, _ := store.ReadAll(dir, schema.Traces)
	for _, tr := range traces {
		if tr.ProblemID == "low-3" {
			return dir, tr.TraceID
		}
	}
	t.Fatal("no low-3 trace")
	return "", ""
}

func TestImportAnnotations(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	line := func(annotator string, car float64) string {
		return `{"annotator": "` + annotator + `", "trace_id": "` + id + `", "ref_index": 0, "nodes": {"n1": true, "n2": false}, "edges": {"n1>n2": true},
			"statuses": {"n1": "commit", "n2": "MISSING"}, "car": ` + strconv.FormatFloat(car, 'g', -1, 64) + `, "pmf": null, "harmful": {"a loop": true}}`
	}
	in := strings.ReplaceAll(line("A", 0.5), "\n", "") + "\n" + strings.ReplaceAll(line("B", 1), "\n", "") + "\n"
	sum, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, in), Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 2 {
		t.Fatalf("summary: Records %d, want 2", sum.Records)
	}
	rows, _ := store.ReadAll(dir, schema.Annotations)
	// Per annotator: 2 nodes, 1 edge, 2 statuses, car (pmf is null: absent), 1 harmful.
	if len(rows) != 14 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if r.DagID != "low-3/r0" {
			t.Fatalf("%s %s of %s: dag_id %q, want low-3/r0", r.Layer, r.Item, r.Annotator, r.DagID)
		}
		if r.Source == "" {
			t.Fatalf("%s %s of %s: no source", r.Layer, r.Item, r.Annotator)
		}
		if r.Layer == "status" && r.Item == "n1" && r.Label != "COMMIT" {
			t.Fatalf("status of n1 by %s not normalized: label %q, want COMMIT", r.Annotator, r.Label)
		}
	}
	// Re-importing annotator A's audit replaces all of A's rows for it.
	again := strings.ReplaceAll(`{"annotator": "A", "trace_id": "`+id+`", "ref_index": 0, "nodes": {"n1": true}}`, "\n", "") + "\n"
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, again), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ = store.ReadAll(dir, schema.Annotations)
	if len(rows) != 8 {
		t.Fatalf("%d rows after re-import, want B's 7 and A's 1", len(rows))
	}
}

// Every bad line is refused with the file, the line and the field, and
// nothing is written.
func TestImportAnnotationErrors(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	ok := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 0, "nodes": {"n1": true}}`
	cases := map[string]struct{ line, field string }{
		"no annotator":   {`{"trace_id": "` + id + `", "ref_index": 0, "nodes": {"n1": true}}`, "annotator"},
		"unknown trace":  {`{"annotator": "B", "trace_id": "nope", "ref_index": 0, "nodes": {"n1": true}}`, "trace_id"},
		"no such DAG":    {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 9, "nodes": {"n1": true}}`, "ref_index"},
		"invalid DAG":    {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 2, "nodes": {"n1": true}}`, "ref_index"},
		"unknown node":   {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0, "nodes": {"n9": true}}`, "nodes"},
		"unknown edge":   {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0, "edges": {"n2>n1": true}}`, "edges.n2>n1"},
		"bad status":     {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0, "statuses": {"n1": "PARTIAL"}}`, "statuses"},
		"car out of 0-1": {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0, "car": 1.5}`, "car"},
		"judges nothing": {`{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0}`, "nodes"},
	}
	for name, c := range cases {
		in := write(t, ok+"\n"+c.line+"\n")
		_, err := Run(context.Background(), Config{Kind: "annotations", In: in, Data: dir})
		checkBadRecord(t, name, err, 2, c.field)
	}
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, ok+"\n"+ok+"\n"), Data: dir}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("a repeated audit: %v", err)
	}
	if store.Exists(dir, schema.Annotations.Table) {
		t.Fatal("a refused import wrote the table")
	}
}

// checkBadRecord checks that err refuses a bad record at line and field.
func checkBadRecord(t *testing.T, name string, err error, line int, field string) {
	t.Helper()
	var ie *inputerr.Error
	if !errors.As(err, &ie) || !errors.Is(err, ErrBadRecord) {
		t.Errorf("%s: got %v, want ErrBadRecord at line %d, field %s", name, err, line, field)
		return
	}
	type place struct {
		Line  int
		Field string
	}
	if diff := cmp.Diff(place{line, field}, place{ie.Line, ie.Field}); diff != "" {
		t.Errorf("%s: %v (-want +got):\n%s", name, err, diff)
	}
}

// A status may carry the trace text that shows it: located as an aligner's
// span is (position, block), and a confirmed harmful action is matched to
// the event it overlaps. The context an annotator reads is accepted and not
// stored.
func TestImportAnnotationStatusSpans(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	in := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 0, "context": {"trace": "...", "dag": {"nodes": []}},` +
		` "statuses": {"n1": {"status": "commit", "evidence_span": "Kwanza"}, "n2": {"status": "MISSING", "evidence_span": null}},` +
		` "harmful": {"Kwanza": true, "boxed": false}}` + "\n"
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, in), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Annotations)
	if len(rows) != 4 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	want := int32(strings.Index("<think>\nKwanza\n</think> \\boxed{1}", "Kwanza"))
	for _, r := range rows {
		type status struct {
			Label, EvidenceSpan         string
			StartChar, EndChar, BlockID *int32
		}
		got := status{r.Label, r.EvidenceSpan, r.StartChar, r.EndChar, r.BlockID}
		switch {
		case r.Layer == "status" && r.Item == "n1":
			if diff := cmp.Diff(status{"COMMIT", "Kwanza", ptr(want), ptr(want + 6), ptr[int32](0)}, got); diff != "" {
				t.Errorf("n1 (-want +got):\n%s", diff)
			}
		case r.Layer == "status" && r.Item == "n2":
			if diff := cmp.Diff(status{Label: "MISSING"}, got, cmpopts.IgnoreFields(status{}, "EvidenceSpan", "EndChar", "BlockID")); diff != "" {
				t.Errorf("n2 (-want +got):\n%s", diff)
			}
		case r.Layer == "harmful" && r.Item == "Kwanza":
			type matched struct {
				MatchedNode string
				StartChar   *int32
			}
			if diff := cmp.Diff(matched{"n1", ptr(want)}, matched{r.MatchedNode, r.StartChar}); diff != "" {
				t.Errorf("the confirmed action quotes n1's event (-want +got):\n%s", diff)
			}
		case r.Layer == "harmful":
			if r.MatchedNode != "" {
				t.Errorf("an action not confirmed is matched to nothing: %+v", r)
			}
		}
	}
}

// A judgment written as null (as datg annotations sample leaves it) is not
// made yet: refused, naming the line and the key; so is a span that is not
// in the trace, or a MISSING node with evidence.
func TestImportAnnotationRefusesUnfilledJudgments(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	head := `{"annotator": "B", "trace_id": "` + id + `", "ref_index": 0, `
	ok := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 0, "nodes": {"n1": true}}`
	cases := map[string]struct{ line, field string }{
		"node":            {head + `"nodes": {"n1": true, "n2": null}}`, "nodes.n2"},
		"edge":            {head + `"edges": {"n1>n2": null}}`, "edges.n1>n2"},
		"status":          {head + `"statuses": {"n1": null}}`, "statuses.n1"},
		"status object":   {head + `"statuses": {"n1": {"status": null, "evidence_span": null}}}`, "statuses.n1"},
		"harmful":         {head + `"harmful": {"a loop": null}}`, "harmful.a loop"},
		"span not found":  {head + `"statuses": {"n1": {"status": "COMMIT", "evidence_span": "nowhere in it"}}}`, "statuses.n1.evidence_span"},
		"missing with it": {head + `"statuses": {"n2": {"status": "MISSING", "evidence_span": "Kwanza"}}}`, "statuses.n2.evidence_span"},
	}
	for name, c := range cases {
		_, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, ok+"\n"+c.line+"\n"), Data: dir})
		checkBadRecord(t, name, err, 2, c.field)
	}
	bad := head + `"statuses": {"n1": {"status": "COMMIT", "span": "Kwanza"}}}`
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, bad+"\n"), Data: dir}); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "span") {
		t.Errorf("an unknown key in a status: %v", err)
	}
	if store.Exists(dir, schema.Annotations.Table) {
		t.Fatal("a refused import wrote the table")
	}
}
