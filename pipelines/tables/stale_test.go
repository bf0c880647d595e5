package tables

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// checkedRun is writeRun with every trace language-checked: compliance and
// both detectors' rows.
func checkedRun(t *testing.T) string {
	t.Helper()
	dir := writeRun(t, true)
	var comps []schema.Compliance
	var dets []schema.Detection
	for _, id := range []string{"a", "b", "c", "d"} {
		comps = append(comps, schema.Compliance{TraceID: id, Compliant: true})
		dets = append(dets, detection(id, "langdetect", true), detection(id, "lingua", true))
	}
	if err := store.WriteAll(dir, schema.Compliances, store.Meta{}, comps); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteAll(dir, schema.Detections, store.Meta{}, dets); err != nil {
		t.Fatal(err)
	}
	return dir
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, "tables", name))
	return err == nil
}

// A stale input keeps out only the tables that read it: the others are
// written, and one error names the tables left out, why, and the command to
// run, once. datg tables used to write nothing at all.
func TestStaleInputWritesTheFreshTables(t *testing.T) {
	dir := checkedRun(t)
	// Trace d was checked no more: compliance, and so both compliance
	// tables, are stale.
	rewrite(t, dir, schema.Compliances, func(rows []schema.Compliance) []schema.Compliance { return rows[:3] })
	var stdout strings.Builder
	sum, err := Run(context.Background(), Config{Data: dir, Stdout: &stdout})
	if !errors.Is(err, ErrStale) {
		t.Fatalf("got %v, want ErrStale", err)
	}
	var se *StaleError
	if !errors.As(err, &se) || strings.Join(se.Tables, ",") != "compliance,compliance_agreement" {
		t.Fatalf("the refusal %v does not list the two compliance tables", err)
	}
	msg := err.Error()
	for _, want := range []string{"compliance, compliance_agreement", "1 probe traces have no compliance row for their current text", "run datg langcheck", "2 other tables were written"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
	if strings.Count(msg, "datg langcheck") != 1 {
		t.Errorf("the refusal names datg langcheck more than once: %q", msg)
	}
	for _, name := range []string{"direction_accuracy.csv", "direction_accuracy.md", "direction_accuracy.tex", "accuracy_groups.csv"} {
		if !exists(dir, name) {
			t.Errorf("%s was not written though its inputs are fresh", name)
		}
	}
	for _, name := range []string{"compliance.csv", "compliance_agreement.md"} {
		if exists(dir, name) {
			t.Errorf("%s was written from a stale input", name)
		}
	}
	if len(sum.Written) == 0 || !strings.Contains(stdout.String(), "direction_accuracy: ") {
		t.Errorf("the run reports %v and says %q", sum.Written, stdout.String())
	}
	// Once langcheck has run again, they are written too.
	rewrite(t, dir, schema.Compliances, func(rows []schema.Compliance) []schema.Compliance {
		return append(rows, schema.Compliance{TraceID: "d", Compliant: true})
	})
	if _, err := Run(context.Background(), Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	if !exists(dir, "compliance.csv") || !exists(dir, "compliance_agreement.md") {
		t.Error("the compliance tables were not written once fresh")
	}
}

// A table skipped for want of two inputs of one producer names it once
// (it said "run datg langcheck, datg langcheck").
func TestSkipNamesEachProducerOnce(t *testing.T) {
	wantContains(t, "the report", report(t, writeRun(t, true)),
		"compliance_agreement: skipped, no compliance, detections yet (run datg langcheck)\n")
}

// The controls' traces not yet graded nor language-checked (datg control
// after verify and langcheck) keep Table 3 out, and nothing else: the
// probe tables are checked over the probe's traces only.
func TestControlTracesDoNotHoldBackTheProbeTables(t *testing.T) {
	dir := checkedRun(t)
	loop := trace("e", "org/my_model&v2", "low", "en", "sw", "en-x", "low-0")
	loop.Method = "loop-retry"
	rewrite(t, dir, schema.Traces, func(traces []schema.Trace) []schema.Trace { return append(traces, loop) })
	if err := store.WriteAll(dir, schema.Trials, store.Meta{}, []schema.Trial{{TraceID: "e", Method: "loop-retry",
		Model: loop.Model, ReasoningLang: "sw", Level: "low", ProblemID: "low-0", Seed: 42, Phase: "reasoning", Trial: 1, CompletionTokens: 10}}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Data: dir})
	var se *StaleError
	if !errors.Is(err, ErrNotGraded) || !errors.As(err, &se) || strings.Join(se.Tables, ",") != "control" {
		t.Fatalf("got %v, want control alone refused as not graded", err)
	}
	wantContains(t, "the refusal", err.Error(), "1 control traces have no answers row", "run datg verify")
	for _, name := range []string{"direction_accuracy.csv", "compliance.csv", "compliance_agreement.csv"} {
		if !exists(dir, name) {
			t.Errorf("%s was held back by a control trace", name)
		}
	}
}

// A base trace at another seed than the probe's is in no probe table, and
// datg tables says so; --probe-seed reads a probe sampled at another seed.
func TestBaseTracesOutsideTheProbe(t *testing.T) {
	dir := checkedRun(t)
	extra := trace("x", "org/my_model&v2", "low", "en", "sw", "en-x", "low-0")
	extra.Seed = 215
	rewrite(t, dir, schema.Traces, func(traces []schema.Trace) []schema.Trace { return append(traces, extra) })
	rewrite(t, dir, schema.Answers, func(rows []schema.Answer) []schema.Answer {
		return append(rows, schema.Answer{TraceID: "x", Correct: true})
	})
	var stderr strings.Builder
	if _, err := Run(context.Background(), Config{Data: dir, Only: []string{"direction_accuracy"}, Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "the warning", stderr.String(), "1 base traces (seed 215) are not the direction probe's (seed 42)")
	wantContains(t, "direction_accuracy.csv", readOutput(t, dir, "direction_accuracy.csv"),
		"org/my_model&v2,org/my_model&v2,low,en-x,sw,1,0,0,0,79.35,1,1,0,1,0\n")
	wantContains(t, "direction_accuracy.md", readOutput(t, dir, "direction_accuracy.md"), "seed 42", "n = 1 per cell")
	// accuracy_groups' n is a sum (DuckDB's HUGEINT).
	if _, err := Run(context.Background(), Config{Data: dir, Only: []string{"accuracy_groups"}}); err != nil {
		t.Fatal(err)
	}
	wantContains(t, "accuracy_groups.md", readOutput(t, dir, "accuracy_groups.md"), "Direction probe only: one trace per problem and cell, seed 42; n = 1 per cell.")

	seed := int64(215)
	stderr.Reset()
	if _, err := Run(context.Background(), Config{Data: dir, Only: []string{"direction_accuracy"}, ProbeSeed: &seed, Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	if got := readOutput(t, dir, "direction_accuracy.csv"); !strings.HasSuffix(got, "\norg/my_model&v2,org/my_model&v2,low,en-x,sw,1,1,100,20.65,100,,,,,0\n") || strings.Count(got, "\n") != 2 {
		t.Errorf("direction_accuracy.csv at probe seed 215:\n%s", got)
	}
	wantContains(t, "the warning", stderr.String(), "4 base traces (seed 42) are not the direction probe's (seed 215)")
}
