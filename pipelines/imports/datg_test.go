package imports

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

const dagLines = `{"problem_id": "low-3", "ref_index": 0, "dag": {"final_node_id": "n2", "nodes": [{"node_id": "n1", "anchor": "16 - 3 - 4 = 9", "description": "left", "parents": []}, {"node_id": "n2", "anchor": "9 * 2 = 18", "description": "income", "parents": ["n1"]}]}}
{"problem_id": "low-3", "ref_index": 1, "dag": "Here you go:\n` + "```json" + `\n{\"final_node_id\": \"n1\", \"nodes\": [{\"node_id\": \"n1\", \"anchor\": \"x = 18\", \"description\": \"\", \"parents\": []}]}\n` + "```" + `"}
{"problem_id": "low-3", "ref_index": 2, "dag": {"final_node_id": "n2", "nodes": [{"node_id": "n1", "anchor": "a = 1", "parents": ["n2"]}, {"node_id": "n2", "anchor": "b = 2", "parents": ["n1"]}]}}
`

func TestImportDAGs(t *testing.T) {
	dir := runDir(t)
	sum, err := Run(context.Background(), Config{Kind: "dags", In: write(t, dagLines), Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Records: 3, Invalid: 1}, sum, cmpopts.IgnoreFields(Summary{}, "Replaced", "Changed")); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	ds, _ := store.ReadAll(dir, schema.DAGs)
	byID := map[string]schema.DAG{}
	for _, d := range ds {
		byID[d.DagID] = d
	}
	type dag struct {
		Valid            bool
		Nodes, EdgeCount int32
		FinalNodeID      string
	}
	r0 := byID["low-3/r0"]
	if diff := cmp.Diff(dag{true, 2, 1, "n2"}, dag{r0.Valid, r0.Nodes, r0.EdgeCount, r0.FinalNodeID}); diff != "" {
		t.Errorf("r0 (-want +got):\n%s", diff)
	}
	if d := byID["low-3/r1"]; !d.Valid || d.Nodes != 1 {
		t.Errorf("r1 (a string with a code fence): valid %v (%s), %d nodes; want valid, 1 node", d.Valid, d.Reason, d.Nodes)
	}
	if d := byID["low-3/r2"]; d.Valid || !strings.Contains(d.Reason, "comes later") {
		t.Errorf("r2 (a cycle): valid %v, reason %q; want invalid, the reason saying \"comes later\"", d.Valid, d.Reason)
	}
	edges, _ := store.ReadAll(dir, schema.Edges)
	if len(edges) != 3 { // r0's one edge and the cycle's two
		t.Errorf("%d edges", len(edges))
	}
	// Re-importing a DAG with fewer nodes leaves none of its old nodes.
	smaller := `{"problem_id": "low-3", "ref_index": 0, "dag": {"final_node_id": "n1", "nodes": [{"node_id": "n1", "anchor": "9 * 2 = 18", "parents": []}]}}` + "\n"
	if _, err := Run(context.Background(), Config{Kind: "dags", In: write(t, smaller), Data: dir}); err != nil {
		t.Fatal(err)
	}
	nodes, _ := store.ReadAll(dir, schema.Nodes)
	n := 0
	for _, x := range nodes {
		if x.DagID == "low-3/r0" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("r0 has %d nodes after re-import, want 1", n)
	}
}

func TestImportDAGErrors(t *testing.T) {
	base := strings.SplitN(dagLines, "\n", 2)[0]
	for _, c := range []struct{ name, line, want string }{
		{"unknown problem", strings.Replace(base, `"low-3"`, `"low-99"`, 1), "problem_id: invalid record: low-99 is not in the problems table"},
		{"no ref_index", strings.Replace(base, `"ref_index": 0, `, "", 1), "ref_index: invalid record: missing"},
		{"negative ref_index", strings.Replace(base, `"ref_index": 0`, `"ref_index": -1`, 1), "ref_index"},
		{"duplicate", base + "\n" + base, "also on line 1"},
		{"unknown field", strings.Replace(base, `"dag":`, `"dagg":`, 1), "unknown field"},
	} {
		dir := runDir(t)
		_, err := Run(context.Background(), Config{Kind: "dags", In: write(t, c.line+"\n"), Data: dir})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "traces.jsonl:") {
			t.Errorf("%s: got %v, want %q with a line", c.name, err, c.want)
		}
		if store.Exists(dir, schema.DAGs.Table) {
			t.Errorf("%s: a failed import wrote dags", c.name)
		}
	}
}

