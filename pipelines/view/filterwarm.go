package view

import (
	"context"
	"fmt"

	"github.com/datg/datg/schema"
)

// warmFilters builds, in the background, the key filters (keyfilter.go)
// of every table a trace page reads, with the projections its reads use,
// so that the generation's first trace page does not build them: reading
// every key column once took 1.0 s at 382,500 traces. A page that comes
// first builds the filters it needs itself (the same sync.Once).
func (r *runDB) warmFilters(logf func(format string, args ...any)) {
	ctx, cancel := context.WithCancel(context.Background())
	r.stopWarm = cancel
	r.warmDone = make(chan struct{})
	go func() {
		defer close(r.warmDone)
		g := r.groups
		for _, warm := range []func() error{
			func() error { return warmTable[textKeyRow](g, schema.Traces.Table, "trace_id") },
			func() error { return warmTable[eventRow](g, schema.AlignmentEvents.Table, "trace_id") },
			func() error { return warmTable[harmRow](g, schema.HarmfulActions.Table, "trace_id") },
			func() error { return warmTable[scoreRowRead](g, schema.Scores.Table, "trace_id") },
			func() error { return warmTable[gradeRow](g, schema.Verdicts.Table, "trace_id") },
			func() error { return warmTable[gradeRow](g, schema.Answers.Table, "trace_id") },
			func() error { return warmTable[checkRow](g, schema.Detections.Table, "trace_id") },
			func() error { return warmTable[complianceRow](g, schema.Compliances.Table, "trace_id") },
			func() error { return warmTable[questionRead](g, schema.Problems.Table, "problem_id") },
			func() error { return warmTable[dagRead](g, schema.DAGs.Table, "problem_id") },
			func() error { return warmTable[nodeRead](g, schema.Nodes.Table, "dag_id") },
			func() error { return warmTable[edgeRead](g, schema.Edges.Table, "dag_id") },
		} {
			if ctx.Err() != nil {
				return
			}
			if err := warm(); err != nil {
				// The pages that read the table report it, naming the file;
				// the other tables still get their filters.
				logf("datg view: generation %d: %v (the trace pages that read it say so too)", r.gen, err)
			}
		}
	}()
}

// warmTable builds t's key filters as a read of P by keyColumn opens it.
func warmTable[P any](g *groupFiles, t *schema.Table, keyColumn string) error {
	if _, _, err := g.filtered(t, keyColumn, projectionColumns[P]()); err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	return nil
}
