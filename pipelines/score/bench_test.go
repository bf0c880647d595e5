package score

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
)

// benchRun writes the run of scaleWorld.
func benchRun(b *testing.B, pairs, events int) string {
	b.Helper()
	dir := b.TempDir()
	scaleWorld(rand.New(rand.NewPCG(1, 2)), pairs, events).write(b, dir)
	return dir
}

// scaleWorld is pairs (trace, DAG) alignments by one aligner: five DAGs
// of six nodes and about eight edges per problem, one trace per problem
// and events (10 in BenchmarkScore) and one harmful action per pair.
func scaleWorld(rng *rand.Rand, pairs, events int) world {
	const dagsPerProblem, nodesPerDAG = 5, 6
	problems := pairs / dagsPerProblem
	var w world
	statuses := []string{"COMMIT", "COMMIT", "COMMIT", "ATTEMPT", "ERROR"}
	for p := range problems {
		problem := fmt.Sprintf("high-%d", p)
		trace := fmt.Sprintf("t%06d", p)
		w.traces = append(w.traces, schema.Trace{TraceID: trace, ProblemID: problem, TextHash: "h"})
		for r := range dagsPerProblem {
			dag := fmt.Sprintf("%s/r%d", problem, r)
			w.dags = append(w.dags, schema.DAG{DagID: dag, ProblemID: problem, RefIndex: int32(r), Valid: true})
			for i := range nodesPerDAG {
				w.nodes = append(w.nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", i+1), Position: int32(i)})
				for j := range i {
					if j == i-1 || rng.IntN(4) == 0 {
						w.edges = append(w.edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", j+1), ChildID: fmt.Sprintf("n%d", i+1)})
					}
				}
			}
			w.aligns = append(w.aligns, schema.Alignment{TraceID: trace, DagID: dag, Aligner: "llm", Status: "ok", TextHash: "h"})
			for seq := range events {
				start := rng.IntN(8000)
				w.events = append(w.events, schema.AlignmentEvent{TraceID: trace, DagID: dag, Aligner: "llm",
					NodeID: fmt.Sprintf("n%d", 1+rng.IntN(nodesPerDAG)), Seq: int32(seq), Status: statuses[rng.IntN(len(statuses))],
					EvidenceSpan: fmt.Sprintf("span %d", seq), StartChar: i32(start), EndChar: i32(start + 40), BlockID: i32(start / 500)})
			}
			w.actions = append(w.actions, schema.HarmfulAction{TraceID: trace, DagID: dag, Aligner: "llm",
				Category: "harmful_loop", EvidenceSpan: fmt.Sprintf("span %d", rng.IntN(20))})
		}
	}
	return w
}

// BenchmarkScore measures datg score (the SQL and writing the scores table)
// over 100,000 (trace, DAG) pairs with 10 events each; maxrss_MB is the
// process's peak resident memory (DuckDB's included) after the runs.
func BenchmarkScore(b *testing.B) {
	for _, pairs := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("pairs=%d", pairs), func(b *testing.B) {
			dir := benchRun(b, pairs, 10)
			b.ResetTimer()
			for b.Loop() {
				sum, err := Run(context.Background(), Config{Data: dir})
				if err != nil {
					b.Fatal(err)
				}
				if sum.Scored != pairs {
					b.Fatalf("scored %d of %d", sum.Scored, pairs)
				}
			}
			b.ReportMetric(float64(pairs)*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
			var ru syscall.Rusage
			if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss_MB")
			}
		})
	}
}

