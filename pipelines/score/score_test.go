package score

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// world is a randomized set of DAGs and alignments.
type world struct {
	traces  []schema.Trace
	dags    []schema.DAG
	nodes   []schema.Node
	edges   []schema.Edge
	aligns  []schema.Alignment
	events  []schema.AlignmentEvent
	actions []schema.HarmfulAction
}

func i32(v int) *int32 { x := int32(v); return &x }

func randomWorld(rng *rand.Rand, traces int) world {
	var w world
	statuses := []string{"COMMIT", "ATTEMPT", "ERROR"}
	for p := 0; p < traces/3+1; p++ {
		problem := fmt.Sprintf("low-%d", p)
		for r := 0; r < 1+rng.IntN(5); r++ {
			id := fmt.Sprintf("%s/r%d", problem, r)
			dag := schema.DAG{DagID: id, ProblemID: problem, RefIndex: int32(r), Valid: rng.IntN(10) > 0, ContentHash: "c " + id}
			n := 1 + rng.IntN(8)
			for i := 0; i < n; i++ {
				w.nodes = append(w.nodes, schema.Node{DagID: dag.DagID, NodeID: fmt.Sprintf("n%d", i+1), Position: int32(i)})
				for j := 0; j < i; j++ {
					if rng.IntN(3) == 0 {
						w.edges = append(w.edges, schema.Edge{DagID: dag.DagID, ParentID: fmt.Sprintf("n%d", j+1), ChildID: fmt.Sprintf("n%d", i+1)})
					}
				}
			}
			w.dags = append(w.dags, dag)
		}
	}
	for t := 0; t < traces; t++ {
		tr := schema.Trace{TraceID: fmt.Sprintf("t%03d", t), ProblemID: fmt.Sprintf("low-%d", t/3), TextHash: "h"}
		w.traces = append(w.traces, tr)
		for _, d := range w.dags {
			if d.ProblemID != tr.ProblemID {
				continue
			}
			for _, aligner := range []string{"llm", "symbolic"} {
				if rng.IntN(6) == 0 {
					continue // not aligned
				}
				a := schema.Alignment{TraceID: tr.TraceID, DagID: d.DagID, Aligner: aligner, Status: "ok", TextHash: "h", DagHash: d.ContentHash}
				switch rng.IntN(12) {
				case 0:
					a.Status = "invalid-json"
				case 1:
					a.TextHash = "stale"
				case 2:
					a.DagHash = "an older version of the DAG"
				}
				w.aligns = append(w.aligns, a)
				var spans []string
				nEvents := 0
				for _, nd := range w.nodes {
					if nd.DagID != d.DagID {
						continue
					}
					for seq := 0; seq < rng.IntN(4); seq++ {
						e := schema.AlignmentEvent{TraceID: tr.TraceID, DagID: d.DagID, Aligner: aligner, NodeID: nd.NodeID,
							Seq: int32(seq), Status: statuses[rng.IntN(3)], EvidenceSpan: fmt.Sprintf("span %d", rng.IntN(6))}
						if rng.IntN(5) > 0 {
							start := rng.IntN(400)
							e.StartChar, e.EndChar, e.BlockID = i32(start), i32(start+10), i32(start/100)
						}
						spans = append(spans, e.EvidenceSpan)
						w.events = append(w.events, e)
						nEvents++
					}
				}
				// Up to the paper's caps (2, 2, 1), matched to the events one
				// to one as datg align records it (transforms/datg tests the
				// matching; here it is data the SQL must use).
				first := len(w.actions)
				for _, cat := range []string{"contradictory", "harmful_loop", "degenerate"} {
					for seq := 0; seq < rng.IntN(datg.ActionCaps[cat]+1); seq++ {
						span := fmt.Sprintf("span %d", 3+rng.IntN(6))
						if len(spans) > 0 && rng.IntN(2) == 0 {
							span = spans[rng.IntN(len(spans))]
						}
						h := schema.HarmfulAction{TraceID: tr.TraceID, DagID: d.DagID, Aligner: aligner,
							Category: cat, Seq: int32(seq), EvidenceSpan: span}
						if rng.IntN(3) == 0 {
							start := rng.IntN(400)
							h.StartChar, h.EndChar = i32(start), i32(start+15)
						}
						w.actions = append(w.actions, h)
					}
				}
				matchWorld(w.events[len(w.events)-nEvents:], w.actions[first:])
			}
		}
	}
	return w
}

