package score

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// Every query datg score runs over the run's traces reads one part of
// them: no scan of a table keyed by trace (traces, alignments, their
// events and harmful actions, or sortInputs' copies of them in trace
// order, made once before the parts) returns more rows than a part holds. The
// stale alignments were counted by one query over the whole run before
// the parts (issue 23): its join held every trace, and DuckDB kept about
// 120 MB after it at ten times the paper's design.
func TestScoreReadsAPartAtATime(t *testing.T) {
	if testing.Short() {
		t.Skip("explains every query of a run of 20 parts")
	}
	dir := t.TempDir()
	// 2,000 traces, 10,000 alignments and 20,000 events; parts of about
	// 500 alignments hold about 100 traces and 1,000 events.
	designWorld(rand.New(rand.NewPCG(7, 8)), 10_000, 2).write(t, dir)
	defer func(n int) { partAlignments = n }(partAlignments)
	partAlignments = 500
	bound := int64(3 * partAlignments) // a part's events and 50% to spare, below the run's traces
	queries, scans := 0, 0
	beforeQuery = func(ctx context.Context, conn *sql.Conn, query string) {
		queries++
		largest := largestTraceScan(t, ctx, conn, query, &scans)
		if largest > bound {
			t.Errorf("a scan returns %d rows of a table of traces, more than a part's %d: %.80q", largest, bound, query)
		}
	}
	defer func() { beforeQuery = nil }()
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Scored != 10_000 {
		t.Fatalf("scored %d of 10,000", sum.Scored)
	}
	if queries < 30 || scans < 100 {
		t.Fatalf("%d queries, %d scans of tables of traces: the test reads the wrong plans", queries, scans)
	}
}

// largestTraceScan runs query on conn under EXPLAIN ANALYZE and returns
// the most rows any scan of a table with a trace_id column returned (a
// Parquet file of the run, or a table sortInputs made), counting such
// scans in scans.
func largestTraceScan(t *testing.T, ctx context.Context, conn *sql.Conn, query string, scans *int) int64 {
	t.Helper()
	root, err := testenv.ExplainAnalyze(ctx, conn, query)
	if err != nil {
		t.Fatalf("%.80q: %v", query, err)
	}
	var largest int64
	root.Walk(func(n testenv.Plan) {
		scan := strings.Contains(n.Name, "READ_PARQUET") || strings.Contains(n.Name, "SEQ_SCAN")
		if !scan || !strings.Contains(fmt.Sprint(n.Extra["Projections"], n.Extra["Filters"]), "trace_id") {
			return
		}
		*scans++
		largest = max(largest, n.Rows)
	})
	return largest
}