// chainDAG is a valid DAG of n nodes, each with up to k earlier parents,
// the last node final: n nodes and about n*k edges.
func chainDAG(n, k int) string {
	var nodes []string
	for i := 1; i <= n; i++ {
		var parents []string
		for p := max(1, i-k); p < i; p++ {
			parents = append(parents, fmt.Sprintf(`"n%d"`, p))
		}
		nodes = append(nodes, fmt.Sprintf(`{"node_id": "n%d", "anchor": "x%d = %d", "parents": [%s]}`, i, i, i, strings.Join(parents, ", ")))
	}
	return fmt.Sprintf(`{"final_node_id": "n%d", "nodes": [%s]}`, n, strings.Join(nodes, ", "))
}

// A DAG beyond the size caps is an import error naming its line, and
// nothing is written: kept as an invalid DAG it would still fill the nodes
// and edges tables and every page that draws it.
func TestImportDAGTooLarge(t *testing.T) {
	first := strings.SplitN(dagLines, "\n", 2)[0]
	for _, c := range []struct{ name, dag, want string }{
		{"edges", chainDAG(60, 30), "1335 edges, more than 1000"},
		{"nodes", chainDAG(201, 1), "201 nodes, more than 200"},
		{"nodes in a string", strconv.Quote(chainDAG(201, 1)), "201 nodes, more than 200"},
		{"anchor", strings.Replace(chainDAG(2, 1), "x1 = 1", strings.Repeat("x", 1001), 1), "an anchor of 1001 characters"},
		{"bytes", strconv.Quote(chainDAG(2, 1) + strings.Repeat(" ", datg.MaxDAGBytes)), "bytes, more than 1048576"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := runDir(t)
			line := `{"problem_id": "low-3", "ref_index": 1, "dag": ` + c.dag + "}"
			_, err := Run(context.Background(), Config{Kind: "dags", In: write(t, first+"\n"+line+"\n"), Data: dir})
			if !errors.Is(err, ErrBadRecord) || !errors.Is(err, datg.ErrDAGTooLarge) || !strings.Contains(err.Error(), c.want) ||
				!strings.Contains(err.Error(), "traces.jsonl:2") || !strings.HasPrefix(err.Error(), "dag: ") {
				t.Fatalf("got %v, want a too-large error on line 2 mentioning %q", err, c.want)
			}
			for _, tbl := range []*schema.Table{schema.DAGs.Table, schema.Nodes.Table, schema.Edges.Table} {
				if store.Exists(dir, tbl) {
					t.Fatalf("a failed import wrote %s", tbl.Name)
				}
			}
		})
	}
	// At the caps a DAG imports.
	dir := runDir(t)
	line := `{"problem_id": "low-3", "ref_index": 1, "dag": ` + chainDAG(datg.MaxNodes, 5) + "}"
	if sum, err := Run(context.Background(), Config{Kind: "dags", In: write(t, line+"\n"), Data: dir}); err != nil {
		t.Fatalf("a DAG at the caps: %v", err)
	} else if sum.Invalid != 0 {
		t.Fatalf("a DAG at the caps: Invalid %d, want 0", sum.Invalid)
	}
}

// A key given twice, in the record or in the DAG object it holds, is an
// error: encoding/json would keep the last one.
func TestImportDAGDuplicateKeys(t *testing.T) {
	base := strings.SplitN(dagLines, "\n", 2)[0]
	for _, line := range []string{
		strings.Replace(base, `"ref_index": 0`, `"ref_index": 0, "ref_index": 1`, 1),
		strings.Replace(base, `"anchor": "9 * 2 = 18"`, `"anchor": "9 * 2 = 18", "anchor": "9 * 2 = 20"`, 1),
	} {
		dir := runDir(t)
		_, err := Run(context.Background(), Config{Kind: "dags", In: write(t, line+"\n"), Data: dir})
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "duplicate key") || !strings.Contains(err.Error(), "traces.jsonl:1") {
			t.Fatalf("got %v", err)
		}
		if store.Exists(dir, schema.DAGs.Table) {
			t.Fatal("a failed import wrote dags")
		}
	}
}

