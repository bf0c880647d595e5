package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/schema"
)

// schema.Problem as pyarrow writes it by default: every column may be NULL.
type nullableProblem struct {
	ProblemID *string `parquet:"problem_id,optional"`
	Level     *string `parquet:"level,optional"`
	Lang      *string `parquet:"lang,optional"`
	K         *int32  `parquet:"k,optional"`
	SourceID  *string `parquet:"source_id,optional"`
	Question  *string `parquet:"question,optional"`
	Answer    *string `parquet:"answer,optional"`
	Source    *string `parquet:"source,optional"`
}

func TestSchemaCheckedOnOpen(t *testing.T) {
	type renamed struct { // question renamed: would read as empty questions
		ProblemID string `parquet:"problem_id"`
		Level     string `parquet:"level"`
		Lang      string `parquet:"lang"`
		K         int32  `parquet:"k"`
		SourceID  string `parquet:"source_id"`
		Statement string `parquet:"statement"`
		Answer    string `parquet:"answer"`
		Source    string `parquet:"source"`
	}
	type retyped struct { // k as text
		ProblemID string `parquet:"problem_id"`
		Level     string `parquet:"level"`
		Lang      string `parquet:"lang"`
		K         string `parquet:"k"`
		SourceID  string `parquet:"source_id"`
		Question  string `parquet:"question"`
		Answer    string `parquet:"answer"`
		Source    string `parquet:"source"`
	}
	type nullable struct { // pyarrow's default: every column may be NULL
		ProblemID *string `parquet:"problem_id,optional"`
		Level     *string `parquet:"level,optional"`
		Lang      *string `parquet:"lang,optional"`
		K         *int64  `parquet:"k,optional"`
		SourceID  *string `parquet:"source_id,optional"`
		Question  *string `parquet:"question,optional"`
		Answer    *string `parquet:"answer,optional"`
		Source    *string `parquet:"source,optional"`
	}
	s := func(v string) *string { return &v }
	k := int64(3)
	full := nullable{s("low-3"), s("low"), s("en"), &k, s("x"), s("q"), s("7"), s("f")}
	cases := []struct {
		name    string
		write   func(path string)
		wantErr string // "" reads
	}{
		{"renamed column", func(p string) {
			writeParquet(t, p, []renamed{{ProblemID: "low-0", Statement: "q", Answer: "7"}})
		}, "column question is missing"},
		{"retyped column", func(p string) {
			writeParquet(t, p, []retyped{{ProblemID: "low-0", K: "zero"}})
		}, "column k has type BYTE_ARRAY"},
		{"a narrower type (INT64 for INT32)", func(p string) { writeParquet(t, p, []nullable{full}) }, "column k has type INT64"},
		{"a NULL where a value is required", func(p string) {
			row := nullableProblem{s("low-3"), s("low"), s("en"), new(int32), s("x"), nil, s("7"), s("f")}
			writeParquet(t, p, []nullableProblem{row})
		}, "column question holds 1 NULLs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.write(filepath.Join(dir, "problems.parquet"))
			_, err := ReadAll(dir, schema.Problems)
			if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), "problems.parquet") {
				t.Fatalf("got %v, want ErrSchemaMismatch naming the file and %q", err, c.wantErr)
			}
			if _, err := Inspect(dir, schema.Problems.Table); !errors.Is(err, ErrSchemaMismatch) {
				t.Fatalf("Inspect: %v, want ErrSchemaMismatch", err)
			}
		})
	}
}

// Optional columns holding no NULL read as the required ones they stand for.
func TestNullableColumnsWithoutNullsRead(t *testing.T) {
	s := func(v string) *string { return &v }
	k := int32(3)
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "problems.parquet"), []nullableProblem{{s("low-3"), s("low"), s("en"), &k, s("x"), s("q"), s("7"), s("f")}})
	rows, err := ReadAll(dir, schema.Problems)
	if err != nil {
		t.Fatal(err)
	}
	type read struct {
		Question string
		K        int32
	}
	var got []read
	for _, r := range rows {
		got = append(got, read{r.Question, r.K})
	}
	if diff := cmp.Diff([]read{{"q", 3}}, got); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
}

// A count written as INT32 (by an older datg) reads into an INT64 column.
func TestInt32ReadsAsInt64(t *testing.T) {
	type oldTrace struct {
		TraceID string `parquet:"trace_id"`
		Seed    int32  `parquet:"seed"`
	}
	type projection struct {
		TraceID string `parquet:"trace_id"`
		Seed    int64  `parquet:"seed"`
	}
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "traces.parquet"), []oldTrace{{"t1", 215}, {"t2", -7}})
	var got []projection
	err := ScanProjection(dir, schema.Traces.Table, func(p *projection) error {
		got = append(got, *p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var seeds []int64
	for _, p := range got {
		seeds = append(seeds, p.Seed)
	}
	if diff := cmp.Diff([]int64{215, -7}, seeds); diff != "" {
		t.Fatalf("seeds (-want +got):\n%s", diff)
	}
}

// Timestamps are converted from another unit (DuckDB and pyarrow write
// microseconds); a plain number is not taken for a timestamp.
func TestTimestampColumns(t *testing.T) {
	type micros struct {
		TraceID   string    `parquet:"trace_id"`
		CreatedAt time.Time `parquet:"created_at,timestamp(microsecond)"`
	}
	type number struct {
		TraceID   string `parquet:"trace_id"`
		CreatedAt int64  `parquet:"created_at"`
	}
	type projection struct {
		TraceID   string    `parquet:"trace_id"`
		CreatedAt time.Time `parquet:"created_at,timestamp(millisecond)"`
	}
	at := time.Date(2026, 11, 23, 12, 0, 0, 123456789, time.UTC)
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "traces.parquet"), []micros{{"t1", at}})
	var got time.Time
	err := ScanProjection(dir, schema.Traces.Table, func(p *projection) error { got = p.CreatedAt; return nil })
	if err != nil {
		t.Fatalf("micros: %v", err)
	}
	if want := at.Truncate(time.Millisecond); !got.Equal(want) {
		t.Fatalf("micros read as %v, want %v", got, want)
	}
	writeParquet(t, filepath.Join(dir, "traces.parquet"), []number{{"t1", at.UnixMilli()}})
	err = ScanProjection(dir, schema.Traces.Table, func(*projection) error { return nil })
	if !errors.Is(err, ErrSchemaMismatch) {
		t.Fatalf("a number for a timestamp: %v, want ErrSchemaMismatch", err)
	}
}
