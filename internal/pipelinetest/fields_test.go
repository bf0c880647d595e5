package pipelinetest

import (
	"fmt"
	"slices"
	"testing"
)

// recordingTB keeps what a check reports instead of failing the test.
type recordingTB struct {
	testing.TB
	errors []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Each field that differs is reported by name, with what it is and what
// it should be. got and want share a type, so an untyped constant takes
// the column's (int32(1) and 1 are equal) and a typed one of another type
// does not compile.
func TestCheckFieldsNamesEachFieldThatDiffers(t *testing.T) {
	rec := &recordingTB{TB: t}
	ok := CheckFields(rec, "trace t1",
		Field("method", "base", "base"),
		Field("seed", int64(7), int64(42)),
		Field("trial", int32(1), 1),
		Field("step", int32(2), 3))
	if ok {
		t.Error("CheckFields reported a match")
	}
	want := []string{"trace t1: seed 7, want 42", "trace t1: step 2, want 3"}
	if !slices.Equal(rec.errors, want) {
		t.Errorf("reported %q, want %q", rec.errors, want)
	}
	if !CheckFields(rec, "trace t2", Field("method", "base", "base")) {
		t.Error("CheckFields reported a mismatch of equal fields")
	}
}
