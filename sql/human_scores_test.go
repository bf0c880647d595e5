package sql_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/google/go-cmp/cmp"
)

// humanRow is an annotations row as the tests read it.
type humanRow struct {
	TraceID     string   `json:"trace_id"`
	DagID       string   `json:"dag_id"`
	Annotator   string   `json:"annotator"`
	Layer       string   `json:"layer"`
	Item        string   `json:"item"`
	Label       string   `json:"label"`
	Value       *float64 `json:"value"`
	StartChar   *int32   `json:"start_char"`
	BlockID     *int32   `json:"block_id"`
	MatchedNode string   `json:"matched_node"`
}

type humanKey struct{ trace, dag, annotator string }

// humanScore is a human alignment's CAR, PMF and HAR as they enter the
// human evaluation (nil: none).
type humanScore struct{ car, pmf, har *float64 }

func ptr(v float64) *float64 { return &v }

// contractHumanScores computes each annotator's CAR, PMF and HAR from the
// node statuses by CONTRACT.md's definitions (a human alignment has at most
// one event per node: its status, unless MISSING), with the precedence the
// README states: scored values when the statuses cover every node of the
// DAG (PMF: and every COMMIT has a located span), typed-in car and pmf
// otherwise, no HAR then.
func contractHumanScores(rows []humanRow, nodes map[string][]string, edges map[string][][2]string) map[humanKey]humanScore {
	type alignment struct {
		status             map[string]humanRow
		harmful, unmatched int
		typedCAR, typedPMF *float64
		seen               bool
	}
	all := map[humanKey]*alignment{}
	for _, r := range rows {
		k := humanKey{r.TraceID, r.DagID, r.Annotator}
		a := all[k]
		if a == nil {
			a = &alignment{status: map[string]humanRow{}}
			all[k] = a
		}
		switch {
		case r.Layer == "status":
			a.status[r.Item] = r
		case r.Layer == "harmful" && r.Label == "harmful":
			a.harmful++
			if r.MatchedNode == "" {
				a.unmatched++
			}
		case r.Layer == "car":
			a.typedCAR = r.Value
		case r.Layer == "pmf":
			a.typedPMF = r.Value
		}
	}
	out := map[humanKey]humanScore{}
	for k, a := range all {
		ns := nodes[k.dag]
		complete := len(ns) > 0 && len(a.status) == len(ns)
		if !complete {
			out[k] = humanScore{car: a.typedCAR, pmf: a.typedPMF}
			continue
		}
		committed, events, located := 0, 0, true
		for _, n := range ns {
			st := a.status[n]
			if st.Label == "COMMIT" {
				committed++
				located = located && st.StartChar != nil
			}
			if st.Label != "MISSING" {
				events++
			}
		}
		s := humanScore{car: ptr(float64(committed) / float64(len(ns)))}
		s.har = ptr(float64(a.harmful) / math.Max(1, float64(events+a.unmatched)))
		if located {
			if es := edges[k.dag]; len(es) > 0 {
				ordered := 0
				for _, e := range es {
					p, c := a.status[e[0]], a.status[e[1]]
					if p.Label == "COMMIT" && c.Label == "COMMIT" && p.StartChar != nil && c.StartChar != nil &&
						(*p.StartChar <= *c.StartChar || *p.BlockID == *c.BlockID) {
						ordered++
					}
				}
				s.pmf = ptr(float64(ordered) / float64(len(es)))
			}
		} else {
			s.pmf = a.typedPMF
		}
		out[k] = s
	}
	return out
}

// meanOverAnnotators is an instance's human score: the mean of its
// annotators' values, each metric over the annotators who give one.
func meanOverAnnotators(per map[humanKey]humanScore) map[[2]string]humanScore {
	type acc struct{ sum, n [3]float64 }
	accs := map[[2]string]*acc{}
	for k, s := range per {
		p := [2]string{k.trace, k.dag}
		if accs[p] == nil {
			accs[p] = &acc{}
		}
		for i, v := range []*float64{s.car, s.pmf, s.har} {
			if v != nil {
				accs[p].sum[i] += *v
				accs[p].n[i]++
			}
		}
	}
	out := map[[2]string]humanScore{}
	for p, a := range accs {
		var m [3]*float64
		for i := range m {
			if a.n[i] > 0 {
				m[i] = ptr(a.sum[i] / a.n[i])
			}
		}
		out[p] = humanScore{m[0], m[1], m[2]}
	}
	return out
}

