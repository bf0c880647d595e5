package explain

import (
	"errors"
	"fmt"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// view is what a trace page shows.
type view struct {
	Trace      schema.Trace
	Answer     *schema.Answer
	Compliance *schema.Compliance
	Score      *schema.Score
	DAG        datg.DAG
	Events     []schema.AlignmentEvent
	Harmful    []schema.HarmfulAction
}

// scan reads every row of a table through fn; a table the run has not
// written has none.
func scan[T any](dir string, def schema.Def[T], fn func(*T)) error {
	err := store.Scan(dir, def, func(r *T) error { fn(r); return nil })
	if errors.Is(err, store.ErrNoTable) {
		return nil
	}
	return err
}

// attach reads a table whose rows are about traces, giving add each row
// about a trace in views (a copy: scan reuses its row).
func attach[T any](dir string, def schema.Def[T], views map[string]*view, traceID func(*T) string, add func(*view, T)) error {
	return scan(dir, def, func(r *T) {
		if v := views[traceID(r)]; v != nil {
			add(v, *r)
		}
	})
}

// load gathers the views of the traces want keeps, reading each table once
// however many pages they make. Each view has the trace's best DAG for the
// aligner ("" for the first by name that scored it), when it has one.
func load(dir, aligner string, want func(traceID string) bool) (map[string]*view, error) {
	views := map[string]*view{}
	err := scan(dir, schema.Traces, func(t *schema.Trace) {
		if want(t.TraceID) {
			views[t.TraceID] = &view{Trace: *t}
		}
	})
	if err != nil {
		return nil, err
	}
	if err := attach(dir, schema.Answers, views, func(a *schema.Answer) string { return a.TraceID },
		func(v *view, a schema.Answer) { v.Answer = &a }); err != nil {
		return nil, err
	}
	if err := attach(dir, schema.Compliances, views, func(c *schema.Compliance) string { return c.TraceID },
		func(v *view, c schema.Compliance) { v.Compliance = &c }); err != nil {
		return nil, err
	}
	if err := attach(dir, schema.Scores, views, func(s *schema.Score) string { return s.TraceID },
		func(v *view, s schema.Score) {
			if s.Best && (aligner == "" || s.Aligner == aligner) && (v.Score == nil || s.Aligner < v.Score.Aligner) {
				v.Score = &s
			}
		}); err != nil {
		return nil, err
	}
	// The alignment shown is of the trace's best DAG by the chosen aligner.
	shown := func(v *view, dagID, aligner string) bool {
		return v.Score != nil && v.Score.DagID == dagID && v.Score.Aligner == aligner
	}
	if err := attach(dir, schema.AlignmentEvents, views, func(e *schema.AlignmentEvent) string { return e.TraceID },
		func(v *view, e schema.AlignmentEvent) {
			if shown(v, e.DagID, e.Aligner) {
				v.Events = append(v.Events, e)
			}
		}); err != nil {
		return nil, err
	}
	if err := attach(dir, schema.HarmfulActions, views, func(h *schema.HarmfulAction) string { return h.TraceID },
		func(v *view, h schema.HarmfulAction) {
			if shown(v, h.DagID, h.Aligner) {
				v.Harmful = append(v.Harmful, h)
			}
		}); err != nil {
		return nil, err
	}
	stored, err := dags.Load(dir)
	if err != nil {
		return nil, err
	}
	for _, v := range views {
		if v.Score == nil {
			continue
		}
		if d, ok := stored[v.Score.DagID]; ok {
			v.DAG = d.DAG
		}
	}
	return views, nil
}

// loadOne is the view of one trace.
func loadOne(dir, traceID, aligner string) (*view, error) {
	views, err := load(dir, aligner, func(id string) bool { return id == traceID })
	if err != nil {
		return nil, err
	}
	v, ok := views[traceID]
	if !ok {
		return nil, fmt.Errorf("%w %s in %s", ErrNoTrace, traceID, dir)
	}
	return v, nil
}
