package verify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/parquet-go/parquet-go"
)

func TestGradesEveryTrace(t *testing.T) {
	dir := t.TempDir()
	store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{
		{ProblemID: "low-0", Lang: "en", Answer: "18"}, {ProblemID: "low-0", Lang: "sw", Answer: "18"},
		{ProblemID: "medium-1", Lang: "en", Answer: `$\frac{1}{9}$`},
	})
	store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{
		{TraceID: "right", ProblemID: "low-0", Text: "<think>\nKwanza \\boxed{17}\n</think>\n\nJibu \\boxed{18}"},
		{TraceID: "wrong", ProblemID: "low-0", Text: "<think>\n...\n</think>\n\\boxed{19}"},
		{TraceID: "cut", ProblemID: "low-0", Text: "<think>\nloop 18 loop loop", Truncated: true},
		{TraceID: "frac", ProblemID: "medium-1", Text: "</think> $\\boxed{\\dfrac{1}{9}}$"},
	})
	// The multilingual grader: a trace the budget cut off with no box has no
	// answer. Math-Verify reads its last number (18) and disagrees.
	sum, err := Run(context.Background(), Config{Data: dir, Grader: string(study.Multilingual)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Traces: 4, Correct: 2, NoAnswer: 1, Disagree: 1}, sum); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	rows, _ := store.ReadAll(dir, schema.Answers)
	got := map[string]schema.Answer{}
	for _, r := range rows {
		got[r.TraceID] = r
	}
	type verdict struct {
		Correct         bool
		Extracted, Gold string
		HasAnswer       bool
		Reason          string
	}
	of := func(a schema.Answer) verdict { return verdict{a.Correct, a.Extracted, a.Gold, a.HasAnswer, a.Reason} }
	if diff := cmp.Diff(verdict{Correct: true, Extracted: "18", Gold: "18"}, of(got["right"]), cmpopts.IgnoreFields(verdict{}, "HasAnswer", "Reason")); diff != "" {
		t.Errorf("right (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(verdict{Reason: "no-answer"}, of(got["cut"]), cmpopts.IgnoreFields(verdict{}, "Extracted", "Gold")); diff != "" {
		t.Errorf("cut (-want +got):\n%s", diff)
	}
	if a := got["frac"]; !a.Correct {
		t.Errorf("frac graded wrong: extracted %q, gold %q (%s)", a.Extracted, a.Gold, a.Reason)
	}
}

func TestTraceWithoutGoldIsAnError(t *testing.T) {
	dir := t.TempDir()
	store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{{ProblemID: "low-0", Lang: "en", Answer: "1"}})
	store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{{TraceID: "x", ProblemID: "low-7", Text: "\\boxed{1}"}})
	if _, err := Run(context.Background(), Config{Data: dir}); !errors.Is(err, ErrNoGold) {
		t.Fatalf("got %v, want ErrNoGold", err)
	}
	if store.Exists(dir, schema.Answers.Table) {
		t.Fatal("answers written despite the error")
	}
}

// The red team renamed traces.parquet's text column: verify graded every
// trace as "without an answer" and replaced a good answers table. A table
// whose columns are not the declared ones is now refused, naming the file
// and the column, and the answers table is left as it was.
func TestTracesWithARenamedColumnAreRefused(t *testing.T) {
	// A run from before generations (tables directly in the directory,
	// read in place) whose traces another tool rewrote: every column but
	// text, renamed body. In a run with generations such a file is refused
	// sooner, as changed outside datg (internal/store).
	dir := t.TempDir()
	type renamed struct {
		TraceID   string `parquet:"trace_id"`
		ProblemID string `parquet:"problem_id"`
		Body      string `parquet:"body"`
	}
	write := func(name string, rows any) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		switch r := rows.(type) {
		case []schema.Problem:
			err = parquet.Write(f, r)
		case []schema.Answer:
			err = parquet.Write(f, r)
		case []renamed:
			err = parquet.Write(f, r)
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	write("problems.parquet", []schema.Problem{{ProblemID: "low-0", Lang: "en", Answer: "18"}})
	write("answers.parquet", []schema.Answer{{TraceID: "t1", Extracted: "18", Correct: true}})
	write("traces.parquet", []renamed{{"t1", "low-0", "</think> \\boxed{18}"}})
	before, err := store.ReadAll(dir, schema.Answers)
	if err != nil || len(before) != 1 {
		t.Fatalf("answers before: %d, %v", len(before), err)
	}
	_, err = Run(context.Background(), Config{Data: dir})
	if !errors.Is(err, store.ErrSchemaMismatch) || !strings.Contains(err.Error(), "traces.parquet") || !strings.Contains(err.Error(), "column") {
		t.Fatalf("verify over traces without text: %v, want ErrSchemaMismatch naming the file and a column", err)
	}
	after, _ := store.ReadAll(dir, schema.Answers)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Fatalf("answers changed (-before +after):\n%s", diff)
	}
}

// verify writes the chosen grader's verdicts to answers and every grader's
// to verdicts, in one commit; math-verify is the default.
func TestEveryGradersVerdicts(t *testing.T) {
	dir := t.TempDir()
	store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{{ProblemID: "low-0", Lang: "en", Answer: "18"}})
	store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{
		{TraceID: "cut", ProblemID: "low-0", Text: "<think>\nloop 18 loop loop", Truncated: true},
		{TraceID: "boxed", ProblemID: "low-0", Text: "</think> \\boxed{18}"},
	})
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Summary{Traces: 2, Correct: 2, Disagree: 1}, sum); diff != "" {
		t.Fatalf("summary (-want +got):\n%s", diff)
	}
	answers, _ := store.ReadAll(dir, schema.Answers)
	for _, a := range answers {
		if a.Grader != string(study.MathVerify) {
			t.Errorf("answer of %s by %s, want math-verify's", a.TraceID, a.Grader)
		}
		if !a.Correct {
			t.Errorf("answer of %s graded wrong, want math-verify's correct verdict", a.TraceID)
		}
	}
	verdicts, _ := store.ReadAll(dir, schema.Verdicts)
	got := map[string]bool{}
	for _, v := range verdicts {
		got[v.TraceID+"/"+v.Grader] = v.Correct
	}
	want := map[string]bool{"cut/math-verify": true, "cut/multilingual": false, "boxed/math-verify": true, "boxed/multilingual": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts: correct by trace/grader (-want +got):\n%s", diff)
	}
	if _, err := Run(context.Background(), Config{Data: dir, Grader: "sympy"}); err == nil {
		t.Fatal("an unknown grader was accepted")
	}
}
