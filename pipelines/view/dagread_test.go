package view

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// dagRun is how writeDAGRun lays out a run's problems and DAGs.
type dagRun struct {
	problems int
	perGroup int  // rows a row group
	parts    int  // files of nodes and edges (a DAG's rows in each)
	shuffle  bool // rows out of id order
	absent   map[string]bool
	seed     uint64
}

// dagLabels are node labels: unicode, math, markup.
var dagLabels = []string{"x + 2y = 14", "$\\frac{a}{b} = \\sqrt{2}$", "数学 の 答え", "জবাব ১৮", "😀 ñandú", hostile, "Ω≈√", ""}

// writeDAGRun writes a run's problems, dags, nodes and edges read in place
// the way other writers may: small row groups, nodes and edges in several
// files (a DAG's nodes across groups and files), rows out of order,
// problem and DAG ids that are prefixes of others (low-1, low-10, low-1-é;
// r1, r10), DAGs of imported names, DAGs with no nodes, edges to nodes
// their DAG lacks, problems with no DAGs and DAGs of no problem. It
// returns the problem ids, and ids of none.
func writeDAGRun(t testing.TB, g dagRun) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(g.seed, 11))
	var (
		ids      []string
		problems []schema.Problem
		dags     []schema.DAG
		nodes    []schema.Node
		edges    []schema.Edge
	)
	for i := range g.problems {
		id := fmt.Sprintf("low-%d", i)
		switch i % 7 {
		case 3:
			id = fmt.Sprintf("low-%d-é", i-2) // low-1-é: low-1 is a prefix of it
		case 5:
			id = fmt.Sprintf("数-%d", i)
		}
		ids = append(ids, id)
		if i%9 != 4 { // a problem of DAGs but no questions
			for _, l := range []string{"sw", "en", "ja", "bn"}[:1+rng.IntN(4)] {
				problems = append(problems, schema.Problem{ProblemID: id, Level: "low", Lang: l, Question: "Q " + id + " " + dagLabels[rng.IntN(len(dagLabels))],
					Answer: "18"})
			}
		}
		if i%6 == 2 {
			continue // a problem with no DAGs
		}
		refs := rng.Perm(12)[:1+rng.IntN(6)] // r1 and r10 of one problem now and then
		for _, ref := range refs {
			dag := fmt.Sprintf("%s/r%d", id, ref)
			if rng.IntN(5) == 0 {
				dag = fmt.Sprintf("import:file-%d/%d", rng.IntN(3), ref) + id // an id that does not sort with its problem
			}
			valid := rng.IntN(6) > 0
			dags = append(dags, schema.DAG{DagID: dag, ProblemID: id, RefIndex: int32(ref), Valid: valid, Reason: map[bool]string{false: "cycle " + hostile}[valid]})
			if !valid && rng.IntN(2) == 0 {
				continue // an invalid DAG keeps no nodes
			}
			n := 1 + rng.IntN(15)
			for p := range n {
				nodes = append(nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", p+1), Position: int32(p), Anchor: dagLabels[rng.IntN(len(dagLabels))],
					Description: dagLabels[rng.IntN(len(dagLabels))], Final: p == n-1})
			}
			for c := 1; c < n; c++ {
				for range 1 + rng.IntN(2) {
					edges = append(edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", 1+rng.IntN(c)), ChildID: fmt.Sprintf("n%d", c+1)})
				}
			}
			if rng.IntN(4) == 0 {
				edges = append(edges, schema.Edge{DagID: dag, ParentID: "n1", ChildID: "n99"}) // a node the DAG lacks
			}
		}
	}
	// A DAG of no problem read, with nodes.
	dags = append(dags, schema.DAG{DagID: "orphan/r0", ProblemID: "orphan", Valid: true})
	nodes = append(nodes, schema.Node{DagID: "orphan/r0", NodeID: "n1", Anchor: "x"})
	if g.shuffle {
		for _, s := range []any{problems, dags, nodes, edges} {
			rng.Shuffle(reflect.ValueOf(s).Len(), reflect.Swapper(s))
		}
	}
	write := func(name string, f func()) {
		if !g.absent[name] {
			f()
		}
	}
	write("problems", func() { writeTable(t, dir, "problems", problems, g.perGroup, 1) })
	write("dags", func() { writeTable(t, dir, "dags", dags, g.perGroup, 1) })
	write("nodes", func() { writeTable(t, dir, "nodes", nodes, g.perGroup, g.parts) })
	write("edges", func() { writeTable(t, dir, "edges", edges, g.perGroup, g.parts) })
	return dir, append(ids, "nope", "", "low-", "low-1/r1", "orphan")
}

