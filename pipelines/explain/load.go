package explain

import (
	"errors"
	"fmt"
	"sort"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// ErrNoTrace means the run has no trace of that id.
var ErrNoTrace = errors.New("no such trace")

// ErrNoScores means the run has no aligned trace to index.
var ErrNoScores = errors.New("no scored alignments")

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

// scanWhere reads the rows of a table that keep returns true for; a table
// the run has not written has none.
func scanWhere[T any](dir string, def schema.Def[T], keep func(*T) bool) ([]T, error) {
	var out []T
	err := store.Scan(dir, def, func(r *T) error {
		if keep(r) {
			out = append(out, *r)
		}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		err = nil
	}
	return out, err
}

// load gathers what the page of one trace shows, for one aligner ("" for
// the first by name that scored it).
func load(dir, traceID, aligner string) (*view, error) {
	traces, err := scanWhere(dir, schema.Traces, func(t *schema.Trace) bool { return t.TraceID == traceID })
	if err != nil {
		return nil, err
	}
	if len(traces) == 0 {
		return nil, fmt.Errorf("%w %s in %s", ErrNoTrace, traceID, dir)
	}
	v := &view{Trace: traces[0]}
	if as, err := scanWhere(dir, schema.Answers, func(a *schema.Answer) bool { return a.TraceID == traceID }); err != nil {
		return nil, err
	} else if len(as) > 0 {
		v.Answer = &as[0]
	}
	if cs, err := scanWhere(dir, schema.Compliances, func(c *schema.Compliance) bool { return c.TraceID == traceID }); err != nil {
		return nil, err
	} else if len(cs) > 0 {
		v.Compliance = &cs[0]
	}
	best, err := scanWhere(dir, schema.Scores, func(s *schema.Score) bool {
		return s.TraceID == traceID && s.Best && (aligner == "" || s.Aligner == aligner)
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(best, func(i, j int) bool { return best[i].Aligner < best[j].Aligner })
	if len(best) == 0 {
		return v, nil // not aligned (yet): the page shows the trace and verdicts
	}
	v.Score = &best[0]
	stored, err := dags.Load(dir)
	if err != nil {
		return nil, err
	}
	if d, ok := stored[v.Score.DagID]; ok {
		v.DAG = d.DAG
	}
	pick := func(t, d, a string) bool { return t == traceID && d == v.Score.DagID && a == v.Score.Aligner }
	if v.Events, err = scanWhere(dir, schema.AlignmentEvents, func(e *schema.AlignmentEvent) bool { return pick(e.TraceID, e.DagID, e.Aligner) }); err != nil {
		return nil, err
	}
	if v.Harmful, err = scanWhere(dir, schema.HarmfulActions, func(h *schema.HarmfulAction) bool { return pick(h.TraceID, h.DagID, h.Aligner) }); err != nil {
		return nil, err
	}
	return v, nil
}
