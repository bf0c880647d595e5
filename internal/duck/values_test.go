package duck

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
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

// A struct's fields keep their order at any depth, in lists too, as
// DuckDB's own to_json writes them (the reference each case is read
// against); Arrow's JSON of a struct, a Go map, sorted them. Table and CSV
// output write nested values as the same JSON.
func TestNestedJSONKeepsFieldOrder(t *testing.T) {
	db := open(t, t.TempDir())
	for _, e := range []string{
		"{'b': 1, 'a': 2}",
		"{'zeta': 'x', 'alpha': {'y': NULL, 'x': [3, 1, 2]}, 'mid': true}",
		"[{'d': 1, 'c': {'z': 'x', 'y': NULL}}, NULL, {'d': 2, 'c': NULL}]",
		"{'k': [1.5::DOUBLE, 2], 'j': 'ü<\"'}",
		"{'t': DATE '2024-01-02', 's': [[{'b': 0, 'a': -1}]]}",
	} {
		var out bytes.Buffer
		q := "SELECT " + e + " AS v, to_json(" + e + ")::VARCHAR AS ref"
		if err := WriteQuery(context.Background(), db, q, FormatJSON, &out); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		var row struct {
			V   json.RawMessage `json:"v"`
			Ref string          `json:"ref"`
		}
		if err := json.Unmarshal(out.Bytes(), &row); err != nil {
			t.Fatalf("%s: %q: %v", e, out.String(), err)
		}
		got, want := jsonTokens(t, string(row.V)), jsonTokens(t, row.Ref)
		if !slices.Equal(got, want) {
			t.Errorf("%s: JSON %s, DuckDB's to_json %s", e, row.V, row.Ref)
		}
		var table bytes.Buffer
		if err := WriteQuery(context.Background(), db, "SELECT "+e+" AS v", FormatCSV, &table); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		cells, err := csv.NewReader(&table).ReadAll()
		if err != nil || len(cells) != 2 || !slices.Equal(jsonTokens(t, cells[1][0]), want) {
			t.Errorf("%s: CSV %q (%v), want DuckDB's to_json %s", e, cells, err, row.Ref)
		}
	}
}

// jsonTokens is the token stream of a JSON text: keys in their order,
// numbers by value (2 and 2.0 alike).
func jsonTokens(t *testing.T, s string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	var out []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out = append(out, fmt.Sprintf("%T:%v", tok, tok))
	}
}

// Special values inside a list or struct print as they do at the top
// (inf, not Go's +Inf; infinity, not the year 5881580), as DuckDB's
// VARCHAR cast of the nested value writes them.
func TestNestedSpecialValues(t *testing.T) {
	db := open(t, t.TempDir())
	const list = "[1e400, -1e400, 'nan'::DOUBLE, 1]"
	q := "SELECT " + list + " AS l, ['infinity'::DATE] AS d, {'t': '-infinity'::TIMESTAMP} AS s"
	var js bytes.Buffer
	if err := WriteQuery(context.Background(), db, q, FormatJSON, &js); err != nil {
		t.Fatal(err)
	}
	if want := `{"l":["inf","-inf","nan",1],"d":["infinity"],"s":{"t":"-infinity"}}` + "\n"; js.String() != want {
		t.Errorf("JSON %q, want %q", js.String(), want)
	}
	var ref string
	if err := db.QueryRow("SELECT (" + list + ")::VARCHAR").Scan(&ref); err != nil {
		t.Fatal(err)
	}
	if ref != "[inf, -inf, nan, 1.0]" {
		t.Errorf("DuckDB writes the list %q; the reference changed", ref)
	}
}
