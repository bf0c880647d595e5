package imports

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// arrowDAG is a valid DAG whose node ids hold ">": its edges a -> b>c and
// a>b -> c were both keyed "a>b>c" in the old edge keys.
const arrowDAG = `{"problem_id": "low-3", "ref_index": 3, "dag": {"final_node_id": "c", "nodes": [` +
	`{"node_id": "a", "anchor": "a = 1", "parents": []}, {"node_id": "b>c", "anchor": "b > c", "parents": ["a"]}, ` +
	`{"node_id": "a>b", "anchor": "a > b", "parents": ["b>c"]}, {"node_id": "c", "anchor": "c = 3", "parents": ["a>b"]}]}}`

// Edges are keyed parent>child with ">" and "\" inside an id written "\>"
// and "\\": two edges never share a key, each is judged on its own, and
// the table's item is that key.
func TestImportAnnotationEdgesWithArrowsInIDs(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, arrowDAG+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	head := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 3, `
	line := head + `"edges": {"a>b\\>c": true, "a\\>b>c": false, "b\\>c>a\\>b": true}}`
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, line+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, err := store.ReadAll(dir, schema.Annotations)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		got[r.Item] = r.Label
	}
	want := map[string]string{`a>b\>c`: "valid", `a\>b>c`: "invalid", `b\>c>a\>b`: "valid"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("edge judgments by item (-want +got):\n%s", diff)
	}
}

// An old key (ids written as they are) still reads when one edge of the
// DAG fits it, and is stored under the new key; one two edges fit is
// refused, saying how to write each.
func TestImportAnnotationOldEdgeKeys(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, arrowDAG+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	head := `{"annotator": "A", "trace_id": "` + id + `", "ref_index": 3, `
	_, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, head+`"edges": {"b>c>a>b": true, "a>b>c": true}}`+"\n"), Data: dir})
	checkBadRecord(t, "an ambiguous old key", err, 1, "edges.a>b>c")
	if err != nil {
		for _, want := range []string{"ambiguous", `"a>b\\>c"`, `"a\\>b>c"`} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error %q does not say %s", err, want)
			}
		}
	}
	if _, err := Run(context.Background(), Config{Kind: "annotations", In: write(t, head+`"edges": {"b>c>a>b": true}}`+"\n"), Data: dir}); err != nil {
		t.Fatal(err)
	}
	rows, _ := store.ReadAll(dir, schema.Annotations)
	if len(rows) != 1 || rows[0].Item != `b\>c>a\>b` {
		t.Fatalf("rows %+v, want the one edge under its key b\\>c>a\\>b", rows)
	}
}