func TestImportAlignments(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	lines := `{"trace_id": "` + id + `", "problem_id": "low-3", "ref_index": 0, "alignment": {"audit_results": {"n1": [{"status": "COMMIT", "evidence": "Kwanza", "evidence_span": "Kwanza"}], "n2": [{"status": "ERROR", "evidence": "x", "evidence_span": "not in the trace"}], "n7": [{"status": "COMMIT"}]}, "contradictory_steps": [{"evidence": "x", "evidence_span": "not in the trace"}], "harmful_loop_steps": [], "degenerate_steps": []}}
{"trace_id": "` + id + `", "problem_id": "low-3", "ref_index": 1, "alignment": "I could not align this."}
`
	sum, err := Run(context.Background(), Config{Kind: "alignments", In: write(t, lines), Data: dir, Aligner: "gpt"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Records: 2, Invalid: 1}, sum, cmpopts.IgnoreFields(Summary{}, "Replaced", "Changed")); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	events, _ := store.ReadAll(dir, schema.AlignmentEvents)
	type event struct {
		Aligner, Match string
		Located        bool
	}
	var got []event
	for _, e := range events {
		got = append(got, event{e.Aligner, e.Match, e.StartChar != nil})
	}
	if diff := cmp.Diff([]event{{"gpt", "exact", true}, {"gpt", "none", false}}, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	errs, _ := store.ReadAll(dir, schema.AlignmentErrors)
	kinds := []string{}
	for _, e := range errs {
		kinds = append(kinds, e.DagID+":"+e.Kind)
	}
	if strings.Join(kinds, ",") != "low-3/r0:unknown-node,low-3/r1:invalid-json" {
		t.Fatalf("errors %v", kinds)
	}
	actions, _ := store.ReadAll(dir, schema.HarmfulActions)
	var categories []string
	for _, a := range actions {
		categories = append(categories, a.Category)
	}
	if diff := cmp.Diff([]string{"contradictory"}, categories); diff != "" {
		t.Fatalf("harmful actions (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ line, want string }{
		{strings.Replace(strings.SplitN(lines, "\n", 2)[0], id, "nope", 1), "not in the traces table"},
		{strings.Replace(strings.SplitN(lines, "\n", 2)[0], `"ref_index": 0`, `"ref_index": 4`, 1), "no DAG low-3/r4"},
		{strings.Replace(strings.SplitN(lines, "\n", 2)[0], `"ref_index": 0`, `"ref_index": 2`, 1), "is invalid"},
	} {
		_, err := Run(context.Background(), Config{Kind: "alignments", In: write(t, c.line+"\n"), Data: dir})
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// An imported alignment whose evidence span a cap of the locator stops (a
// span over datg.MaxFuzzySpanChars that is not in the trace) is kept
// unlocated, counted in the summary, and recorded as locate-capped (issue
// 19).
func TestImportAlignmentsRecordCappedSpans(t *testing.T) {
	dir, id := tracesAndDAGs(t)
	long := strings.Repeat("a quotation the aligner made up ", 40)
	line := `{"trace_id": "` + id + `", "problem_id": "low-3", "ref_index": 0, "alignment": {"audit_results": {"n1": [{"status": "COMMIT", "evidence": "x", "evidence_span": "` + long + `"}]}}}`
	sum, err := Run(context.Background(), Config{Kind: "alignments", In: write(t, line+"\n"), Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 1 || sum.Capped != 1 {
		t.Fatalf("summary %+v, want 1 record with 1 capped span", sum)
	}
	errs, _ := store.ReadAll(dir, schema.AlignmentErrors)
	if len(errs) != 1 || errs[0].Kind != string(study.LocateCapped) || !strings.Contains(errs[0].Detail, "node n1 event 0") ||
		!strings.Contains(errs[0].Detail, datg.CutLongSpan) {
		t.Fatalf("alignment errors %+v", errs)
	}
	events, _ := store.ReadAll(dir, schema.AlignmentEvents)
	if len(events) != 1 || events[0].Match != datg.MatchNone || events[0].StartChar != nil {
		t.Fatalf("events %+v", events)
	}
}