// matchWorld records the matching of an alignment's actions to its events.
func matchWorld(events []schema.AlignmentEvent, actions []schema.HarmfulAction) {
	span := func(text string, start, end *int32) datg.Span {
		if start == nil {
			return datg.Span{Text: text}
		}
		return datg.Span{Text: text, Start: int(*start), End: int(*end), Located: true}
	}
	var es, as []datg.Span
	for _, e := range events {
		es = append(es, span(e.EvidenceSpan, e.StartChar, e.EndChar))
	}
	for _, a := range actions {
		as = append(as, span(a.EvidenceSpan, a.StartChar, a.EndChar))
	}
	for i, j := range datg.MatchActions(es, as) {
		if j >= 0 {
			actions[i].MatchedNode, actions[i].MatchedSeq = events[j].NodeID, i32(int(events[j].Seq))
		}
	}
}

func (w world) write(t testing.TB, dir string) {
	t.Helper()
	for _, err := range []error{
		store.WriteAll(dir, schema.Traces, store.Meta{}, w.traces),
		store.WriteAll(dir, schema.DAGs, store.Meta{}, w.dags),
		store.WriteAll(dir, schema.Nodes, store.Meta{}, w.nodes),
		store.WriteAll(dir, schema.Edges, store.Meta{}, w.edges),
		store.WriteAll(dir, schema.Alignments, store.Meta{}, w.aligns),
		store.WriteAll(dir, schema.AlignmentEvents, store.Meta{}, w.events),
		store.WriteAll(dir, schema.HarmfulActions, store.Meta{}, w.actions),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// reference computes the scores from the contract's definitions, written
// independently of the SQL: plain loops over the rows.
func (w world) reference() map[string]schema.Score {
	valid := map[string]schema.DAG{}
	for _, d := range w.dags {
		if d.Valid {
			valid[d.DagID] = d
		}
	}
	out := map[string]schema.Score{}
	for _, a := range w.aligns {
		d, ok := valid[a.DagID]
		if !ok || a.Status != "ok" || a.TextHash != "h" || a.DagHash != d.ContentHash {
			continue
		}
		type state struct {
			status       string
			pos, block   int
			located, has bool
		}
		nodes := map[string]*state{}
		nNodes := 0
		for _, n := range w.nodes {
			if n.DagID == a.DagID {
				nodes[n.NodeID] = &state{status: "MISSING"}
				nNodes++
			}
		}
		rank := map[string]int{"MISSING": 0, "ATTEMPT": 1, "ERROR": 2, "COMMIT": 3}
		nEvents := 0
		for _, e := range w.events {
			if e.TraceID != a.TraceID || e.DagID != a.DagID || e.Aligner != a.Aligner {
				continue
			}
			nEvents++
			s := nodes[e.NodeID]
			if rank[e.Status] > rank[s.status] {
				s.status = e.Status
			}
			if e.Status == "COMMIT" && e.StartChar != nil && (!s.located || int(*e.StartChar) < s.pos) {
				s.located, s.pos, s.block = true, int(*e.StartChar), int(*e.BlockID)
			}
		}
		committed := 0
		for _, s := range nodes {
			if s.status == "COMMIT" {
				committed++
			}
		}
		edges, ordered := 0, 0
		for _, e := range w.edges {
			if e.DagID != a.DagID {
				continue
			}
			edges++
			p, c := nodes[e.ParentID], nodes[e.ChildID]
			if p.status == "COMMIT" && c.status == "COMMIT" && p.located && c.located && (p.pos <= c.pos || p.block == c.block) {
				ordered++
			}
		}
		harmful, unmatched := 0, 0
		for _, h := range w.actions {
			if h.TraceID == a.TraceID && h.DagID == a.DagID && h.Aligner == a.Aligner {
				harmful++
				if h.MatchedSeq == nil {
					unmatched++
				}
			}
		}
		s := schema.Score{TraceID: a.TraceID, DagID: a.DagID, Aligner: a.Aligner, RefIndex: d.RefIndex,
			CAR: float64(committed) / float64(nNodes), HAR: float64(harmful) / float64(max(1, nEvents+unmatched)),
			NodeCount: int32(nNodes), Committed: int32(committed), EdgeCount: int32(edges), Ordered: int32(ordered),
			Harmful: int32(harmful), Judgeable: int32(nEvents + unmatched)}
		if edges > 0 {
			v := float64(ordered) / float64(edges)
			s.PMF = &v
		}
		out[a.TraceID+"|"+a.DagID+"|"+a.Aligner] = s
	}
	// Best per (trace, aligner).
	groups := map[string][]string{}
	for k, s := range out {
		groups[s.TraceID+"|"+s.Aligner] = append(groups[s.TraceID+"|"+s.Aligner], k)
	}
	for _, keys := range groups {
		sort.Slice(keys, func(i, j int) bool {
			a, b := out[keys[i]], out[keys[j]]
			if a.CAR != b.CAR {
				return a.CAR > b.CAR
			}
			ap, bp := -1.0, -1.0
			if a.PMF != nil {
				ap = *a.PMF
			}
			if b.PMF != nil {
				bp = *b.PMF
			}
			if ap != bp {
				return ap > bp
			}
			if a.HAR != b.HAR {
				return a.HAR < b.HAR
			}
			if a.RefIndex != b.RefIndex {
				return a.RefIndex < b.RefIndex
			}
			return a.DagID < b.DagID
		})
		s := out[keys[0]]
		s.Best = true
		out[keys[0]] = s
	}
	return out
}

// The scores, and the summary's counts of what was not scored, are the
// contract's, in one part and in parts of a few alignments (each part
// counts its own stale alignments).
func TestScoresAgreeWithTheContract(t *testing.T) {
	defer func(n int) { partAlignments = n }(partAlignments)
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		w := randomWorld(rng, 30)
		dir := t.TempDir()
		w.write(t, dir)
		partAlignments = 50_000
		if seed%2 == 0 {
			partAlignments = 7
			if parts := countParts(t, dir); parts < 3 {
				t.Fatalf("seed %d: %d parts of 7 alignments: the test tests no parts", seed, parts)
			}
		}
		sum, err := Run(context.Background(), Config{Data: dir})
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.ReadAll(dir, schema.Scores)
		if err != nil {
			t.Fatal(err)
		}
		want := w.reference()
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d scores, want %d", seed, len(got), len(want))
		}
		// The reference does not know what the scores were computed from.
		lineage := cmpopts.IgnoreFields(schema.Score{}, "TextHash", "DagHash", "AlignmentHash")
		for _, g := range got {
			if g.HAR < 0 || g.HAR > 1 {
				t.Fatalf("seed %d: HAR %v outside [0, 1]: %+v", seed, g.HAR, g)
			}
			k := g.TraceID + "|" + g.DagID + "|" + g.Aligner
			if d := cmp.Diff(want[k], g, lineage); d != "" {
				t.Fatalf("seed %d %s: score differs from the contract's (-want +got):\n%s", seed, k, d)
			}
		}
		var staleText, staleDAG, unusable int
		hashOf := map[string]string{}
		for _, d := range w.dags {
			hashOf[d.DagID] = d.ContentHash
		}
		for _, a := range w.aligns {
			switch {
			case a.TextHash != "h":
				staleText++
			case a.DagHash != hashOf[a.DagID]:
				staleDAG++
			case a.Status != "ok":
				unusable++
			}
		}
		if staleText*staleDAG*unusable == 0 {
			t.Errorf("seed %d: %d stale texts, %d stale DAGs, %d unusable: the world should have each", seed, staleText, staleDAG, unusable)
		}
		best := 0
		for _, w := range want {
			if w.Best {
				best++
			}
		}
		wantSum := Summary{Scored: len(want), Traces: best, StaleText: staleText, StaleDAG: staleDAG, Unusable: unusable}
		if d := cmp.Diff(wantSum, sum); d != "" {
			t.Errorf("seed %d: summary (-want +got):\n%s", seed, d)
		}
	}
}
