package dags_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
		if !okp {
			t.Fatalf("edge %s -> %s: DAG %s has no parent node %s", e.ParentID, e.ChildID, e.DagID, e.ParentID)
		}
		if !okc {
			t.Fatalf("edge %s -> %s: DAG %s has no child node %s", e.ParentID, e.ChildID, e.DagID, e.ChildID)
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
		if d.Builder != builder {
			t.Fatalf("DAG %s: builder %q, want %q", d.DagID, d.Builder, builder)
		}
		if d.Valid != (d.Reason == "") {
			t.Fatalf("DAG %s: valid %v with reason %q; want a reason exactly when invalid", d.DagID, d.Valid, d.Reason)
		}
		if d.Valid && d.FinalNodeID == "" {
			t.Fatalf("DAG %s: valid without a final node", d.DagID)
		}
		if builder != datg.SymbolicBuilder && (d.PromptTokens <= 0 || d.CompletionTokens <= 0) {
			t.Fatalf("DAG %s: prompt tokens %d, completion tokens %d; want both counted", d.DagID, d.PromptTokens, d.CompletionTokens)
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
		got := stored[id].DAG
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DAG %s as loaded differs from its raw JSON (-raw +loaded):\n%s", id, diff)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("DAG %s loads invalid: %v", id, err)
		}
	}
	for problem, list := range dags.ByProblem(stored) {
		for i, s := range list {
			if !s.Row.Valid {
				t.Fatalf("ByProblem(%s)[%d] = invalid DAG %s", problem, i, s.Row.DagID)
			}
			if s.Row.ProblemID != problem {
				t.Fatalf("ByProblem(%s)[%d] = DAG %s of problem %s", problem, i, s.Row.DagID, s.Row.ProblemID)
			}
			if i > 0 && list[i-1].Row.RefIndex >= s.Row.RefIndex {
				t.Fatalf("ByProblem(%s)[%d]: ref index %d after %d, want increasing", problem, i, s.Row.RefIndex, list[i-1].Row.RefIndex)
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
			want := dags.Summary{DAGs: 18, Valid: 18, Repaired: repaired}
			if diff := cmp.Diff(want, sum, cmpopts.IgnoreFields(dags.Summary{}, "Changed")); diff != "" {
				t.Fatalf("summary (-want +got; Repaired wanted as the table counts):\n%s", diff)
			}
			if !tc.repairs(multiNode, repaired) {
				t.Fatalf("%d DAGs repaired, %d of several nodes: not what %s faults make", repaired, multiNode, tc.name)
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
			if after, _ := pipelinetest.Served(sim.Server); after != served {
				t.Fatalf("the rerun sent %d requests, want 0", after-served)
			}
			if diff := cmp.Diff(sum, again); diff != "" {
				t.Fatalf("rerun summary (-first +rerun):\n%s", diff)
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
		for _, want := range []string{"comes later", "the repair request failed", "context length exceeded"} {
			if !strings.Contains(d.Reason, want) {
				t.Fatalf("invalid DAG %s: reason %q, want it to say %q", d.DagID, d.Reason, want)
			}
		}
		if d.Nodes < 2 {
			t.Fatalf("invalid DAG %s: %d nodes, want the cycle's 2 or more kept", d.DagID, d.Nodes)
		}
	}
	// Every invalid DAG asked for a repair; identical repair requests (of
	// identical derivations) share one when in flight together (a refused
	// one is not journaled, so a later identical request is sent again).
	if invalid == 0 {
		t.Fatal("no DAG is invalid although every repair was refused")
	}
	if got, want := sum.Valid, sum.DAGs-invalid; got != want {
		t.Fatalf("summary: Valid %d, want %d (%d DAGs, %d invalid in the table)", got, want, sum.DAGs, invalid)
	}
	if h.Distinct() > invalid {
		t.Fatalf("%d distinct repairs refused (%d in all) for %d invalid DAGs, want at most one each", h.Distinct(), h.Count(), invalid)
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
	if sum, err := dags.Run(context.Background(), cfg); err != nil {
		t.Fatalf("symbolic DAGs: %v", err)
	} else if sum.Valid != 18 {
		t.Fatalf("symbolic DAGs: Valid %d, want 18", sum.Valid)
	}
	h := &pipelinetest.Rejecting{Next: sim.Server, Marker: "The DAG you returned is not valid", Message: "context length exceeded"}
	ts := httptest.NewServer(h)
	defer ts.Close()
	sum, err := dags.Run(context.Background(), llmConfig(data, &pipelinetest.Sim{URL: ts.URL + "/v1"}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(dags.Summary{DAGs: 18, Valid: 0}, sum, cmpopts.IgnoreFields(dags.Summary{}, "Repaired", "Changed")); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	if h.Distinct() == 0 {
		t.Fatal("no repair was asked for")
	}
	type emptyDAG struct {
		Valid            bool
		Nodes, EdgeCount int32
	}
	for _, d := range checkTables(t, data, pipelinetest.DAGModel) {
		if diff := cmp.Diff(emptyDAG{}, emptyDAG{d.Valid, d.Nodes, d.EdgeCount}); diff != "" {
			t.Fatalf("DAG %s (-want +got):\n%s", d.DagID, diff)
		}
		for _, want := range []string{datg.ErrNoJSON.Error(), "the repair request failed"} {
			if !strings.Contains(d.Reason, want) {
				t.Fatalf("DAG %s: reason %q, want it to say %q", d.DagID, d.Reason, want)
			}
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
	if diff := cmp.Diff(dags.Summary{DAGs: 18, Valid: 18, Repaired: 0}, sum, cmpopts.IgnoreFields(dags.Summary{}, "Changed")); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	stored, err := dags.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := stored["high-4/r7"]
	if !ok {
		t.Fatal("high-4/r7, a DAG the run did not build, was not kept")
	}
	if got, want := kept.Row.Builder, "import:old.jsonl"; got != want {
		t.Fatalf("high-4/r7, a DAG the run did not build: builder %q, want %q", got, want)
	}
	if got, want := len(kept.DAG.Nodes), 30; got != want {
		t.Fatalf("high-4/r7, a DAG the run did not build: %d nodes, want %d", got, want)
	}
	rebuilt, ok := stored["low-0/r0"]
	if !ok {
		t.Fatal("low-0/r0 is missing")
	}
	if got, want := rebuilt.Row.Builder, datg.SymbolicBuilder; got != want {
		t.Fatalf("low-0/r0 was not rebuilt: builder %q, want %q", got, want)
	}
	if n := len(rebuilt.DAG.Nodes); n >= 30 {
		t.Fatalf("low-0/r0 was not rebuilt whole: %d nodes, want fewer than the 30 it had", n)
	}
	if err := rebuilt.DAG.Validate(); err != nil {
		t.Fatalf("low-0/r0 was rebuilt invalid: %v", err)
	}
	n, err := store.NumRows(data, schema.Nodes.Table)
	if err != nil {
		t.Fatal(err)
	}
	total := int64(30)
	for id, s := range stored {
		if id != "high-4/r7" {
			if s.Row.Builder != datg.SymbolicBuilder {
				t.Fatalf("DAG %s: builder %q, want %q", id, s.Row.Builder, datg.SymbolicBuilder)
			}
			if !s.Row.Valid {
				t.Fatalf("DAG %s is invalid: %s", id, s.Row.Reason)
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
	if err != nil {
		t.Fatalf("one reference model: %v", err)
	}
	if sum.DAGs != 2 {
		t.Fatalf("one reference model: DAGs %d, want 2", sum.DAGs)
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
	cfg.MaxTokens = -1
	if err := cfg.Validate(); !errors.Is(err, inputerr.ErrInvalidConfig) || !slices.Equal(inputerr.FieldNames(err), []string{"MaxTokens"}) {
		t.Fatalf("negative tokens: %v, want a configuration error naming MaxTokens", err)
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
	if !errors.Is(err, datg.ErrNoJSON) {
		t.Errorf("no JSON: err %v, want ErrNoJSON", err)
	}
	if got, want := row.DagID, "low-3/r2"; got != want {
		t.Errorf("no JSON: dag_id %q, want %q", got, want)
	}
	checkInvalid(t, "no JSON", row, "")
	if nodes != nil || edges != nil {
		t.Errorf("no JSON: nodes %+v, edges %+v; want none", nodes, edges)
	}

	// Fenced, with a duplicated node and a duplicated parent: invalid, and
	// each node and edge kept once.
	raw := "Here it is:\n```json\n" + `{"final_node_id": "n3", "nodes": [
		{"node_id": "n1", "anchor": "a = 2", "description": "a", "parents": []},
		{"node_id": "n2", "anchor": "b = a + 1", "description": "b", "parents": ["n1", "n1"]},
		{"node_id": "n2", "anchor": "b = 3", "description": "again", "parents": []},
		{"node_id": "n3", "anchor": "c = 2b", "description": "c", "parents": ["n2"]}]}` + "\n```"
	row, nodes, edges, err = dags.Rows("low-3", 0, raw, "m")
	if !errors.Is(err, datg.ErrInvalidDAG) {
		t.Errorf("duplicate node: err %v, want ErrInvalidDAG", err)
	}
	checkInvalid(t, "duplicate node", row, "twice")
	if row.Raw != raw {
		t.Errorf("duplicate node: raw %q, want the reply %q", row.Raw, raw)
	}
	type kept struct {
		Nodes              []string // id@position:final
		Edges              int
		RowNodes, RowEdges int32
	}
	got := kept{Edges: len(edges), RowNodes: row.Nodes, RowEdges: row.EdgeCount}
	for _, n := range nodes {
		got.Nodes = append(got.Nodes, fmt.Sprintf("%s@%d:%v", n.NodeID, n.Position, n.Final))
	}
	want := kept{Nodes: []string{"n1@0:false", "n2@1:false", "n3@3:true"}, Edges: 2, RowNodes: 3, RowEdges: 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("duplicate node: nodes and edges kept (-want +got):\n%s", diff)
	}

	row, _, edges, err = dags.Rows("low-3", 1, `{"final_node_id": "n2", "nodes": [
		{"node_id": "n1", "anchor": "a = 2", "parents": []},
		{"node_id": "n2", "anchor": "b = a + 1", "parents": ["n1"]}]}`, "m")
	if err != nil {
		t.Fatalf("valid DAG: %v", err)
	}
	type verdict struct {
		Valid               bool
		Reason, FinalNodeID string
	}
	if diff := cmp.Diff(verdict{Valid: true, FinalNodeID: "n2"}, verdict{row.Valid, row.Reason, row.FinalNodeID}); diff != "" {
		t.Errorf("valid DAG (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]schema.Edge{{DagID: "low-3/r1", ParentID: "n1", ChildID: "n2"}}, edges); diff != "" {
		t.Errorf("valid DAG: edges (-want +got):\n%s", diff)
	}
}

// checkInvalid checks that row is an invalid DAG whose reason says want
// (or anything, when want is empty).
func checkInvalid(t *testing.T, name string, row schema.DAG, want string) {
	t.Helper()
	if row.Valid {
		t.Errorf("%s: the DAG row is valid", name)
	}
	if row.Reason == "" || !strings.Contains(row.Reason, want) {
		t.Errorf("%s: reason %q, want one saying %q", name, row.Reason, want)
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
	if err == nil {
		t.Error("no error for a DAG of 201 nodes")
	}
	checkInvalid(t, "201 nodes", row, "201 nodes, more than 200")
	if ns != nil || es != nil || row.Nodes != 0 {
		t.Errorf("201 nodes: node rows %d (nil %v), edge rows %d (nil %v), n_nodes %d; want nil, nil and 0", len(ns), ns == nil, len(es), es == nil, row.Nodes)
	}
	if row.Raw != raw {
		t.Errorf("201 nodes: raw not kept as the reply gave it (%d bytes, want %d)", len(row.Raw), len(raw))
	}
}
