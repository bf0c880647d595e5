package score

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/google/go-cmp/cmp"
)

// scoresBefore is the scoring SQL before issue 23's rewrite (a window over
// every alignment): the reference the rewrite must match row for row.
//
//go:embed testdata/scores_before.sql
var scoresBefore string

// scoresByTheQueryBefore runs scoresBefore over the run in dir: the rows,
// in its order, that datg score wrote before the rewrite.
func scoresByTheQueryBefore(t testing.TB, dir string) []schema.Score {
	t.Helper()
	ctx := context.Background()
	db, err := openRun(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	view, query, ok := strings.Cut(scoresBefore, "LEFT JOIN harm_counts hc USING (human, trace_id, dag_id, aligner);")
	if !ok {
		t.Fatal("testdata/scores_before.sql: the view's end not found")
	}
	if _, err := db.ExecContext(ctx, view+"LEFT JOIN harm_counts hc USING (human, trace_id, dag_id, aligner)"); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []schema.Score
	for rows.Next() {
		s, err := scanScore(rows)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// oddWorld adds to a random world what a run may hold that the random one
// lacks: a valid DAG without nodes (its alignments get no score), edges
// naming nodes the DAG does not have, events of such nodes, and COMMIT
// events without a located span.
func oddWorld(rng *rand.Rand, traces int) world {
	w := randomWorld(rng, traces)
	w.dags = append(w.dags, schema.DAG{DagID: "low-0/empty", ProblemID: "low-0", RefIndex: 9, Valid: true, ContentHash: "c empty"})
	w.aligns = append(w.aligns, schema.Alignment{TraceID: "t000", DagID: "low-0/empty", Aligner: "llm", Status: "ok", TextHash: "h", DagHash: "c empty"})
	w.events = append(w.events, schema.AlignmentEvent{TraceID: "t000", DagID: "low-0/empty", Aligner: "llm", NodeID: "n1", Seq: 0, Status: "COMMIT"})
	for i, d := range w.dags {
		if i%4 != 0 || d.DagID == "low-0/empty" {
			continue
		}
		w.edges = append(w.edges,
			schema.Edge{DagID: d.DagID, ParentID: "n1", ChildID: "ghost"},
			schema.Edge{DagID: d.DagID, ParentID: "ghost", ChildID: "n1"})
	}
	for i, a := range w.aligns {
		if i%5 != 0 {
			continue
		}
		start := rng.IntN(400)
		w.events = append(w.events,
			schema.AlignmentEvent{TraceID: a.TraceID, DagID: a.DagID, Aligner: a.Aligner, NodeID: "ghost", Seq: 90, Status: "COMMIT",
				StartChar: i32(start), EndChar: i32(start + 5), BlockID: i32(start / 100)},
			schema.AlignmentEvent{TraceID: a.TraceID, DagID: a.DagID, Aligner: a.Aligner, NodeID: "n1", Seq: 91, Status: "COMMIT"})
	}
	return w
}

// datg score writes exactly the rows, in the order, one query over the
// whole run gave before issue 23 (which scores in parts): over random
// worlds, worlds with odd rows, and the benchmark's worlds (many traces,
// five DAGs each of their own, or of their problem), in one part and in
// parts of a few alignments.
func TestScoresMatchTheQueryBefore(t *testing.T) {
	type scored struct {
		world
		parts int // partAlignments
	}
	worlds := map[string]scored{
		"bench":  {scaleWorld(rand.New(rand.NewPCG(1, 2)), 5_000, 4), 2_000},
		"design": {designWorld(rand.New(rand.NewPCG(3, 4)), 5_000, 6), 1_500},
	}
	// A run in parts with no harmful actions, or no events either: an
	// input without rows has no part files, and is read from the run.
	bare := designWorld(rand.New(rand.NewPCG(3, 5)), 5_000, 6)
	bare.actions = nil
	worlds["design without harmful actions"] = scored{bare, 1_000}
	bare.events = nil
	worlds["design without events"] = scored{bare, 1_000}
	for seed := uint64(1); seed <= 8; seed++ {
		parts := 50_000 // one part
		if seed%2 == 0 {
			parts = int(seed) * 12
		}
		worlds[fmt.Sprintf("random %d", seed)] = scored{randomWorld(rand.New(rand.NewPCG(seed, 7)), 60), parts}
		worlds[fmt.Sprintf("odd %d", seed)] = scored{oddWorld(rand.New(rand.NewPCG(seed, 8)), 45), parts}
	}
	defer func(n int) { partAlignments = n }(partAlignments)
	// DuckDB reopened every 2 parts: the runs in parts are scored across
	// reopens too, from their first part on.
	defer func(n int) { reopenEvery = n }(reopenEvery)
	reopenEvery = 2
	for name, w := range worlds {
		partAlignments = w.parts
		t.Run(fmt.Sprintf("%s in parts of %d", name, partAlignments), func(t *testing.T) {
			dir := t.TempDir()
			w.write(t, dir)
			want := scoresByTheQueryBefore(t, dir)
			if len(want) == 0 {
				t.Fatal("the query before scored nothing: the world tests nothing")
			}
			if partAlignments < 50_000 {
				parts := countParts(t, dir)
				if parts < 2 {
					t.Fatalf("%d part: the test tests no parts", parts)
				}
			}
			if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
				t.Fatal(err)
			}
			got, err := store.ReadAll(dir, schema.Scores)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%d scores, the query before gave %d (-before +now):\n%s", len(got), len(want), d)
			}
		})
	}
}

// runConn is a connection to datg score's database over the run in dir,
// closed with the test.
func runConn(t *testing.T, dir string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	db, err := openRun(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// countParts is how many parts datg score cuts the run in dir into.
func countParts(t *testing.T, dir string) int {
	t.Helper()
	ctx := context.Background()
	conn := runConn(t, dir)
	parts, err := partsOf(ctx, conn, partAlignments)
	if err != nil {
		t.Fatal(err)
	}
	return len(parts)
}
