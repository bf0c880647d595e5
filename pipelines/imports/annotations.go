package imports

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms/datg"
)

// annotationRecord is one line of an annotations import: one annotator's
// audit of one (trace, reference DAG) instance.
type annotationRecord struct {
	Annotator *string           `json:"annotator"`
	TraceID   *string           `json:"trace_id"`
	RefIndex  *float64          `json:"ref_index"`
	Nodes     map[string]bool   `json:"nodes"`
	Edges     map[string]bool   `json:"edges"`
	Statuses  map[string]string `json:"statuses"`
	CAR       *float64          `json:"car"`
	PMF       *float64          `json:"pmf"`
	Harmful   map[string]bool   `json:"harmful"`
}

// statuses a human alignment gives a node.
var humanStatuses = []string{datg.Commit, datg.Attempt, datg.Error, datg.Missing}

// importAnnotations reads the human audit: each line one annotator's
// judgments of one (trace, DAG) instance. Everything is checked before the
// table is written; a re-imported (annotator, trace, DAG) replaces its rows.
func importAnnotations(ctx context.Context, cfg Config) (Summary, error) {
	f, err := os.Open(cfg.In)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	stored, err := dags.Load(cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	problemOf, err := traceProblems(cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	m, err := store.NewMerger(cfg.Data, schema.Annotations, store.Meta{Stage: "import annotations", ConfigHash: store.HashConfig(filepath.Base(cfg.In))})
	if err != nil {
		return Summary{}, err
	}
	defer m.Abort()
	instance := func(annotator, traceID, dagID string) string { return annotator + "\x00" + traceID + "\x00" + dagID }
	m.Group = func(a *schema.Annotation) string { return instance(a.Annotator, a.TraceID, a.DagID) }
	source := "import:" + filepath.Base(cfg.In)
	seen := map[string]int{}
	var sum Summary
	err = eachRecord(ctx, cfg.In, f, func(line int, rec *annotationRecord) error {
		bad := func(field, format string, args ...any) error {
			return inputerr.Field(cfg.In, line, field, fmt.Errorf("%w: %s", ErrBadRecord, fmt.Sprintf(format, args...)))
		}
		switch {
		case rec.Annotator == nil || strings.TrimSpace(*rec.Annotator) == "":
			return bad("annotator", "missing")
		case rec.TraceID == nil:
			return bad("trace_id", "missing")
		case rec.RefIndex == nil:
			return bad("ref_index", "missing")
		}
		problem, ok := problemOf[*rec.TraceID]
		if !ok {
			return bad("trace_id", "%s is not in the traces table", *rec.TraceID)
		}
		ref, ok := integer(*rec.RefIndex)
		if !ok || ref < 0 {
			return bad("ref_index", "%v is not a reference index", *rec.RefIndex)
		}
		id := dags.ID(problem, int(ref))
		d, ok := stored[id]
		if !ok || !d.Row.Valid {
			return bad("ref_index", "no valid DAG %s", id)
		}
		key := instance(*rec.Annotator, *rec.TraceID, id)
		if first, dup := seen[key]; dup {
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: annotator %s already audited trace %s with DAG %s on line %d", ErrDuplicate, *rec.Annotator, *rec.TraceID, id, first))
		}
		seen[key] = line
		rows, err := rec.rows(d.DAG, bad)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return bad("nodes", "the line judges nothing")
		}
		for i := range rows {
			rows[i].TraceID, rows[i].DagID, rows[i].Annotator, rows[i].Source = *rec.TraceID, id, *rec.Annotator, source
		}
		sum.Records++
		return m.Write(rows...)
	})
	if err != nil {
		return sum, err
	}
	if sum.Records == 0 {
		return sum, inputerr.At(cfg.In, 0, fmt.Errorf("%w: no annotations in the file", ErrBadRecord))
	}
	if err := m.Commit(); err != nil {
		return sum, err
	}
	sum.Replaced = m.Replaced
	return sum, nil
}

// rows are a record's judgments, checked against the DAG; bad makes the
// error of a field.
func (r annotationRecord) rows(d datg.DAG, bad func(field, format string, args ...any) error) ([]schema.Annotation, error) {
	nodes := map[string]bool{}
	for _, n := range d.Nodes {
		nodes[n.NodeID] = true
	}
	edges := map[string]bool{}
	for _, e := range d.Edges() {
		edges[e.Parent+">"+e.Child] = true
	}
	var out []schema.Annotation
	label := func(ok bool, yes, no string) string {
		if ok {
			return yes
		}
		return no
	}
	for _, id := range slices.Sorted(maps.Keys(r.Nodes)) {
		if !nodes[id] {
			return nil, bad("nodes", "the DAG has no node %q", id)
		}
		out = append(out, schema.Annotation{Layer: "node", Item: id, Label: label(r.Nodes[id], "valid", "invalid")})
	}
	for _, e := range slices.Sorted(maps.Keys(r.Edges)) {
		if !edges[e] {
			return nil, bad("edges", "the DAG has no edge %q (write parent>child)", e)
		}
		out = append(out, schema.Annotation{Layer: "edge", Item: e, Label: label(r.Edges[e], "valid", "invalid")})
	}
	for _, id := range slices.Sorted(maps.Keys(r.Statuses)) {
		st := strings.ToUpper(strings.TrimSpace(r.Statuses[id]))
		switch {
		case !nodes[id]:
			return nil, bad("statuses", "the DAG has no node %q", id)
		case !slices.Contains(humanStatuses, st):
			return nil, bad("statuses", "%q is not one of %v", r.Statuses[id], humanStatuses)
		}
		out = append(out, schema.Annotation{Layer: "status", Item: id, Label: st})
	}
	for _, s := range []struct {
		name string
		v    *float64
	}{{"car", r.CAR}, {"pmf", r.PMF}} {
		if s.v == nil {
			continue
		}
		if *s.v < 0 || *s.v > 1 {
			return nil, bad(s.name, "%v is not in [0, 1]", *s.v)
		}
		v := *s.v
		out = append(out, schema.Annotation{Layer: s.name, Value: &v})
	}
	for _, span := range slices.Sorted(maps.Keys(r.Harmful)) {
		if strings.TrimSpace(span) == "" {
			return nil, bad("harmful", "an empty evidence span")
		}
		out = append(out, schema.Annotation{Layer: "harmful", Item: span, Label: label(r.Harmful[span], "harmful", "not-harmful")})
	}
	return out, nil
}

// traceProblems maps every trace to its problem.
func traceProblems(dir string) (map[string]string, error) {
	out := map[string]string{}
	type cols struct {
		TraceID   string `parquet:"trace_id"`
		ProblemID string `parquet:"problem_id"`
	}
	err := store.ScanProjection(dir, schema.Traces.Table, func(r *cols) error {
		out[r.TraceID] = r.ProblemID
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil, fmt.Errorf("no traces in %s: the audited traces must be in the run", dir)
	}
	return out, err
}
