package tables

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	datgsql "github.com/datg/datg/sql"
)

// The probe tables read the probe's traces only, however many other
// seeds the run has: the probe's seed is a literal DuckDB pushes into the
// traces scan, so no join or aggregate above it holds another seed's
// traces (issue 23: with the seed read by a subquery, every base trace of
// every seed went through the joins, and the tables' memory grew with the
// run's seeds). Every scan of traces that reads seed returns at most the
// probe's traces, in every probe table's plan as run (EXPLAIN ANALYZE).
func TestProbeTablesScanOnlyTheProbe(t *testing.T) {
	ctx := context.Background()
	// Seeds 42 and three more: a quarter of the base traces are the probe's.
	var dir string
	for s := uint64(1); ; s++ {
		rng := rand.New(rand.NewPCG(s, 37))
		if dir = beforeWorld(t, rng); countRows(t, dir, "SELECT count(DISTINCT seed) FROM traces") == 4 {
			break
		}
	}
	probe := countRows(t, dir, "SELECT count(*) FROM traces WHERE seed = 42")
	others := countRows(t, dir, "SELECT count(*) FROM traces WHERE seed <> 42 AND method = 'base'")
	if probe == 0 || others < 2*probe {
		t.Fatalf("%d probe traces, %d others: the world tests little", probe, others)
	}
	db, err := openRun(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	scans := 0
	for _, f := range datgsql.Tables() {
		if entry, ok := registered(f.Name); !ok || entry.Reads != probeTraces {
			continue
		}
		root, err := testenv.ExplainAnalyze(ctx, db, f.Text)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		root.Walk(func(n testenv.Plan) {
			if !strings.Contains(n.Name, "READ_PARQUET") || !strings.Contains(fmt.Sprint(n.Extra["Projections"]), "seed") {
				return
			}
			scans++
			if n.Rows > probe {
				t.Errorf("%s: a scan of traces returns %d rows, more than the probe's %d traces (%v)", f.Name, n.Rows, probe, n.Extra["Filters"])
			}
		})
	}
	if scans < 5 {
		t.Fatalf("found %d scans of traces reading seed: the test reads the wrong plans", scans)
	}
}

// countRows is one count over a run.
func countRows(t *testing.T, dir, query string) int64 {
	t.Helper()
	db, err := openRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
