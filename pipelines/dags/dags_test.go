package dags_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/pipelines/references"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// withReferences is a demo run with 3 accepted references of the first 2
// problems of each level (18 in all).
func withReferences(t *testing.T) string {
	t.Helper()
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	if sum := pipelinetest.References(t, data, sim, 2, 3); sum.Accepted != 18 {
		t.Fatalf("references: %+v", sum)
	}
	return data
}

func llmConfig(data string, sim *pipelinetest.Sim) dags.Config {
	cfg := dags.DefaultConfig()
	cfg.Data, cfg.Target = data, pipelinetest.Target(pipelinetest.DAGModel, sim.URL)
	return cfg
}

// accepted is the run's accepted references by DAG id.
func accepted(t *testing.T, data string) map[string]schema.Reference {
	t.Helper()
	rows, err := store.ReadAll(data, schema.References)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]schema.Reference{}
	for _, r := range rows {
		if r.Accepted {
			out[dags.ID(r.ProblemID, int(r.RefIndex))] = r
		}
	}
	return out
}

// checkTables checks that dags, nodes and edges agree with each other and
// that there is one DAG per accepted reference, and returns the DAG rows by id.
func checkTables(t *testing.T, data, builder string) map[string]schema.DAG {
	t.Helper()
	refs := accepted(t, data)
	rows, err := store.ReadAll(data, schema.DAGs)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := store.ReadAll(data, schema.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := store.ReadAll(data, schema.Edges)
	if err != nil {
		t.Fatal(err)
	}
	byDAG := map[string]map[string]schema.Node{}
	for _, n := range nodes {
		if byDAG[n.DagID] == nil {
			byDAG[n.DagID] = map[string]schema.Node{}
		}
		byDAG[n.DagID][n.NodeID] = n
	}
	out := map[string]schema.DAG{}
	for _, d := range rows {
		out[d.DagID] = d
	}
	edgeCount := map[string]int{}
	for _, e := range edges {
		edgeCount[e.DagID]++
		p, okp := byDAG[e.DagID][e.ParentID]
		c, okc := byDAG[e.DagID][e.ChildID]
		if !okp || !okc {
			t.Fatalf("edge %+v joins nodes its DAG does not have", e)
		}
		if out[e.DagID].Valid && p.Position >= c.Position {
			t.Fatalf("edge %+v of a valid DAG: parent at %d, child at %d", e, p.Position, c.Position)
		}
	}
	for _, d := range rows {
		ref, ok := refs[d.DagID]
		if !ok || d.ProblemID != ref.ProblemID || d.RefIndex != ref.RefIndex || d.DagID != fmt.Sprintf("%s/r%d", ref.ProblemID, ref.RefIndex) {
			t.Fatalf("DAG %s (problem %s, ref %d) is no accepted reference's", d.DagID, d.ProblemID, d.RefIndex)
		}
		if d.Builder != builder || d.Valid != (d.Reason == "") || (d.Valid && d.FinalNodeID == "") {
			t.Fatalf("DAG row %+v", d)
		}
		if builder != datg.SymbolicBuilder && (d.PromptTokens <= 0 || d.CompletionTokens <= 0) {
			t.Fatalf("DAG %s without token counts: %+v", d.DagID, d)
		}
		ns := byDAG[d.DagID]
		if int(d.Nodes) != len(ns) || int(d.EdgeCount) != edgeCount[d.DagID] {
			t.Fatalf("DAG %s says %d nodes and %d edges; the tables hold %d and %d", d.DagID, d.Nodes, d.EdgeCount, len(ns), edgeCount[d.DagID])
		}
		var finals []string
		positions := make([]bool, len(ns))
		for _, n := range ns {
			if n.Final {
				finals = append(finals, n.NodeID)
			}
			if n.Position < 0 || int(n.Position) >= len(ns) || positions[n.Position] {
				t.Fatalf("DAG %s: node %s at position %d", d.DagID, n.NodeID, n.Position)
			}
			positions[n.Position] = true
		}
		if d.Valid && (len(finals) != 1 || finals[0] != d.FinalNodeID) {
			t.Fatalf("DAG %s: final node %s, nodes flagged final %v", d.DagID, d.FinalNodeID, finals)
		}
	}
	if len(out) != len(refs) {
		t.Fatalf("%d DAGs for %d accepted references", len(out), len(refs))
	}
	for id := range byDAG {
		if _, ok := out[id]; !ok {
			t.Fatalf("nodes of DAG %s, which is not in dags", id)
		}
	}

	// Load gives back each valid DAG as its raw JSON stated it.
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for id, d := range out {
		if !d.Valid {
			continue
		}
		want, err := datg.ParseDAG(d.Raw)
		if err != nil {
			t.Fatalf("valid DAG %s: raw does not parse: %v", id, err)
		}
		for i := range want.Nodes {
			if want.Nodes[i].Parents == nil {
				want.Nodes[i].Parents = []string{}
			}
		}
		if got := stored[id].DAG; !reflect.DeepEqual(got, want) || got.Validate() != nil {
			t.Fatalf("DAG %s loads as\n%+v\nbut its raw JSON is\n%+v", id, got, want)
		}
	}
	for problem, list := range dags.ByProblem(stored) {
		for i, s := range list {
			if !s.Row.Valid || s.Row.ProblemID != problem || (i > 0 && list[i-1].Row.RefIndex >= s.Row.RefIndex) {
				t.Fatalf("ByProblem(%s)[%d] = %+v", problem, i, s.Row)
			}
		}
	}
	return out
}

// The LLM builder reads fenced replies as they are, asks once for a repair
// of a DAG with a cycle or of a reply cut off, and marks the DAG repaired;
// a rerun asks nothing.
func TestDAGsContentFaults(t *testing.T) {
	for _, tc := range []struct {
		name    string
		faults  simulate.ContentFaults
		fenced  bool // every stored reply is fenced
		repairs func(multiNode, all int) bool
	}{
		{"clean", simulate.ContentFaults{}, false, func(_, n int) bool { return n == 0 }},
		{"fenced", simulate.ContentFaults{Fenced: 1}, true, func(_, n int) bool { return n == 0 }},
		// A cycle needs two nodes; a repair is always a valid DAG.
		{"cycle", simulate.ContentFaults{Cycle: 1}, false, func(m, n int) bool { return n == m }},
		{"malformed", simulate.ContentFaults{Malformed: 1}, false, func(_, n int) bool { return n == 18 }},
		{"mixed", simulate.ContentFaults{Fenced: 0.3, Cycle: 0.3, Malformed: 0.2}, false, func(_, n int) bool { return n > 0 && n < 18 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := withReferences(t)
			sim := pipelinetest.Simulator(t, data, tc.faults)
			cfg := llmConfig(data, sim)
			sum, err := dags.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			rows := checkTables(t, data, pipelinetest.DAGModel)
			repaired, multiNode := 0, 0
			for _, d := range rows {
				if d.Repaired {
					repaired++
				}
				if d.Nodes > 1 {
					multiNode++
				}
				if !d.Valid {
					t.Fatalf("DAG %s is invalid: %s", d.DagID, d.Reason)
				}
				if tc.fenced && !strings.Contains(d.Raw, "```json") {
					t.Fatalf("DAG %s: reply is not fenced: %q", d.DagID, d.Raw)
				}
			}
			if sum.DAGs != 18 || sum.Valid != 18 || sum.Repaired != repaired || !tc.repairs(multiNode, repaired) {
				t.Fatalf("summary %+v, %d repaired in the table, %d DAGs of several nodes", sum, repaired, multiNode)
			}
			// One request per reference, and one more per repair. References
			// with the same derivation make the same requests: those are
			// paid once, unless they were in flight at the same time.
			refs := accepted(t, data)
			distinct, distinctRepairs := map[string]bool{}, map[string]bool{}
			for id, d := range rows {
				text := refs[id].Reasoning + "\x00" + refs[id].Response
				distinct[text] = true
				if d.Repaired {
					distinctRepairs[text] = true
				}
			}
			served, dup := pipelinetest.Served(sim.Server)
			if served-int64(dup) != int64(len(distinct)+len(distinctRepairs)) || served > int64(sum.DAGs+sum.Repaired) {
				t.Fatalf("%d requests (%d repeated) for %d DAGs (%d distinct) and %d repairs (%d distinct)",
					served, dup, sum.DAGs, len(distinct), sum.Repaired, len(distinctRepairs))
			}

			again, err := dags.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := pipelinetest.Served(sim.Server); after != served || again != sum {
				t.Fatalf("the rerun sent %d requests; summary %+v, first %+v", after-served, again, sum)
			}
			checkTables(t, data, pipelinetest.DAGModel)
		})
	}
}

// A DAG whose repair request fails is kept invalid, with its nodes and the
// reason, and the run goes on.
func TestDAGsFailedRepairKeepsInvalidDAG(t *testing.T) {
	data := withReferences(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{Cycle: 1})
	h := &pipelinetest.Rejecting{Next: sim.Server, Marker: "The DAG you returned is not valid", Message: "context length exceeded"}
	ts := httptest.NewServer(h)
	defer ts.Close()
	cfg := llmConfig(data, &pipelinetest.Sim{URL: ts.URL + "/v1"})
	sum, err := dags.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := checkTables(t, data, pipelinetest.DAGModel)
	invalid := 0
	for _, d := range rows {
		if d.Valid {
			if d.Nodes > 1 {
				t.Fatalf("DAG %s of %d nodes is valid although every first reply has a cycle", d.DagID, d.Nodes)
			}
			continue
		}
		invalid++
		if !strings.Contains(d.Reason, "comes later") || !strings.Contains(d.Reason, "the repair request failed") ||
			!strings.Contains(d.Reason, "context length exceeded") || d.Nodes < 2 {
			t.Fatalf("invalid DAG %s: %+v", d.DagID, d)
		}
	}
	// Every invalid DAG asked for a repair; identical repair requests (of
	// identical derivations) share one when in flight together (a refused
	// one is not journaled, so a later identical request is sent again).
	if invalid == 0 || sum.Valid != sum.DAGs-invalid || h.Distinct() > invalid {
		t.Fatalf("%d invalid DAGs, %d repairs refused (%d distinct), summary %+v", invalid, h.Count(), h.Distinct(), sum)
	}
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range dags.ByProblem(stored) {
		for _, s := range list {
			if !s.Row.Valid {
				t.Fatalf("ByProblem offers invalid DAG %s", s.Row.DagID)
			}
		}
	}
}

// A DAG rebuilt from a reply that cannot be read (whose repair fails too)
// has no nodes: the nodes and edges of the DAG it replaces are dropped.
func TestDAGsUnreadableRebuildDropsOldNodes(t *testing.T) {
	data := withReferences(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{Malformed: 1})
	cfg := llmConfig(data, sim)
	cfg.Symbolic = true
	if sum, err := dags.Run(context.Background(), cfg); err != nil || sum.Valid != 18 {
		t.Fatalf("symbolic DAGs: %+v %v", sum, err)
	}
	h := &pipelinetest.Rejecting{Next: sim.Server, Marker: "The DAG you returned is not valid", Message: "context length exceeded"}
	ts := httptest.NewServer(h)
	defer ts.Close()
	sum, err := dags.Run(context.Background(), llmConfig(data, &pipelinetest.Sim{URL: ts.URL + "/v1"}))
	if err != nil {
		t.Fatal(err)
	}
	if sum.DAGs != 18 || sum.Valid != 0 || h.Distinct() == 0 {
		t.Fatalf("summary %+v, %d repairs refused (%d distinct)", sum, h.Count(), h.Distinct())
	}
	for _, d := range checkTables(t, data, pipelinetest.DAGModel) {
		if d.Valid || d.Nodes != 0 || d.EdgeCount != 0 || !strings.Contains(d.Reason, datg.ErrNoJSON.Error()) ||
			!strings.Contains(d.Reason, "the repair request failed") {
			t.Fatalf("DAG %+v", d)
		}
	}
	for _, table := range []*schema.Table{schema.Nodes.Table, schema.Edges.Table} {
		if n, err := store.NumRows(data, table); err != nil || n != 0 {
			t.Fatalf("%s: %d rows left of the replaced DAGs (%v)", table.Name, n, err)
		}
	}
}

// The symbolic builder needs no server and replaces the DAGs it rebuilds
// whole (nodes and edges included), keeping the others.
func TestDAGsSymbolic(t *testing.T) {
	data := withReferences(t)
	// A DAG of low-0/r0 with more nodes than any rebuilt one, and a DAG of
	// a reference this run does not have.
	stale := datg.DAG{FinalNodeID: "n30"}
	for i := 1; i <= 30; i++ {
		n := datg.Node{NodeID: fmt.Sprintf("n%d", i), Anchor: fmt.Sprintf("x_%d = %d", i, i), Parents: []string{}}
		if i > 1 {
			n.Parents = []string{fmt.Sprintf("n%d", i-1)}
		}
		stale.Nodes = append(stale.Nodes, n)
	}
	w, err := dags.NewWriter(data, store.Meta{Stage: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []struct {
		problem string
		ref     int
	}{{"low-0", 0}, {"high-4", 7}} {
		row, nodes, edges, err := dags.Rows(id.problem, id.ref, datg.EncodeJSON(stale), "import:old.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(row, nodes, edges); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}

	// The target points at a live server, which must not be asked.
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := llmConfig(data, sim)
	cfg.Symbolic = true
	sum, err := dags.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if served, _ := pipelinetest.Served(sim.Server); served != 0 {
		t.Fatalf("the symbolic builder sent %d requests", served)
	}
	if sum.DAGs != 18 || sum.Valid != 18 || sum.Repaired != 0 {
		t.Fatalf("summary %+v", sum)
	}
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := stored["high-4/r7"]
	if !ok || kept.Row.Builder != "import:old.jsonl" || len(kept.DAG.Nodes) != 30 {
		t.Fatalf("a DAG the run did not build was not kept: %+v", kept)
	}
	rebuilt := stored["low-0/r0"]
	if rebuilt.Row.Builder != datg.SymbolicBuilder || len(rebuilt.DAG.Nodes) >= 30 || rebuilt.DAG.Validate() != nil {
		t.Fatalf("low-0/r0 was not rebuilt whole: %+v", rebuilt)
	}
	n, err := store.NumRows(data, schema.Nodes.Table)
	if err != nil {
		t.Fatal(err)
	}
	total := int64(30)
	for id, s := range stored {
		if id != "high-4/r7" {
			if s.Row.Builder != datg.SymbolicBuilder || !s.Row.Valid {
				t.Fatalf("DAG %s: %+v", id, s.Row)
			}
			total += int64(len(s.DAG.Nodes))
		}
	}
	if n != total {
		t.Fatalf("%d node rows, the DAGs hold %d: stale nodes were kept", n, total)
	}
}

func TestDAGsNeedReferences(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	cfg := llmConfig(data, sim)
	if _, err := dags.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "run datg references first") {
		t.Fatalf("no derivations: got %v", err)
	}

	// A model that never finds the answer leaves derivations but no
	// accepted reference.
	weak := pipelinetest.StartSim(t, "", pipelinetest.SimConfig(t))
	rc := references.DefaultConfig()
	rc.Data, rc.Target, rc.Limit, rc.Levels, rc.PerProblem, rc.MaxAttempts = data, pipelinetest.Target("weak", weak.URL), 1, []string{"low"}, 1, 2
	if _, err := references.Run(context.Background(), rc); err != nil {
		t.Fatal(err)
	}
	if _, err := dags.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "no accepted references") {
		t.Fatalf("no accepted reference: got %v", err)
	}
	if served, _ := pipelinetest.Served(sim.Server); served != 0 {
		t.Fatalf("%d requests sent without references", served)
	}
}

// References of two models are not mixed: the run asks which to use.
func TestDAGsReferenceModel(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	for _, m := range []string{"ref-a", "ref-b"} {
		rc := references.DefaultConfig()
		rc.Data, rc.Target, rc.Limit, rc.Levels, rc.PerProblem, rc.MaxAttempts = data, pipelinetest.Target(m, sim.URL), 1, []string{"low"}, 2, 8
		if _, err := references.Run(context.Background(), rc); err != nil {
			t.Fatal(err)
		}
	}
	cfg := llmConfig(data, sim)
	cfg.Symbolic = true
	_, err := dags.Run(context.Background(), cfg)
	if !errors.Is(err, inputerr.ErrInvalidConfig) || !slices.Equal(inputerr.FieldNames(err), []string{"ReferenceModel"}) {
		t.Fatalf("two reference models: got %v, want a configuration error naming ReferenceModel", err)
	}
	for _, model := range []string{"ref-a", "ref-b"} {
		if !strings.Contains(err.Error(), model) {
			t.Errorf("two reference models: %q does not list %s", err, model)
		}
	}
	cfg.ReferenceModel = "ref-b"
	sum, err := dags.Run(context.Background(), cfg)
	if err != nil || sum.DAGs != 2 {
		t.Fatalf("one reference model: %+v %v", sum, err)
	}
	derivs, _ := store.ReadAll(data, schema.References)
	stored, _ := dags.Load(data)
	for _, r := range derivs {
		if r.Model == "ref-b" && r.Accepted {
			d := stored[dags.ID(r.ProblemID, int(r.RefIndex))]
			want := datg.SymbolicDAGJSON(r.Response+"\n"+r.Response, r.Extracted)
			if d == nil || d.Row.Raw != want {
				t.Fatalf("DAG of ref-b's %s/r%d was not built from it", r.ProblemID, r.RefIndex)
			}
		}
	}
}

func TestDAGsValidate(t *testing.T) {
	cfg := dags.DefaultConfig()
	if err := cfg.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "no endpoint") {
		t.Fatalf("LLM builder without a target: %v", err)
	}
	cfg.Target = llm.Target{Endpoints: []string{"http://127.0.0.1:1/v1"}, Model: "m", API: llm.APIChat, Pool: llm.DefaultOptions()}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg.MaxTokens = 0
	if err := cfg.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !slices.Equal(inputerr.FieldNames(err), []string{"MaxTokens"}) {
		t.Fatalf("no tokens: %v, want a configuration error naming MaxTokens", err)
	}
	if _, err := dags.Run(context.Background(), cfg); !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("Run: %v", err)
	}
	cfg.MaxTokens = 3_000_000_000
	if err := cfg.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), "MaxTokens: out of range") {
		t.Fatalf("a budget past the cap: %v", err)
	}
	if err := (dags.Config{Symbolic: true}).Validate(); err != nil {
		t.Fatalf("the symbolic builder needs no target: %v", err)
	}
}

