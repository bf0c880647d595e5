package tables

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// fixtureDir holds the SQL tests' hand-made tables (sql/testdata/README.md),
// which cover every paper table.
var fixtureDir = filepath.Join("..", "..", "sql", "testdata", "fixture")

// fixtureRun writes the SQL fixture as a run through the project's own
// writer, with every model name in rename replaced, and returns the run's
// directory.
func fixtureRun(t testing.TB, rename map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFixtureRun(t, dir, rename)
	return dir
}

func writeFixtureRun(t testing.TB, dir string, rename map[string]string) {
	t.Helper()
	loadFixture(t, dir, schema.Traces, rename)
	loadFixture(t, dir, schema.Answers, rename)
	gradeReferences(t, dir)
	loadFixture(t, dir, schema.Compliances, rename)
	checkEveryTrace(t, dir)
	loadFixture(t, dir, schema.Scores, rename)
	loadFixture(t, dir, schema.Trials, rename)
	loadFixture(t, dir, schema.Annotations, rename)
	loadFixture(t, dir, schema.HarmfulActions, rename)
}

// gradeReferences grades the fixture's reference traces (r001-r004), which
// the SQL fixture leaves ungraded, as datg verify grades every trace.
func gradeReferences(t testing.TB, dir string) {
	t.Helper()
	rewrite(t, dir, schema.Answers, func(answers []schema.Answer) []schema.Answer {
		for _, id := range []string{"r001", "r002", "r003", "r004"} {
			answers = append(answers, schema.Answer{TraceID: id, HasAnswer: true, Correct: true})
		}
		return answers
	})

}

// checkEveryTrace adds a compliance row (compliant) for each trace the
// fixture's compliance table leaves out, as datg langcheck checks every
// trace; the compliance table reads the base en-x ones only, which the fixture
// has.
func checkEveryTrace(t testing.TB, dir string) {
	t.Helper()
	checked := map[string]bool{}
	rows, err := store.ReadAll(dir, schema.Compliances)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		checked[r.TraceID] = true
	}
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range traces {
		if !checked[tr.TraceID] {
			if tr.Direction == "en-x" && tr.Method == "base" {
				t.Fatalf("fixture: en-x trace %s has no compliance row", tr.TraceID)
			}
			rows = append(rows, schema.Compliance{TraceID: tr.TraceID, Compliant: true})
		}
	}
	if err := store.WriteAll(dir, schema.Compliances, store.Meta{}, rows); err != nil {
		t.Fatal(err)
	}
}

// loadFixture reads fixture/<table>.jsonl into rows of T, matching JSON keys
// to the rows' parquet column names, and writes them to dir.
func loadFixture[T any](t testing.TB, dir string, def schema.Def[T], rename map[string]string) {
	t.Helper()
	path := filepath.Join(fixtureDir, def.Name+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]int{}
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("parquet"), ",")
		fields[name] = i
	}
	var rows []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		var row T
		v := reflect.ValueOf(&row).Elem()
		for key, raw := range obj {
			i, ok := fields[key]
			if !ok {
				t.Fatalf("%s:%d: no column %q in %s", path, line, key, def.Name)
			}
			if err := json.Unmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
				t.Fatalf("%s:%d: %s: %v", path, line, key, err)
			}
		}
		if i, ok := fields["model"]; ok {
			if to, ok := rename[v.Field(i).String()]; ok {
				v.Field(i).SetString(to)
			}
		}
		rows = append(rows, row)
	}
	if err := store.WriteAll(dir, def, store.Meta{}, rows); err != nil {
		t.Fatal(err)
	}
}
