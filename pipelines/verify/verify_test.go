package verify

import (
	"context"
	"errors"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
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
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Traces: 4, Correct: 2, NoAnswer: 1}) {
		t.Fatalf("summary %+v", sum)
	}
	rows, _ := store.ReadAll(dir, schema.Answers)
	got := map[string]schema.Answer{}
	for _, r := range rows {
		got[r.TraceID] = r
	}
	if a := got["right"]; !a.Correct || a.Extracted != "18" || a.Gold != "18" {
		t.Errorf("right: %+v", a)
	}
	if a := got["cut"]; a.HasAnswer || a.Correct || a.Reason != "no-answer" {
		t.Errorf("cut: %+v", a)
	}
	if a := got["frac"]; !a.Correct {
		t.Errorf("frac: %+v", a)
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