func fixtureHumanScores(t *testing.T) map[[2]string]humanScore {
	nodes, edges := map[string][]string{}, map[string][][2]string{}
	type node struct {
		DagID  string `json:"dag_id"`
		NodeID string `json:"node_id"`
	}
	type edge struct {
		DagID    string `json:"dag_id"`
		ParentID string `json:"parent_id"`
		ChildID  string `json:"child_id"`
	}
	for _, n := range fixtureRows[node](t, "nodes") {
		nodes[n.DagID] = append(nodes[n.DagID], n.NodeID)
	}
	for _, e := range fixtureRows[edge](t, "edges") {
		edges[e.DagID] = append(edges[e.DagID], [2]string{e.ParentID, e.ChildID})
	}
	return meanOverAnnotators(contractHumanScores(fixtureRows[humanRow](t, "annotations"), nodes, edges))

}

func sameScore(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || math.Abs(*a-*b) < 1e-12)
}

// checkHumanPairs compares stg_human_pairs' human columns with want.
func checkHumanPairs(t *testing.T, db *duck.DB, want map[[2]string]humanScore) {
	t.Helper()
	rows, err := db.Query("SELECT DISTINCT trace_id, dag_id, car_h, pmf_h, har_h FROM stg_human_pairs")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var trace, dag string
		var car, pmf, har sql.NullFloat64
		if err := rows.Scan(&trace, &dag, &car, &pmf, &har); err != nil {
			t.Fatal(err)
		}
		opt := func(v sql.NullFloat64) *float64 {
			if v.Valid {
				return &v.Float64
			}
			return nil
		}
		n++
		w, ok := want[[2]string{trace, dag}]
		if !ok {
			t.Errorf("%s %s: a row the contract does not score", trace, dag)
			continue
		}
		g := humanScore{opt(car), opt(pmf), opt(har)}
		if d := cmp.Diff(w, g, cmp.AllowUnexported(humanScore{}), cmp.Comparer(sameScore)); d != "" {
			t.Errorf("%s %s: car_h, pmf_h, har_h (-want +got):\n%s", trace, dag, d)
		}

	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d instances, want %d", n, len(want))
	}
}

