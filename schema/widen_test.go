package schema_test

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// widened are the columns that were INT32 before token counts could pass
// 2^31 (3e9 tokens wrapped to -1,294,967,296).
var widened = map[string][]string{
	"traces":      {"completion_tokens", "prompt_tokens", "max_tokens"},
	"derivations": {"prompt_tokens", "completion_tokens"},
	"dags":        {"prompt_tokens", "completion_tokens"},
	"alignments":  {"prompt_tokens", "completion_tokens"},
	"trials":      {"completion_tokens", "checkpoint_tokens", "checkpoint"},
}

// Every token count, budget and checkpoint is a BIGINT.
func TestTokenColumnsAreBigint(t *testing.T) {
	for _, tbl := range schema.All() {
		for _, c := range tbl.Columns() {
			if (strings.HasSuffix(c.Name, "tokens") || c.Name == "checkpoint") && c.Type != "BIGINT" {
				t.Errorf("%s.%s is %s, not BIGINT", tbl.Name, c.Name, c.Type)
			}
		}
	}
	for name, cols := range widened {
		tbl, _ := schema.Lookup(name)
		for _, col := range cols {
			if c, ok := tbl.Column(col); !ok || c.Type != "BIGINT" {
				t.Errorf("%s.%s: %+v", name, col, c)
			}
		}
	}
}

// A run written before the widening has INT32 files; reading them into the
// int64 rows (parquet-go's GenericReader converts) keeps every value.
func TestReadsInt32FilesOfOldRuns(t *testing.T) {
	readsOld(t, schema.Traces)
	readsOld(t, schema.References)
	readsOld(t, schema.DAGs)
	readsOld(t, schema.Alignments)
	readsOld(t, schema.Trials)
}

func readsOld[T any](t *testing.T, def schema.Def[T]) {
	t.Helper()
	cols := widened[def.Name]
	// The old row type: the same struct with the widened fields as int32.
	rowType := reflect.TypeFor[T]()
	var fields []reflect.StructField
	var idx []int
	for i := range rowType.NumField() {
		f := rowType.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		for _, c := range cols {
			if c == name {
				f.Type = reflect.TypeFor[int32]()
				idx = append(idx, i)
			}
		}
		fields = append(fields, f)
	}
	if len(idx) != len(cols) {
		t.Fatalf("%s: found %d of the columns %v", def.Name, len(idx), cols)
	}
	oldType := reflect.StructOf(fields)
	values := []int32{math.MaxInt32, 0, 7}
	dir := t.TempDir()
	f, err := os.Create(store.FilePath(dir, def.Table))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewWriter(f, parquet.SchemaOf(reflect.New(oldType).Interface()))
	for _, v := range values {
		row := reflect.New(oldType).Elem()
		for _, i := range idx {
			row.Field(i).SetInt(int64(v))
		}
		if err := w.Write(row.Interface()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if typ := parquetType(t, store.FilePath(dir, def.Table), cols[0]); typ != "INT32" {
		t.Fatalf("%s: the old file's %s is %s", def.Name, cols[0], typ)
	}

	rows, err := store.ReadAll(dir, def)
	if err != nil || len(rows) != len(values) {
		t.Fatalf("%s: %d rows, %v", def.Name, len(rows), err)
	}
	for r, v := range values {
		got := reflect.ValueOf(rows[r])
		for _, i := range idx {
			field := got.Field(i)
			if field.Kind() == reflect.Pointer {
				// A column since made optional (traces.max_tokens): the old
				// files' 0 meant "unknown" and reads as NULL, which now says so.
				if field.IsNil() != (v == 0) {
					t.Errorf("%s row %d: %s NULL %v for %d", def.Name, r, rowType.Field(i).Name, field.IsNil(), v)
				}
				if field.IsNil() {
					continue
				}
				field = field.Elem()
			}
			if n := field.Int(); n != int64(v) {
				t.Errorf("%s row %d: %s = %d, want %d", def.Name, r, rowType.Field(i).Name, n, v)
			}
		}
	}
}

func parquetType(t *testing.T, path, column string) string {
	pf, f, err := store.OpenFile(path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	leaf, ok := pf.Schema().Lookup(column)
	if !ok {
		t.Fatalf("%s has no column %s", path, column)
	}
	return leaf.Node.Type().Kind().String()
}
