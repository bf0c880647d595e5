package align

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/datg/datg/transforms/datg"
)

// Result is an alignment with all its rows.
type Result struct {
	Alignment schema.Alignment
	Events    []schema.AlignmentEvent
	Actions   []schema.HarmfulAction
	Errors    []schema.AlignmentError
	// LocateSteps is the work locating the spans took (datg.Locator), at
	// most datg.LocateBudget of the trace's length.
	LocateSteps int
	// Capped counts the spans a cap of the locator stopped (each an error
	// row of kind locate-capped).
	Capped int
	// grown says the reply came with a larger budget than the stage's,
	// the first having spent it reasoning; spent that the reply still
	// spent it (spentReasoning).
	grown, spent bool
}

// spentReasoning records why a reply held no usable alignment: the
// aligner spent its token budget reasoning (llm.SpentOnReasoning), also
// when asked again with a larger one. Its error row is of kind
// budget-spent-reasoning instead of invalid-json.
func (r *Result) spentReasoning(req llm.Request, resp llm.Response, budget int) {
	detail := fmt.Sprintf("the aligner spent its budget reasoning: %d of %d completion tokens were reasoning (finish_reason length, max_completion_tokens %d)",
		resp.ReasoningTokens, resp.CompletionTokens, req.MaxTokens)
	if req.MaxTokens > budget {
		detail += fmt.Sprintf(", asked again after the first reply spent %d", budget)
	}
	r.Errors = []schema.AlignmentError{{TraceID: r.Alignment.TraceID, DagID: r.Alignment.DagID, Aligner: r.Alignment.Aligner,
		Kind: string(study.BudgetSpentReasoning), Detail: detail}}
	r.Alignment.Status, r.Alignment.Problems = string(study.AlignmentInvalidJSON), 1
	r.spent = true
}

// Rows reads an alignment reply about a trace and a DAG into rows: events of
// known nodes with their spans located, harmful actions, and the problems
// found. A reply without a usable alignment gives an alignment with status
// invalid-json and the reason as an error row. The alignment records the
// trace's text hash and the DAG's content hash it was made on.
func Rows(trace *schema.Trace, d *dags.Stored, aligner, raw string) Result {
	return readTrace(trace).rows(d, aligner, raw)
}

// readText is a trace read for the rows of its alignments: its text's
// hash and its text indexed for locating spans, made once for all the
// DAGs it is aligned to (the symbolic aligner's five a trace) instead of
// once a pair. It is not safe for concurrent use (the index is extended
// as spans are located).
type readText struct {
	trace *schema.Trace
	hash  string
	text  *datg.Trace
}

func readTrace(trace *schema.Trace) *readText {
	return &readText{trace: trace, hash: transforms.TextHash(trace.Text), text: datg.NewTrace(trace.Text)}
}

// rows is Rows of the trace read.
func (rt *readText) rows(d *dags.Stored, aligner, raw string) Result {
	trace := rt.trace
	dagID, dag := d.Row.DagID, d.DAG
	res := Result{Alignment: schema.Alignment{TraceID: trace.TraceID, DagID: dagID, Aligner: aligner, Status: string(study.AlignmentOK),
		Raw: raw, TextHash: rt.hash, DagHash: d.Row.ContentHash, CreatedAt: time.Now().UTC()}}
	errRow := func(kind study.AlignmentErrorKind, detail string) {
		res.Errors = append(res.Errors, schema.AlignmentError{TraceID: trace.TraceID, DagID: dagID, Aligner: aligner,
			Seq: int32(len(res.Errors)), Kind: string(kind), Detail: detail})
	}
	a, err := datg.ParseAlignment(raw)
	if err != nil {
		res.Alignment.Status = string(study.AlignmentInvalidJSON)
		errRow(study.InvalidJSON, err.Error())
		res.Alignment.Problems = 1
		return res
	}
	events, actions, problems := datg.Check(dag, a)
	t := rt.text
	// One budget for the alignment's spans: a span a cap stops is kept
	// unlocated, and recorded after the reply's problems.
	l := t.Locator()
	var capped []datg.Problem
	locate := func(item, span string) datg.Location {
		loc := l.Locate(span)
		if loc.Cut != "" {
			capped = append(capped, datg.Problem{Kind: study.LocateCapped,
				Detail: fmt.Sprintf("%s: a span of %d characters was not located: %s: %q", item, utf8.RuneCountInString(span), loc.Cut, clip(span, 80))})
		}
		return loc
	}
	for _, e := range events {
		row := schema.AlignmentEvent{TraceID: trace.TraceID, DagID: dagID, Aligner: aligner, NodeID: e.NodeID,
			Seq: int32(e.Seq), Status: e.Status, Evidence: e.Evidence, EvidenceSpan: e.EvidenceSpan}
		loc := locate(fmt.Sprintf("node %s event %d", e.NodeID, e.Seq), e.EvidenceSpan)
		row.Match = loc.Match
		if loc.Found() {
			start, end, block := int32(loc.Start), int32(loc.End), int32(t.Block(loc.Start))
			progress := float64(loc.Start) / float64(max(1, t.Len()))
			row.StartChar, row.EndChar, row.BlockID, row.CommitProgress = &start, &end, &block, &progress
		} else {
			res.Alignment.Unlocated++
		}
		res.Events = append(res.Events, row)
	}
	for _, act := range actions {
		row := schema.HarmfulAction{TraceID: trace.TraceID, DagID: dagID, Aligner: aligner, Category: act.Category,
			Seq: int32(act.Seq), Label: act.Action.Category, Evidence: act.Evidence, EvidenceSpan: act.EvidenceSpan}
		span := act.EvidenceSpan
		if span == "" {
			span = act.Evidence
		}
		if loc := locate(fmt.Sprintf("%s_steps item %d", act.Category, act.Seq+1), span); loc.Found() {
			start, end := int32(loc.Start), int32(loc.End)
			row.StartChar, row.EndChar = &start, &end
		}
		res.Actions = append(res.Actions, row)
	}
	matchActions(res.Events, res.Actions)
	for _, p := range append(problems, capped...) {
		errRow(p.Kind, p.Detail)
	}
	res.LocateSteps, res.Capped = l.Spent(), len(capped)
	res.Alignment.Events, res.Alignment.Actions, res.Alignment.Problems = int32(len(res.Events)), int32(len(res.Actions)), int32(len(res.Errors))
	return res
}

