package duck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

func writeAnswers(t *testing.T, dir string, ids ...string) {
	t.Helper()
	var rows []schema.Answer
	for _, id := range ids {
		rows = append(rows, schema.Answer{TraceID: id, Correct: true})
	}
	if err := store.WriteAll(dir, schema.Answers, store.Meta{}, rows); err != nil {
		t.Fatal(err)
	}
}

func query(t *testing.T, db *DB, q string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := WriteQuery(context.Background(), db, q, FormatCSV, &out)
	return out.String(), err
}

// checkQuery checks that q reads want (as CSV).
func checkQuery(t *testing.T, name string, db *DB, q, want string) {
	t.Helper()
	got, err := query(t, db, q)
	if err != nil {
		t.Errorf("%s: %s: %v", name, q, err)
	} else if got != want {
		t.Errorf("%s reads %q, want %q", name, got, want)
	}
}

func open(t *testing.T, dir string) *DB {
	t.Helper()
	db, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// hashTree hashes every file under dir (following the run's links).
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		h.Write([]byte(p))
		h.Write(b)
		return nil
	})
	return string(h.Sum(nil))
}

// datg sql can read the run and nothing else, and can write nothing.
func TestSQLIsReadOnly(t *testing.T) {
	dir := t.TempDir()
	writeAnswers(t, dir, "t1", "t2")
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("password\n"), 0o600)
	run := store.FilePath(dir, schema.Answers.Table)
	before := hashTree(t, dir)
	db := open(t, dir)
	attacks := []string{
		"COPY (SELECT * FROM answers LIMIT 1) TO '" + run + "'",
		"COPY (SELECT * FROM answers LIMIT 1) TO '" + run + "' (USE_TMP_FILE false)",
		"COPY (SELECT 1 AS a) TO '" + filepath.Join(outside, "x.parquet") + "'",
		"SELECT 1; COPY (SELECT 1 AS a) TO '" + filepath.Join(outside, "y.csv") + "'",
		"EXPORT DATABASE '" + filepath.Join(outside, "export") + "'",
		"ATTACH '" + filepath.Join(outside, "z.duckdb") + "' AS z",
		"ATTACH '" + run + "' AS r",
		"SELECT * FROM read_text('" + secret + "')",
		"SELECT * FROM read_csv('" + secret + "')",
		"SELECT * FROM '" + secret + "'",
		"SELECT * FROM read_parquet('" + filepath.Join(outside, "*.parquet") + "')",
		"SELECT * FROM glob('" + outside + "/*')",
		"INSTALL httpfs",
		"INSTALL json FROM 'http://127.0.0.1:1/'",
		"LOAD httpfs",
		"SET enable_external_access = true",
		"SET lock_configuration = false",
		"RESET allowed_paths",
		"PRAGMA enable_profiling",
		"CREATE TABLE t AS SELECT 1",
		"CREATE OR REPLACE VIEW answers AS SELECT 1 AS trace_id",
		"DROP VIEW answers",
		"CALL pragma_version()",
	}
	for _, q := range attacks {
		if out, err := query(t, db, q); err == nil {
			t.Errorf("%s: ran (%q), want refused", q, out)
		}
	}
	checkQuery(t, "the run after the attacks", db, "SELECT trace_id FROM answers ORDER BY 1", "trace_id\nt1\nt2\n")
	if after := hashTree(t, dir); after != before {
		t.Error("the run's files changed")
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("files written outside the run: %v", entries)
	}
	// What analysts do still works.
	for _, q := range []string{
		"SELECT count(*) FROM answers",
		"WITH a AS (SELECT * FROM answers) SELECT trace_id FROM a",
		"FROM answers SELECT trace_id",
		"DESCRIBE answers",
		"SELECT 1; SELECT 2",
		"SELECT wilson_low(3, 10)",
	} {
		if _, err := query(t, db, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	if _, err := query(t, db, "COPY answers TO 'x.csv'"); !errors.Is(err, ErrNotAQuery) {
		t.Errorf("COPY: %v, want ErrNotAQuery", err)
	}
}

// A run directory whose name holds glob characters reads itself, not a
// directory the pattern would match.
func TestGlobCharactersInPathsAreLiteral(t *testing.T) {
	parent := t.TempDir()
	names := []string{"run1", "run[1]", "run*", "run?", "run{1}", `run\[1]`, `b\`, "it's"}
	for _, name := range names {
		writeAnswers(t, filepath.Join(parent, name), name)
	}
	for _, name := range names {
		db := open(t, filepath.Join(parent, name))
		checkQuery(t, name, db, "SELECT trace_id FROM answers", "trace_id\n"+name+"\n")
	}
}

// The views read the generation current when the database was opened.
func TestViewsReadOneGeneration(t *testing.T) {
	dir := t.TempDir()
	writeAnswers(t, dir, "old")
	db := open(t, dir)
	writeAnswers(t, dir, "new")
	writeAnswers(t, dir, "newer")
	writeAnswers(t, dir, "newest")
	checkQuery(t, "the pinned view", db, "SELECT trace_id FROM answers", "trace_id\nold\n")
	checkQuery(t, "a new database", open(t, dir), "SELECT trace_id FROM answers", "trace_id\nnewest\n")
}

// A table whose file lacks a declared column is refused, naming the file
// and the column, instead of reading as NULLs.
func TestWrongSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	type renamed struct {
		TraceID string `parquet:"trace_id"`
		Verdict bool   `parquet:"verdict"`
	}
	f, err := os.Create(filepath.Join(dir, "answers.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	parquet.Write(f, []renamed{{"t1", true}})
	f.Close()
	_, err = Open(context.Background(), dir)
	if !errors.Is(err, store.ErrSchemaMismatch) || !strings.Contains(err.Error(), "answers.parquet") || !strings.Contains(err.Error(), "column extracted") {
		t.Fatalf("got %v, want ErrSchemaMismatch naming answers.parquet and a column", err)
	}
}

// DuckDB may always read its temporary directory, by default .tmp in the
// working directory: a .tmp there, or a link named .tmp to /, must not let
// a query read files outside the run.
func TestSQLCannotReadThroughTmp(t *testing.T) {
	dir := t.TempDir()
	writeAnswers(t, dir, "t1")
	work := t.TempDir()
	os.MkdirAll(filepath.Join(work, ".tmp"), 0o755)
	os.WriteFile(filepath.Join(work, ".tmp", "secret"), []byte("SECRET\n"), 0o600)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET\n"), 0o600)
	os.Symlink(outside, filepath.Join(work, ".tmp", "out"))
	t.Chdir(work)
	db := open(t, dir)
	for _, q := range []string{
		"SELECT content FROM read_text('.tmp/secret')",
		"SELECT content FROM read_text('" + filepath.Join(work, ".tmp", "secret") + "')",
		"SELECT content FROM read_text('.tmp/out/secret')",
		"SELECT * FROM glob('.tmp/*')",
	} {
		if out, err := query(t, db, q); err == nil {
			t.Errorf("%s: read %q, want refused", q, out)
		}
	}
}