// readProblemBoth reads a problem's questions and DAGs by row group and
// through DuckDB's views (readQuestions, readDAGs: the batch's queries for
// one key).
func readProblemBoth(ctx context.Context, r *runDB, problem string) (got, want *traceRows, gotErr, wantErr error) {
	got, _ = readTraceRows(ctx, r, nil, nil)
	want, _ = readTraceRows(ctx, r, nil, nil)
	ks := keysOf([]string{problem})
	gotErr = errors.Join(got.groupQuestions(r.groups, problem), got.groupDAGs(r.groups, problem))
	wantErr = errors.Join(want.readQuestions(ctx, r, ks), want.readDAGs(ctx, r, ks))
	return got, want, gotErr, wantErr
}

// compareProblemReads checks each problem is read alike both ways; it
// returns how many had questions and DAGs with nodes and edges.
func compareProblemReads(t *testing.T, name string, r *runDB, problems []string) (full int) {
	t.Helper()
	ctx := context.Background()
	for _, p := range problems {
		got, want, gotErr, wantErr := readProblemBoth(ctx, r, p)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s: %q: by group: %v; through DuckDB: %v", name, p, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the questions and DAGs of %q by group:\n%+v\n%+v\nthrough DuckDB:\n%+v\n%+v", name, p, got.questions, got.dags, want.questions, want.dags)
		}
		ds := got.dags[p]
		if len(got.questions[p]) > 0 && slices.ContainsFunc(ds, func(d dagView) bool { return len(d.Nodes) > 1 && len(d.drawing.Edges) > 0 }) {
			full++
		}
	}
	return full
}

// TestDAGReadsAreDuckDBs: a problem's questions and DAGs read by row group
// (dagread.go) are DuckDB's views' (readQuestions' and readDAGs' queries:
// English last, DAGs by ref_index, nodes by position, edges by parent and
// child, edges of missing nodes not drawn, labels' math marked), over runs
// laid out as other writers may: row groups of a few rows, a DAG's nodes
// across groups and files, rows out of order, ids that are prefixes of
// others, unicode labels, problems with no DAGs or no questions, tables
// absent, ids of no problem.
func TestDAGReadsAreDuckDBs(t *testing.T) {
	t.Parallel()
	for _, g := range []dagRun{
		{problems: 40, perGroup: 3, parts: 1, seed: 1},
		{problems: 40, perGroup: 5, parts: 3, seed: 2},
		{problems: 60, perGroup: 7, parts: 2, shuffle: true, seed: 3},
		{problems: 30, perGroup: 5000, parts: 1, seed: 4},
		{problems: 20, perGroup: 4, parts: 2, seed: 5, absent: map[string]bool{"nodes": true, "problems": true}},
		{problems: 20, perGroup: 4, parts: 2, seed: 6, absent: map[string]bool{"edges": true}},
		{problems: 20, perGroup: 4, parts: 2, seed: 7, absent: map[string]bool{"dags": true}},
	} {
		name := fmt.Sprintf("%+v", g)
		dir, problems := writeDAGRun(t, g)
		r := openGroupRun(t, dir)
		full := compareProblemReads(t, name, r, problems)
		if len(g.absent) == 0 && full < 10 {
			t.Fatalf("%s: only %d problems have questions and DAGs with nodes and edges", name, full)
		}
	}
}