func TestRows(t *testing.T) {
	row, nodes, edges, err := dags.Rows("low-3", 2, "I could not build the DAG.", "m")
	if !errors.Is(err, datg.ErrNoJSON) || row.Valid || row.DagID != "low-3/r2" || row.Reason == "" || nodes != nil || edges != nil {
		t.Fatalf("no JSON: %+v %v %v %v", row, nodes, edges, err)
	}

	// Fenced, with a duplicated node and a duplicated parent: invalid, and
	// each node and edge kept once.
	raw := "Here it is:\n```json\n" + `{"final_node_id": "n3", "nodes": [
		{"node_id": "n1", "anchor": "a = 2", "description": "a", "parents": []},
		{"node_id": "n2", "anchor": "b = a + 1", "description": "b", "parents": ["n1", "n1"]},
		{"node_id": "n2", "anchor": "b = 3", "description": "again", "parents": []},
		{"node_id": "n3", "anchor": "c = 2b", "description": "c", "parents": ["n2"]}]}` + "\n```"
	row, nodes, edges, err = dags.Rows("low-3", 0, raw, "m")
	if !errors.Is(err, datg.ErrInvalidDAG) || row.Valid || !strings.Contains(row.Reason, "twice") || row.Raw != raw {
		t.Fatalf("duplicate node: %+v %v", row, err)
	}
	var ids []string
	for _, n := range nodes {
		ids = append(ids, fmt.Sprintf("%s@%d:%v", n.NodeID, n.Position, n.Final))
	}
	if !slices.Equal(ids, []string{"n1@0:false", "n2@1:false", "n3@3:true"}) || len(edges) != 2 || row.Nodes != 3 || row.EdgeCount != 2 {
		t.Fatalf("nodes %v, edges %+v, row %+v", ids, edges, row)
	}

	row, _, edges, err = dags.Rows("low-3", 1, `{"final_node_id": "n2", "nodes": [
		{"node_id": "n1", "anchor": "a = 2", "parents": []},
		{"node_id": "n2", "anchor": "b = a + 1", "parents": ["n1"]}]}`, "m")
	if err != nil || !row.Valid || row.Reason != "" || row.FinalNodeID != "n2" || len(edges) != 1 || edges[0] != (schema.Edge{DagID: "low-3/r1", ParentID: "n1", ChildID: "n2"}) {
		t.Fatalf("valid DAG: %+v %+v %v", row, edges, err)
	}
}

// A DAG beyond the size caps is invalid, with the reason, and keeps no node
// or edge rows: a reply of a million edges cannot fill the tables or the
// explain pages that draw it.
func TestRowsRefuseADAGBeyondTheCaps(t *testing.T) {
	var nodes []string
	for i := 1; i <= 201; i++ {
		parents := "[]"
		if i > 1 {
			parents = fmt.Sprintf(`["n%d"]`, i-1)
		}
		nodes = append(nodes, fmt.Sprintf(`{"node_id": "n%d", "anchor": "x%d = %d", "parents": %s}`, i, i, i, parents))
	}
	raw := `{"final_node_id": "n201", "nodes": [` + strings.Join(nodes, ", ") + `]}`
	row, ns, es, err := dags.Rows("low-3", 0, raw, "m")
	if err == nil || row.Valid || !strings.Contains(row.Reason, "201 nodes, more than 200") || ns != nil || es != nil || row.Nodes != 0 || row.Raw != raw {
		t.Fatalf("row %+v with %d nodes, %d edges, err %v", row, len(ns), len(es), err)
	}
}
