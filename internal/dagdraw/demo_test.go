package dagdraw_test

import (
	"testing"

	"github.com/datg/datg/internal/dagdraw"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// demoGraphs are the DAGs the demo builds (datg references and datg dags
// on the in-repo simulator, 3 references of 2 problems a level), as
// datg's pages draw them.
func demoGraphs(t *testing.T) map[string]dagdraw.Graph {
	t.Helper()
	data := pipelinetest.DemoRun(t)
	sim := pipelinetest.Simulator(t, data, simulate.ContentFaults{})
	pipelinetest.References(t, data, sim, 2, 3)
	pipelinetest.DAGs(t, data, sim)
	nodes, err := store.ReadAll(data, schema.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := store.ReadAll(data, schema.Edges)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]dagdraw.Graph{}
	for _, n := range nodes {
		g := out[n.DagID]
		g.Nodes = append(g.Nodes, dagdraw.Node{ID: n.NodeID, Label: n.Anchor, Title: n.Description, Status: "MISSING", Final: n.Final})
		out[n.DagID] = g
	}
	for _, e := range edges {
		g := out[e.DagID]
		g.Edges = append(g.Edges, dagdraw.Edge{From: e.ParentID, To: e.ChildID})
		out[e.DagID] = g
	}
	return out
}

// The demo's DAGs are drawn with edges around the boxes, arrowheads, and
// whole labels.
func TestDemoDAGs(t *testing.T) {
	graphs := demoGraphs(t)
	if len(graphs) < 10 {
		t.Fatalf("%d demo DAGs", len(graphs))
	}
	edges := 0
	for id, g := range graphs {
		checkDrawing(t, id, g)
		edges += len(g.Edges)
	}
	t.Logf("%d DAGs, %d edges", len(graphs), edges)
	if edges == 0 {
		t.Fatal("the demo DAGs have no edges")
	}
}
