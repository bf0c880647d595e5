package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/strictjson"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

// annotationRecord is one line of an annotations import: one annotator's
// audit of one (trace, reference DAG) instance. A judgment written as null
// is one not made yet (datg annotations sample writes them so): the line is
// refused, naming it. Context is for the annotator (datg annotations sample
// fills it) and is not read.
type annotationRecord struct {
	Annotator *string                    `json:"annotator"`
	TraceID   *string                    `json:"trace_id"`
	RefIndex  *float64                   `json:"ref_index"`
	Nodes     map[string]*bool           `json:"nodes"`
	Edges     map[string]*bool           `json:"edges"`
	Statuses  map[string]*statusJudgment `json:"statuses"`
	CAR       *float64                   `json:"car"`
	PMF       *float64                   `json:"pmf"`
	Harmful   map[string]*bool           `json:"harmful"`
	Context   json.RawMessage            `json:"context"`
}

// statusJudgment is a node's status in the human alignment: a plain string
// ("COMMIT"), or {"status": "COMMIT", "evidence_span": "trace text"} with
// the text that shows it, located in the trace as an aligner's span is.
type statusJudgment struct {
	Status       *string `json:"status"`
	EvidenceSpan *string `json:"evidence_span"`
}

// UnmarshalJSON reads either form; the object form refuses unknown keys.
func (s *statusJudgment) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var st string
		if err := json.Unmarshal(t, &st); err != nil {
			return err
		}
		s.Status, s.EvidenceSpan = &st, nil
		return nil
	}
	type plain statusJudgment
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("a status is a string or {\"status\", \"evidence_span\"}: %w", err)
	}
	*s = statusJudgment(p)
	return nil
}

