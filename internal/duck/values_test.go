package duck

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A query with an infinite constant passes the query check: DuckDB
// serializes 1e400 as the bare word Infinity, which is not JSON.
func TestInfiniteConstantPassesTheCheck(t *testing.T) {
	db := open(t, t.TempDir())
	for _, q := range []string{"SELECT 1e400 AS x", "SELECT -1e400 AS x", "SELECT 'nan'::DOUBLE AS x WHERE 1e400 > 0"} {
		if err := db.CheckQuery(context.Background(), q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	// And the check still refuses what it refused.
	if err := db.CheckQuery(context.Background(), "SELECT 1e400; COPY answers TO 'x.csv'"); err != ErrNotAQuery {
		t.Errorf("COPY after 1e400: %v, want ErrNotAQuery", err)
	}
}

// Infinite and NaN floats, and infinite dates and timestamps, print as
// DuckDB casts them to VARCHAR (the reference each case is checked
// against), in table and CSV output; in JSON as those strings.
func TestSpecialValuesPrintAsDuckDBWritesThem(t *testing.T) {
	db := open(t, t.TempDir())
	exprs := []string{
		"1e400", "-1e400", "'nan'::DOUBLE", "'inf'::FLOAT", "'-inf'::FLOAT", "'nan'::FLOAT",
		"'infinity'::TIMESTAMP", "'-infinity'::TIMESTAMP", "'infinity'::TIMESTAMPTZ", "'-infinity'::TIMESTAMPTZ",
		"'infinity'::DATE", "'-infinity'::DATE",
	}
	for _, e := range exprs {
		var want string
		if err := db.QueryRow("SELECT (" + e + ")::VARCHAR").Scan(&want); err != nil {
			t.Fatal(err)
		}
		q := "SELECT " + e + " AS v"
		checkQuery(t, e, db, q, "v\n"+want+"\n")
		var table, js bytes.Buffer
		if err := WriteQuery(context.Background(), db, q, FormatTable, &table); err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		if lines := strings.Split(table.String(), "\n"); len(lines) < 3 || strings.TrimSpace(lines[2]) != want {
			t.Errorf("%s: table %q, want %q", e, table.String(), want)
		}
		if err := WriteQuery(context.Background(), db, q, FormatJSON, &js); err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		var row map[string]any
		if err := json.Unmarshal(js.Bytes(), &row); err != nil || row["v"] != want {
			t.Errorf("%s: JSON %q (%v), want {\"v\": %q}", e, js.String(), err, want)
		}
	}
	// Finite values keep their text.
	checkQuery(t, "finite values", db,
		"SELECT 1.5::DOUBLE AS d, '2024-01-02 03:04:05'::TIMESTAMP AS ts, '2024-01-02'::DATE AS dt, NULL::DATE AS n",
		"d,ts,dt,n\n1.5,2024-01-02T03:04:05,2024-01-02,\n")
}

// JSON output keeps the columns in order, NULL as null, numbers as numbers.
func TestJSONRows(t *testing.T) {
	db := open(t, t.TempDir())
	var out bytes.Buffer
	q := "SELECT * FROM (VALUES (2, 'b<', 1.5::DOUBLE, NULL), (1, 'a\"', -0.25, true)) t(z, y, x, w)"
	if err := WriteQuery(context.Background(), db, q, FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"z":2,"y":"b\u003c","x":1.5,"w":null}` + "\n" + `{"z":1,"y":"a\"","x":-0.25,"w":true}` + "\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}