// The fixture's human CAR, PMF and HAR, scored by the aligners' SQL from
// the statuses, equal the contract's definitions computed here (and the
// typed-in values where the statuses are incomplete: t008).
func TestHumanScoresFollowTheContract(t *testing.T) {
	db, err := duck.Open(context.Background(), fixtureRun(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := fixtureHumanScores(t)
	// Checked by hand too: t002's annotators score CAR 2/3 and 1/3 (typed
	// 0.9 and 0.7 lose), PMF 1 and 0, HAR 2/3 (one of two confirmed actions
	// matched to an event) and 1/3.
	byHand := humanScore{ptr(0.5), ptr(0.5), ptr(0.5)}
	if d := cmp.Diff(byHand, want[[2]string{"t002", "low-0/r0"}], cmp.AllowUnexported(humanScore{}), cmp.Comparer(sameScore)); d != "" {
		t.Fatalf("the Go computation of t002 (-by hand +computed):\n%s", d)
	}
	checkHumanPairs(t, db, want)
}

// Randomized worlds: DAGs, complete and incomplete human alignments, spans
// located or not, confirmed actions matched or not, typed-in scores or not.
func TestHumanScoresFollowTheContractInRandomWorlds(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewPCG(seed, 13))
		dir := t.TempDir()
		nodes, edges := map[string][]string{}, map[string][][2]string{}
		var nodeRows []schema.Node
		var edgeRows []schema.Edge
		var traces []schema.Trace
		var scores []schema.Score
		var anns []schema.Annotation
		var rows []humanRow
		statuses := []string{"COMMIT", "ATTEMPT", "ERROR", "MISSING"}
		for i := range 25 {
			trace, dag := fmt.Sprintf("t%02d", i), fmt.Sprintf("low-%d/r0", i)
			traces = append(traces, schema.Trace{TraceID: trace, Model: "m", InputLang: "en", ReasoningLang: "sw", Direction: "en-x",
				Level: "low", ProblemID: fmt.Sprintf("low-%d", i), Method: "base"})
			scores = append(scores, schema.Score{TraceID: trace, DagID: dag, Aligner: "llm", CAR: rng.Float64(), HAR: rng.Float64(), Best: true})
			n := 1 + rng.IntN(5)
			for j := range n {
				id := fmt.Sprintf("n%d", j+1)
				nodes[dag] = append(nodes[dag], id)
				nodeRows = append(nodeRows, schema.Node{DagID: dag, NodeID: id, Position: int32(j)})
				for p := range j {
					if rng.IntN(2) == 0 {
						e := [2]string{fmt.Sprintf("n%d", p+1), id}
						edges[dag] = append(edges[dag], e)
						edgeRows = append(edgeRows, schema.Edge{DagID: dag, ParentID: e[0], ChildID: e[1]})
					}
				}
			}
			for _, annotator := range []string{"A", "B"}[:1+rng.IntN(2)] {
				add := func(a schema.Annotation) {
					a.TraceID, a.DagID, a.Annotator = trace, dag, annotator
					anns = append(anns, a)
					rows = append(rows, humanRow{TraceID: trace, DagID: dag, Annotator: annotator, Layer: a.Layer, Item: a.Item,
						Label: a.Label, Value: a.Value, StartChar: a.StartChar, BlockID: a.BlockID, MatchedNode: a.MatchedNode})
				}
				add(schema.Annotation{Layer: "node", Item: "n1", Label: "valid"})
				for _, id := range nodes[dag] {
					if rng.IntN(8) == 0 {
						continue // left unjudged: the alignment is incomplete
					}
					a := schema.Annotation{Layer: "status", Item: id, Label: statuses[rng.IntN(4)]}
					if a.Label != "MISSING" && rng.IntN(6) > 0 {
						start, block := int32(rng.IntN(40)), int32(rng.IntN(3))
						end := start + 3
						a.StartChar, a.EndChar, a.BlockID, a.EvidenceSpan = &start, &end, &block, "span"
					}
					add(a)
				}
				for h := range rng.IntN(4) {
					a := schema.Annotation{Layer: "harmful", Item: fmt.Sprintf("h%d", h), Label: []string{"harmful", "not-harmful"}[rng.IntN(2)]}
					if a.Label == "harmful" && rng.IntN(2) == 0 {
						a.MatchedNode = nodes[dag][rng.IntN(len(nodes[dag]))]
					}
					add(a)
				}
				for _, layer := range []string{"car", "pmf"} {
					if rng.IntN(2) == 0 {
						add(schema.Annotation{Layer: layer, Value: ptr(rng.Float64())})
					}
				}
			}
		}
		for _, w := range []error{
			store.WriteAll(dir, schema.Traces, store.Meta{}, traces),
			store.WriteAll(dir, schema.Scores, store.Meta{}, scores),
			store.WriteAll(dir, schema.Nodes, store.Meta{}, nodeRows),
			store.WriteAll(dir, schema.Edges, store.Meta{}, edgeRows),
			store.WriteAll(dir, schema.Annotations, store.Meta{}, anns),
		} {
			if w != nil {
				t.Fatal(w)
			}
		}
		db, err := duck.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		per := contractHumanScores(rows, nodes, edges)
		scored, typed := 0, 0
		for _, s := range per {
			if s.har != nil {
				scored++
			} else {
				typed++
			}
		}
		if scored == 0 || typed == 0 {
			t.Fatalf("seed %d: %d complete and %d incomplete human alignments; the world should have both", seed, scored, typed)
		}
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			checkHumanPairs(t, db, meanOverAnnotators(per))
		})
		db.Close()
	}
}
