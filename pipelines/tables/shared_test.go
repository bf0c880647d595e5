package tables

import (
	"context"
	"fmt"
	"strings"
	"testing"

	datgsql "github.com/datg/datg/sql"
)

// datg tables computes stg_datg_intervals (a bootstrap of 13.5 million
// weighted rows at the paper's design) once for datg_main and datg_full,
// which computed it each: after the first query that names it, the view
// reads the rows kept then, the same rows, and a second query does not
// compute it again.
func TestSharedIntervalsAreComputedOnce(t *testing.T) {
	ctx := context.Background()
	dir := writeScoredRun(t)
	db, err := openRun(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := func() string {
		res, err := query(ctx, db.DB, "SELECT * FROM stg_datg_intervals ORDER BY ALL")
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res.Rows)
	}
	viewText := func() string {
		var sql string
		if err := db.QueryRowContext(ctx, "SELECT sql FROM duckdb_views() WHERE view_name = 'stg_datg_intervals'").Scan(&sql); err != nil {
			t.Fatal(err)
		}
		return sql
	}
	computed := rows()
	if computed == "[]" {
		t.Fatal("no intervals: the run tests nothing")
	}
	shared := newSharedInputs(db.DB)
	for _, name := range []string{"datg_main", "datg_full", "datg_main"} {
		f, _ := datgsql.Table(name)
		if !mentionsView(f.Text, "stg_datg_intervals") {
			t.Fatalf("%s does not read stg_datg_intervals", name)
		}
		if err := shared.prepare(ctx, f.Text); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v := viewText(); strings.Contains(v, "range(") || !strings.Contains(v, "datg_kept_stg_datg_intervals") {
			t.Fatalf("after %s, stg_datg_intervals is still computed: %s", name, v)
		}
	}
	if kept := rows(); kept != computed {
		t.Errorf("kept rows %s, computed %s", kept, computed)
	}
	if f, _ := datgsql.Table("compliance"); mentionsView(f.Text, "stg_datg_intervals") {
		t.Error("compliance names the intervals")
	}
}