// TestDAGReadsFollowTheGeneration: after a commit rewrites the DAGs (a
// DAG gone, another's labels changed, a node added), a viewer of the old
// generation still reads the old DAGs and one of the new the new, each
// DuckDB's of its generation.
func TestDAGReadsFollowTheGeneration(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{{TraceID: "t0", Level: "low", ProblemID: "low-1", Method: "base", Text: "x", TextHash: "h"}}))
	must(store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{{ProblemID: "low-1", Lang: "en", Question: "Q?", Answer: "18"}}))
	stage := func(version int) {
		var dags []schema.DAG
		var nodes []schema.Node
		var edges []schema.Edge
		for ref := range 4 - version { // version 2 has a DAG fewer
			dag := fmt.Sprintf("low-1/r%d", ref)
			dags = append(dags, schema.DAG{DagID: dag, ProblemID: "low-1", RefIndex: int32(ref), Valid: true})
			for p := range 3 + version {
				nodes = append(nodes, schema.Node{DagID: dag, NodeID: fmt.Sprintf("n%d", p), Position: int32(p), Anchor: fmt.Sprintf("v%d %s", version, dag)})
				if p > 0 {
					edges = append(edges, schema.Edge{DagID: dag, ParentID: fmt.Sprintf("n%d", p-1), ChildID: fmt.Sprintf("n%d", p)})
				}
			}
		}
		must(store.WriteAll(dir, schema.DAGs, store.Meta{}, dags))
		must(store.WriteAll(dir, schema.Nodes, store.Meta{}, nodes))
		must(store.WriteAll(dir, schema.Edges, store.Meta{}, edges))
	}
	stage(1)
	ctx := context.Background()
	openViewer := func() *runDB {
		r, err := openRunDB(ctx, dir, t.TempDir())
		must(err)
		t.Cleanup(func() { r.close() })
		return r
	}
	old := openViewer()
	before, _, err, _ := readProblemBoth(ctx, old, "low-1")
	must(err)
	stage(2)
	cur := openViewer()
	if cur.db.Generation() == old.db.Generation() {
		t.Fatalf("no new generation: %d", cur.db.Generation())
	}
	compareProblemReads(t, "the old generation", old, []string{"low-1"})
	compareProblemReads(t, "the new generation", cur, []string{"low-1"})
	after, _, err, _ := readProblemBoth(ctx, cur, "low-1")
	must(err)
	again, _, err, _ := readProblemBoth(ctx, old, "low-1")
	must(err)
	if !reflect.DeepEqual(before, again) || len(before.dags["low-1"]) != 3 || len(after.dags["low-1"]) != 2 {
		t.Fatalf("the old generation read %d DAGs, then %d; the new one %d", len(before.dags["low-1"]), len(again.dags["low-1"]), len(after.dags["low-1"]))
	}
	if got := after.dags["low-1"][0].drawing.Nodes; len(got) != 5 || got[0].Label != "v2 low-1/r0" {
		t.Fatalf("the new generation's first DAG: %+v", got)
	}
}

// TestDAGReadsOfADamagedFile: nodes and edges files damaged after they were
// checked (pages overwritten, footers whole) give an error naming the
// file and the problem for the problems whose DAGs they hold, never a
// panic, never another DAG's nodes.
func TestDAGReadsOfADamagedFile(t *testing.T) {
	dir, problems := writeDAGRun(t, dagRun{problems: 30, perGroup: 6, parts: 1, seed: 9})
	r := openGroupRun(t, dir)
	ctx := context.Background()
	want := map[string]*traceRows{}
	for _, p := range problems {
		w, _, err, _ := readProblemBoth(ctx, r, p)
		if err != nil {
			t.Fatal(err)
		}
		want[p] = w
	}
	damagePages(t, dir, "nodes.parquet", "edges.parquet")
	damaged := openGroupRun(t, dir)
	failed := 0
	for _, p := range problems {
		got, _ := readTraceRows(ctx, damaged, nil, nil)
		err := got.groupDAGs(damaged.groups, p)
		if err != nil {
			failed++
			if !errors.Is(err, ErrUnreadableFile) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), fmt.Sprintf("%q", p)) {
				t.Fatalf("%q: %v", p, err)
			}
			continue
		}
		if !reflect.DeepEqual(got.dags[p], want[p].dags[p]) {
			t.Fatalf("%q read from the damaged files without an error: %+v", p, got.dags[p])
		}
	}
	if failed < len(problems)/2 {
		t.Fatalf("%d of %d problems' reads failed", failed, len(problems))
	}
}

// TestKeyFilterNeverMissesAKey: a row group's key filter holds every key
// it was built from (repeats included), and few others (a false
// candidate is read for nothing); a group of no keys holds none.
func TestKeyFilterNeverMissesAKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{1, 2, 7, 100, 5000} {
		var keys []string
		for i := range n {
			key := fmt.Sprintf("low-%d/r%d", rng.IntN(1000), i)
			keys = append(keys, key, key)
		}
		f := newKeyFilter(slices.Clone(keys))
		for _, key := range keys {
			if !f.mayHold([]byte(key)) {
				t.Fatalf("%d keys: the filter misses %q", n, key)
			}
		}
		false_ := 0
		for i := range 20000 {
			if f.mayHold([]byte(fmt.Sprintf("other-%d", i))) {
				false_++
			}
		}
		if rate := float64(false_) / 20000; rate > 0.03 {
			t.Errorf("%d keys: %.1f%% false candidates", n, 100*rate)
		}
	}
	if newKeyFilter(nil).mayHold([]byte("")) {
		t.Error("a group of no keys may hold one")
	}
}
