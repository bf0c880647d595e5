package sql_test

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/schema"
	datgsql "github.com/datg/datg/sql"
	_ "github.com/duckdb/duckdb-go/v2"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtureRun turns testdata/fixture/<table>.jsonl into a run directory of
// Parquet tables with the schema's column types.
func fixtureRun(t *testing.T) string {
	t.Helper()
	return fixtureRunWith(t, nil)
}

// fixtureRunWith is fixtureRun with more rows: extra[table] are JSON lines
// added to the fixture's rows of that table.
func fixtureRunWith(t *testing.T, extra map[string][]string) string {
	t.Helper()
	dir := t.TempDir()
	src := t.TempDir()
	files, _ := filepath.Glob(filepath.Join("testdata", "fixture", "*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		for _, line := range extra[name] {
			b = append(b, line+"\n"...)
		}
		if err := os.WriteFile(filepath.Join(src, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range extra {
		if _, err := os.Stat(filepath.Join(src, name+".jsonl")); err != nil {
			t.Fatalf("extra rows for %s, which the fixture does not have", name)
		}
	}
	// A plain DuckDB: datg's (duck.Open) reads the run and nothing else.
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	files, _ = filepath.Glob(filepath.Join(src, "*.jsonl"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		tbl, ok := schema.Lookup(name)
		if !ok {
			t.Fatalf("fixture %s is no table of the schema", f)
		}
		var cols []string
		for _, c := range tbl.Columns() {
			cols = append(cols, fmt.Sprintf("%s: '%s'", c.Name, c.Type))
		}
		// Columns a fixture leaves out hold what datg writes for "none":
		// NULL where the column may be NULL, the type's zero value else.
		var sel []string
		for _, c := range tbl.Columns() {
			if c.Nullable {
				sel = append(sel, c.Name)
			} else {
				sel = append(sel, fmt.Sprintf("coalesce(%s, %s) AS %s", c.Name, zeroOf(c.Type), c.Name))
			}
		}
		abs, _ := filepath.Abs(f)
		q := fmt.Sprintf("COPY (SELECT %s FROM read_json('%s', format = 'newline_delimited', columns = {%s})) TO '%s' (FORMAT parquet)",
			strings.Join(sel, ", "), abs, strings.Join(cols, ", "), filepath.Join(dir, name+".parquet"))
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("loading %s: %v", f, err)
		}
	}
	return dir
}

// zeroOf is the zero value of a DuckDB type as SQL.
func zeroOf(typ string) string {
	switch {
	case strings.HasSuffix(typ, "[]"):
		return "[]::" + typ
	case typ == "VARCHAR":
		return "''"
	case typ == "BOOLEAN":
		return "false"
	case typ == "TIMESTAMPTZ":
		return "'1970-01-01 00:00:00+00'::TIMESTAMPTZ"
	}
	return "0::" + typ
}

func TestTablesGolden(t *testing.T) {
	dir := fixtureRun(t)
	db, err := duck.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range datgsql.Tables() {
		t.Run(f.Name, func(t *testing.T) {
			var got bytes.Buffer
			if err := duck.WriteQuery(context.Background(), db, f.Text, duck.FormatCSV, &got); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", f.Name+".csv")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./sql -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", f.Name, golden, got.String(), want)
			}
		})
	}
}

// Reference values of the 95% Wilson interval, computed independently from
// the closed form (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
func TestWilson(t *testing.T) {
	db, err := duck.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cases := []struct {
		k, n     int
		lo, hi   float64
		nullBoth bool
	}{
		{5, 10, 0.236593, 0.763407, false},
		{0, 10, 0, 0.277533, false},
		{10, 10, 0.722467, 1, false},
		{0, 1, 0, 0.793451, false},
		{102, 125, 0.739011, 0.874146, false},
		{1, 125, 0.001414, 0.043925, false},
		{0, 0, 0, 0, true},
	}
	for _, c := range cases {
		var lo, hi *float64
		if err := db.QueryRow("SELECT wilson_low(?, ?), wilson_high(?, ?)", c.k, c.n, c.k, c.n).Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		if c.nullBoth {
			if lo != nil || hi != nil {
				t.Errorf("wilson(%d, %d) = %v, %v; want NULL", c.k, c.n, lo, hi)
			}
			continue
		}
		if lo == nil || hi == nil || math.Abs(*lo-c.lo) > 1e-6 || math.Abs(*hi-c.hi) > 1e-6 || *lo < 0 || *hi > 1 {
			t.Errorf("wilson(%d, %d) = %v, %v; want %.6f, %.6f", c.k, c.n, deref(lo), deref(hi), c.lo, c.hi)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestEveryFileHasAHeaderComment(t *testing.T) {
	for _, group := range [][]datgsql.File{datgsql.Macros(), datgsql.Staging(), datgsql.Tables()} {
		for _, f := range group {
			if !strings.HasPrefix(f.Text, "-- "+f.Name) && !strings.HasPrefix(f.Text, "-- ") {
				t.Errorf("%s.sql does not start with a header comment", f.Name)
			}
		}
	}
}

func TestEmptyRunHasTypedViews(t *testing.T) {
	db, err := duck.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tbl := range schema.All() {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM " + tbl.Name).Scan(&n); err != nil || n != 0 {
			t.Errorf("view %s: %d rows, %v", tbl.Name, n, err)
		}
	}
	if _, err := db.Exec("SELECT * FROM stg_graded_traces"); err != nil {
		t.Errorf("staging view over an empty run: %v", err)
	}
}

func TestStagingRunsAfterWhatItNames(t *testing.T) {
	seen := map[string]bool{}
	all := datgsql.Staging()
	for _, f := range all {
		for _, g := range all {
			if g.Name != f.Name && strings.Contains(f.Text, g.Name) && !seen[g.Name] {
				t.Errorf("%s runs before %s, which it names", f.Name, g.Name)
			}
		}
		seen[f.Name] = true
	}
}