// statuses a human alignment gives a node.
var humanStatuses = study.Strings(study.NodeStatuses...)

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
	// Only the audited traces' texts are read: a run's texts may not fit in
	// memory, the audit's 240 do.
	wanted, err := auditedTraces(cfg.In, f)
	if err != nil {
		return Summary{}, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Summary{}, err
	}
	problemOf, texts, err := traceProblems(cfg.Data, wanted)
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
	located := map[string]*datg.Trace{}
	var sum Summary
	err = eachRecord(ctx, cfg.In, f, func(line int, rec *annotationRecord) error {
		bad := func(field, format string, args ...any) error {
			return inputerr.Field(cfg.In, line, field, fmt.Errorf("%w: %s", ErrBadRecord, fmt.Sprintf(format, args...)))
		}
		switch {
		case rec.Annotator == nil || strings.TrimSpace(*rec.Annotator) == "":
			return bad("annotator", "missing (write who judged this instance)")
		case rec.TraceID == nil:
			return bad("trace_id", "missing")
		case rec.RefIndex == nil:
			return bad("ref_index", "missing")
		}
		if err := rec.identifiers(); err != nil {
			return recordError(cfg.In, line, "", err)
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
		t := located[*rec.TraceID]
		if t == nil {
			t = datg.NewTrace(texts[*rec.TraceID])
			located[*rec.TraceID] = t
		}
		rows, err := rec.rows(d.DAG, t, bad)
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

// identifiers checks the record's identifier-like values: who judged, the
// trace, the node ids and edges that key the judgments, and the statuses.
func (r annotationRecord) identifiers() error {
	if err := identifiers([2]string{"annotator", *r.Annotator}, [2]string{"trace_id", *r.TraceID}); err != nil {
		return err
	}
	for _, part := range []struct {
		name string
		keys []string
	}{{"nodes", slices.Sorted(maps.Keys(r.Nodes))}, {"edges", slices.Sorted(maps.Keys(r.Edges))}, {"statuses", slices.Sorted(maps.Keys(r.Statuses))}} {
		for _, k := range part.keys {
			if err := identifier(strictjson.AppendKey(part.name, k), k); err != nil {
				return err
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.Statuses)) {
		if j := r.Statuses[id]; j != nil && j.Status != nil {
			if err := identifier(strictjson.AppendKey("statuses", id), *j.Status); err != nil {
				return err
			}
		}
	}
	return nil
}

// rows are a record's judgments, checked against the DAG, with the human
// alignment's spans located in the trace t; bad makes the error of a field.
func (r annotationRecord) rows(d datg.DAG, t *datg.Trace, bad func(field, format string, args ...any) error) ([]schema.Annotation, error) {
	nodes := map[string]bool{}
	for _, n := range d.Nodes {
		nodes[n.NodeID] = true
	}
	edges := map[datg.Edge]bool{}
	for _, e := range d.Edges() {
		edges[e] = true
	}
	var out []schema.Annotation
	label := func(ok bool, yes, no string) string {
		if ok {
			return yes
		}
		return no
	}
	unfilled := func(field, key, what string) error {
		return bad(field+"."+key, "not judged yet (null): write %s, or remove the key to leave it unjudged", what)
	}
	for _, id := range slices.Sorted(maps.Keys(r.Nodes)) {
		switch {
		case !nodes[id]:
			return nil, bad("nodes", "the DAG has no node %q", id)
		case r.Nodes[id] == nil:
			return nil, unfilled("nodes", id, "true (valid) or false")
		}
		out = append(out, schema.Annotation{Layer: "node", Item: id, Label: label(*r.Nodes[id], "valid", "invalid")})
	}
	judgedBy := map[datg.Edge]string{} // edge -> the key that judged it
	for _, key := range slices.Sorted(maps.Keys(r.Edges)) {
		e, err := edgeOfKey(key, edges)
		if err != nil {
			return nil, bad(strictjson.AppendKey("edges", key), "%v", err)
		}
		if other, dup := judgedBy[e]; dup {
			return nil, bad(strictjson.AppendKey("edges", key), "the edge %q -> %q is judged twice, under %q too", e.Parent, e.Child, other)
		}
		judgedBy[e] = key
		if r.Edges[key] == nil {
			return nil, unfilled("edges", key, "true (valid) or false")
		}
		out = append(out, schema.Annotation{Layer: "edge", Item: e.Key(), Label: label(*r.Edges[key], "valid", "invalid")})
	}
	statuses, err := r.statusRows(nodes, t, bad, unfilled)
	if err != nil {
		return nil, err
	}
	out = append(out, statuses...)
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
	var harmful []schema.Annotation
	for _, span := range slices.Sorted(maps.Keys(r.Harmful)) {
		switch {
		case strings.TrimSpace(span) == "":
			return nil, bad("harmful", "an empty evidence span")
		case r.Harmful[span] == nil:
			return nil, unfilled("harmful", span, "true (a harmful action) or false")
		}
		row := schema.Annotation{Layer: "harmful", Item: span, Label: label(*r.Harmful[span], "harmful", "not-harmful"), EvidenceSpan: span}
		// A candidate's span is the aligner's quote: it may not be found,
		// and then it is judgeable on its own, as the aligner's is.
		if loc := t.Locate(span); loc.Found() {
			start, end, block := int32(loc.Start), int32(loc.End), int32(t.Block(loc.Start))
			row.StartChar, row.EndChar, row.BlockID = &start, &end, &block
		}
		harmful = append(harmful, row)
	}
	matchHumanActions(d, statuses, harmful)
	return append(out, harmful...), nil
}

// statusRows are the human alignment's node statuses, each with its
// evidence span located in the trace as an aligner's event is. A span given
// but not found in the trace is refused: the annotator copies it from the
// trace, so it is a slip to fix, not a claim to keep.
func (r annotationRecord) statusRows(nodes map[string]bool, t *datg.Trace, bad func(field, format string, args ...any) error,
	unfilled func(field, key, what string) error) ([]schema.Annotation, error) {
	var out []schema.Annotation
	for _, id := range slices.Sorted(maps.Keys(r.Statuses)) {
		j := r.Statuses[id]
		if !nodes[id] {
			return nil, bad("statuses", "the DAG has no node %q", id)
		}
		if j == nil || j.Status == nil {
			return nil, unfilled("statuses", id, fmt.Sprintf("one of %v", humanStatuses))
		}
		st := strings.ToUpper(strings.TrimSpace(*j.Status))
		if !slices.Contains(humanStatuses, st) {
			return nil, bad("statuses", "%q is not one of %v", *j.Status, humanStatuses)
		}
		row := schema.Annotation{Layer: "status", Item: id, Label: st}
		if j.EvidenceSpan != nil && strings.TrimSpace(*j.EvidenceSpan) != "" {
			if st == string(study.Missing) {
				return nil, bad("statuses."+id+".evidence_span", "a MISSING node has no evidence in the trace")
			}
			loc := t.Locate(*j.EvidenceSpan)
			switch {
			case loc.Cut != "":
				return nil, bad("statuses."+id+".evidence_span", "%q was not found in the trace text, and %s (copy it from the trace)", truncate(*j.EvidenceSpan, 80), loc.Cut)
			case !loc.Found():
				return nil, bad("statuses."+id+".evidence_span", "%q is not in the trace text (copy it from the trace)", truncate(*j.EvidenceSpan, 80))
			}
			start, end, block := int32(loc.Start), int32(loc.End), int32(t.Block(loc.Start))
			row.EvidenceSpan, row.StartChar, row.EndChar, row.BlockID = *j.EvidenceSpan, &start, &end, &block
		}
		out = append(out, row)
	}
	return out, nil
}

// matchHumanActions records, on each harmful action the annotator
// confirmed, the node whose status event it is matched to, by the matching
// an aligner's alignment gets (datg.MatchActions): the events are the
// statuses other than MISSING in DAG node order (one per node), the actions
// the confirmed candidates in span order.
func matchHumanActions(d datg.DAG, statuses, harmful []schema.Annotation) {
	byNode := map[string]schema.Annotation{}
	for _, s := range statuses {
		byNode[s.Item] = s
	}
	span := func(a schema.Annotation) datg.Span {
		s := datg.Span{Text: a.EvidenceSpan}
		if a.StartChar != nil && a.EndChar != nil {
			s.Start, s.End, s.Located = int(*a.StartChar), int(*a.EndChar), true
		}
		return s
	}
	var events []datg.Span
	var eventNode []string
	for _, n := range d.Nodes {
		if s, ok := byNode[n.NodeID]; ok && s.Label != string(study.Missing) {
			events, eventNode = append(events, span(s)), append(eventNode, n.NodeID)
		}
	}
	var actions []datg.Span
	var actionRow []int
	for i, h := range harmful {
		if h.Label == "harmful" {
			actions, actionRow = append(actions, span(h)), append(actionRow, i)
		}
	}
	for i, j := range datg.MatchActions(events, actions) {
		if j >= 0 {
			harmful[actionRow[i]].MatchedNode = eventNode[j]
		}
	}
}

// auditedTraces are the trace ids the file names. Lines that do not parse
// are skipped here: the import's own pass reports them.
func auditedTraces(path string, r io.Reader) (map[string]bool, error) {
	out := map[string]bool{}
	err := eachLine(path, r, func(_ int, b []byte) error {
		var rec struct {
			TraceID string `json:"trace_id"`
		}
		if json.Unmarshal(b, &rec) == nil {
			out[rec.TraceID] = true
		}
		return nil
	})
	return out, err
}

// traceProblems maps every trace to its problem, and gives the texts of the
// wanted traces.
func traceProblems(dir string, wanted map[string]bool) (map[string]string, map[string]string, error) {
	problems, texts := map[string]string{}, map[string]string{}
	type cols struct {
		TraceID   string `parquet:"trace_id"`
		ProblemID string `parquet:"problem_id"`
		Text      string `parquet:"text"`
	}
	err := store.ScanProjection(dir, schema.Traces.Table, func(r *cols) error {
		problems[r.TraceID] = r.ProblemID
		if wanted[r.TraceID] {
			texts[r.TraceID] = r.Text
		}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil, nil, fmt.Errorf("no traces in %s: the audited traces must be in the run", dir)
	}
	return problems, texts, err
}

// truncate shortens s to at most n characters for an error message.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// edgeOfKey is the edge of the DAG (edges) that an edges key names. The
// key is read as datg.Edge.Key writes it (parent>child, "\>" and "\\"
// inside an id) and, for files written before ids were escaped, as the old
// plain join split at each ">". It names an edge when exactly one of these
// readings is an edge of the DAG; when two are (a -> b>c and a>b -> c were
// both "a>b>c"), it is ambiguous, and the error gives each edge's key.
func edgeOfKey(key string, edges map[datg.Edge]bool) (datg.Edge, error) {
	var fits []datg.Edge
	add := func(e datg.Edge) {
		if edges[e] && !slices.Contains(fits, e) {
			fits = append(fits, e)
		}
	}
	if e, err := datg.ParseEdgeKey(key); err == nil {
		add(e)
	}
	for _, e := range datg.LegacyEdgeKeyReadings(key) {
		add(e)
	}
	switch len(fits) {
	case 0:
		return datg.Edge{}, fmt.Errorf(`the DAG has no edge %q (keys are parent>child; a ">" or "\" inside an id is written \> or \\, which JSON writes "\\>" or "\\\\")`, key)
	case 1:
		return fits[0], nil
	}
	var each []string
	for _, e := range fits {
		each = append(each, fmt.Sprintf("%q for %q -> %q", e.Key(), e.Parent, e.Child))
	}
	return datg.Edge{}, fmt.Errorf("ambiguous: the DAG has %d edges it may name; write %s", len(fits), strings.Join(each, " or "))
}