// designWorld is pairs (trace, DAG) alignments by one aligner as a real
// run has them: the paper's 375 problems with five DAGs each (7.5 nodes
// and about ten edges a DAG on average, as datg dags --builder symbolic
// makes them from worked references), whatever the run's size, and
// pairs/5 traces spread over the problems, each aligned to its problem's
// five DAGs, with events (six a pair in a real run) and two harmful
// actions per pair, and a reply of about a kilobyte (stg_alignment_lineage
// hashes it).
func designWorld(rng *rand.Rand, pairs, events int) world {
	const problems, dagsPerProblem = 375, 5
	var w world
	statuses := []string{"COMMIT", "COMMIT", "COMMIT", "ATTEMPT", "ERROR"}
	nodesOf := map[string]int{}
	for p := range problems {
		problem := fmt.Sprintf("high-%03d", p)
		for r := range dagsPerProblem {
			dag := fmt.Sprintf("%s/r%d", problem, r)
			w.dags = append(w.dags, schema.DAG{DagID: dag, ProblemID: problem, RefIndex: int32(r), Valid: true, ContentHash: "c " + dag})
			n := 5 + rng.IntN(6)
			nodesOf[dag] = n
			for i := range n {
				w.nodes = append(w.nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", i+1), Position: int32(i)})
				for j := range i {
					if j == i-1 || rng.IntN(6) == 0 {
						w.edges = append(w.edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", j+1), ChildID: fmt.Sprintf("n%d", i+1)})
					}
				}
			}
		}
	}
	reply := strings.Repeat(`{"node":"n1","status":"COMMIT","evidence":"so 72 - 57 = 15"},`, 16)
	for t := range pairs / dagsPerProblem {
		problem := fmt.Sprintf("high-%03d", t%problems)
		trace := fmt.Sprintf("t%07d", t)
		w.traces = append(w.traces, schema.Trace{TraceID: trace, ProblemID: problem, TextHash: "h"})
		for r := range dagsPerProblem {
			dag := fmt.Sprintf("%s/r%d", problem, r)
			w.aligns = append(w.aligns, schema.Alignment{TraceID: trace, DagID: dag, Aligner: "symbolic", Status: "ok",
				TextHash: "h", DagHash: "c " + dag, Raw: fmt.Sprintf(`{"trace":%q,"dag":%q,"events":[%s]}`, trace, dag, reply)})
			for seq := range events {
				start := rng.IntN(30000)
				w.events = append(w.events, schema.AlignmentEvent{TraceID: trace, DagID: dag, Aligner: "symbolic",
					NodeID: fmt.Sprintf("n%d", 1+rng.IntN(nodesOf[dag])), Seq: int32(seq), Status: statuses[rng.IntN(len(statuses))],
					EvidenceSpan: fmt.Sprintf("span %d", seq), StartChar: i32(start), EndChar: i32(start + 40), BlockID: i32(start / 500)})
			}
			for seq, cat := range []string{"harmful_loop", "contradictory"} {
				w.actions = append(w.actions, schema.HarmfulAction{TraceID: trace, DagID: dag, Aligner: "symbolic",
					Category: cat, Seq: int32(seq), EvidenceSpan: fmt.Sprintf("span %d", rng.IntN(20))})
			}
		}
	}
	return w
}

// BenchmarkScoreScale measures datg score on the paper's design (67,500
// pairs of trace and DAG) and ten times it (675,000), and its memory:
// peak_MB is the process's peak resident memory over the runs alone
// (DuckDB's included), which should stay flat from 1x to 10x.
// dags=per-problem is a real run's world (designWorld: 1,875 DAGs at any
// scale, six events a pair); dags=per-trace the worst case the benchmark
// measured first (scaleWorld: five DAGs of each trace's own, 675,000 at
// 10x, three events a pair).
func BenchmarkScoreScale(b *testing.B) {
	worlds := []struct {
		name  string
		write func(pairs int) world
	}{
		{"per-problem", func(pairs int) world { return designWorld(rand.New(rand.NewPCG(1, 2)), pairs, 6) }},
		{"per-trace", func(pairs int) world { return scaleWorld(rand.New(rand.NewPCG(1, 2)), pairs, 3) }},
	}
	for _, pairs := range []int{67_500, 675_000} {
		for _, world := range worlds {
			b.Run(fmt.Sprintf("pairs=%d/dags=%s", pairs, world.name), func(b *testing.B) {
				dir := b.TempDir()
				world.write(pairs).write(b, dir)
				reset := testenv.ResetPeakRSS()
				start := testenv.CPUTime()
				b.ResetTimer()
				for b.Loop() {
					sum, err := Run(context.Background(), Config{Data: dir})
					if err != nil {
						b.Fatal(err)
					}
					if sum.Scored != pairs {
						b.Fatalf("scored %d of %d", sum.Scored, pairs)
					}
				}
				b.ReportMetric((testenv.CPUTime()-start).Seconds()/float64(b.N), "cpu_s/op")
				testenv.ReportPeakRSS(b, reset)
			})
		}
	}
}
