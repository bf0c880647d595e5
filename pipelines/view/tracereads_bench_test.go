package view

import (
	"cmp"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

// BenchmarkTraceReads is each of a trace page's reads alone over the run
// in $DATG_BENCH_RUN (one DATG_BENCH_KEEP kept), of the trace
// $DATG_BENCH_TRACE (default t0000102, a benchRun id), its row file built
// first: which of them grow with the run; groups/ are the page's reads of
// the trace's rows by row group, the others DuckDB's queries. cpu-ns/op is the process's CPU
// a read (DuckDB's threads included).
//
//	DATG_BENCH_RUN=DIR go test -run '^$' -bench BenchmarkTraceReads -benchtime 20x ./pipelines/view
func BenchmarkTraceReads(b *testing.B) {
	dir := os.Getenv("DATG_BENCH_RUN")
	if dir == "" {
		b.Skip("DATG_BENCH_RUN names no run")
	}
	ctx := context.Background()
	r, err := openRunDB(ctx, dir, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer r.close()
	id := cmp.Or(os.Getenv("DATG_BENCH_TRACE"), "t0000102")
	j, ok := r.rows.find(id)
	if !ok {
		b.Fatalf("no trace %s", id)
	}
	traces, probs := keysOf([]string{id}), keysOf([]string{r.rows.problemOf(j)})
	for _, read := range []struct {
		name string
		run  func(t *traceRows) error
	}{
		{"text", func(t *traceRows) error { return t.readText(ctx, r, traces) }},
		{"questions", func(t *traceRows) error { return t.readQuestions(ctx, r, probs) }},
		{"verdicts", func(t *traceRows) error { return t.readVerdicts(ctx, r, traces) }},
		{"detections", func(t *traceRows) error { return t.readDetections(ctx, r, traces) }},
		{"scores", func(t *traceRows) error { return t.readScores(ctx, r, traces) }},
		{"dags", func(t *traceRows) error { return t.readDAGs(ctx, r, probs) }},
		{"events", func(t *traceRows) error { return t.readEvents(ctx, r, traces) }},
		// The page's reads by row group (tracegroups.go).
		{"groups/text", func(t *traceRows) error { return t.groupTexts(r.groups, []string{id}) }},
		{"groups/verdicts", func(t *traceRows) error { return t.groupVerdicts(r.groups, []string{id}) }},
		{"groups/detections", func(t *traceRows) error { return t.groupDetections(r.groups, []string{id}) }},
		{"groups/scores", func(t *traceRows) error { return t.groupScores(r.groups, []string{id}) }},
		{"groups/events", func(t *traceRows) error { return t.groupEvents(r.groups, []string{id}) }},
		{"groups/questions", func(t *traceRows) error { return t.groupQuestions(r.groups, probs.keys[0]) }},
		{"groups/dags", func(t *traceRows) error { return t.groupDAGs(r.groups, probs.keys[0]) }},
		// A generation's first DAG read: its files opened, the key
		// filters of problems, dags, nodes and edges built.
		{"groups/dags-first", func(t *traceRows) error {
			g := newGroupFiles(r.db.SnapshotDir())
			defer g.close()
			return errors.Join(t.groupQuestions(g, probs.keys[0]), t.groupDAGs(g, probs.keys[0]))
		}},
	} {
		b.Run(read.name, func(b *testing.B) {
			cpu := testenv.CPUTime()
			for b.Loop() {
				t, _ := readTraceRows(ctx, r, nil, nil)
				if err := read.run(t); err != nil {
					b.Fatal(err)
				}
			}
			testenv.ReportCPU(b, cpu, 0)
		})
	}
}