// matchActions records, on each harmful action, the node event it is
// matched to (datg.MatchActions): events in the order of the rows (DAG
// node order, then seq), actions in list order.
func matchActions(events []schema.AlignmentEvent, actions []schema.HarmfulAction) {
	span := func(text string, start, end *int32) datg.Span {
		s := datg.Span{Text: text}
		if start != nil && end != nil {
			s.Start, s.End, s.Located = int(*start), int(*end), true
		}
		return s
	}
	es := make([]datg.Span, len(events))
	for i, e := range events {
		es[i] = span(e.EvidenceSpan, e.StartChar, e.EndChar)
	}
	as := make([]datg.Span, len(actions))
	for i, a := range actions {
		as[i] = span(a.EvidenceSpan, a.StartChar, a.EndChar)
	}
	for i, j := range datg.MatchActions(es, as) {
		if j >= 0 {
			seq := events[j].Seq
			actions[i].MatchedNode, actions[i].MatchedSeq = events[j].NodeID, &seq
		}
	}
}

// Writer merges alignments into their four tables, committed together; an
// alignment written replaces that (trace, DAG, aligner)'s rows in all of
// them. Its rows in the four tables are given together, once, so the
// tables keep one digest an alignment to find duplicates and the rows it
// replaces (store.Groups), not one per row.
type Writer struct {
	tx      *store.Tx
	groups  *store.Groups
	aligns  *store.Merger[schema.Alignment]
	events  *store.Merger[schema.AlignmentEvent]
	actions *store.Merger[schema.HarmfulAction]
	errs    *store.Merger[schema.AlignmentError]
}

// groupCols are the key columns an alignment's rows share in each table:
// trace_id, dag_id, aligner.
const groupCols = 3

func group(traceID, dagID, aligner string) string { return traceID + "\x00" + dagID + "\x00" + aligner }

// NewWriter starts a merge into the alignment tables.
func NewWriter(dir string, meta store.Meta) (*Writer, error) {
	tx, err := store.Begin(dir, meta)
	if err != nil {
		return nil, err
	}
	w := &Writer{tx: tx, groups: store.NewGroups()}
	if w.aligns, err = store.MergeGroupsIn(tx, schema.Alignments, w.groups, groupCols); err == nil {
		if w.events, err = store.MergeGroupsIn(tx, schema.AlignmentEvents, w.groups, groupCols); err == nil {
			if w.actions, err = store.MergeGroupsIn(tx, schema.HarmfulActions, w.groups, groupCols); err == nil {
				w.errs, err = store.MergeGroupsIn(tx, schema.AlignmentErrors, w.groups, groupCols)
			}
		}
	}
	if err != nil {
		tx.Abort()
		return nil, err
	}
	return w, nil
}

// Add writes one alignment's rows.
func (w *Writer) Add(r Result) error {
	if err := w.groups.Begin(group(r.Alignment.TraceID, r.Alignment.DagID, r.Alignment.Aligner)); err != nil {
		return fmt.Errorf("%s: %w", schema.Alignments.Name, err)
	}
	return errors.Join(w.aligns.Write(r.Alignment), w.events.Write(r.Events...), w.actions.Write(r.Actions...), w.errs.Write(r.Errors...))
}

// Commit makes the new versions the tables, all four at once.
func (w *Writer) Commit() error { return w.tx.Commit() }

// Replaced is the number of alignments that replaced one already in the run
// (set by Commit).
func (w *Writer) Replaced() int { return w.aligns.Replaced }

// Abort discards the new versions.
func (w *Writer) Abort() { w.tx.Abort() }

// clip is s cut to at most n characters, marked when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
