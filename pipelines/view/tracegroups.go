package view

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/datg/datg/schema"
)

// The trace pages' reads of their traces' rows by row group (groupread.go),
// one trace's (the server's page) or a batch's (an export's), each row
// group read once for all: the same rows, values and order as
// traceread.go's queries over DuckDB's views. Each projection reads a
// column as a pointer, so a NULL is told from a zero: a NULL is "" where the
// query scanned into sql.NullString, an error where it scanned into a plain
// value (as the driver's scan is), and NULL where it kept it (sql.Null*).
// DuckDB orders strings by their bytes, NULLs last, as cmpNullable does.

// textKeyRow is a trace's text and how it ended, and its id.
type textKeyRow struct {
	TraceID *string `parquet:"trace_id"`
	Text    *string `parquet:"text"`
	Finish  *string `parquet:"finish_reason"`
}

// groupTexts reads the texts of ids: of a row group's texts only the pages
// that hold them. For an export's batch, DuckDB's join (readText) decoded
// every text of the run, a row group's whole text column at a time: at
// real lengths more than the viewer's 256 MiB (BENCHMARKS.md).
func (t *traceRows) groupTexts(g *groupFiles, ids []string) error {
	rows, err := groupRowsOfAny(g, schema.Traces.Table, "trace_id", ids, func(*textKeyRow) error { return nil })
	if err != nil {
		return fmt.Errorf("reading the text of %s: %w", idsWhat(ids), err)
	}
	for _, r := range rows { // in file order: the last row of an id wins, as in the query's loop
		t.text[*r.TraceID], t.finish[*r.TraceID] = strOf(r.Text), strOf(r.Finish)
	}
	for _, id := range ids {
		if _, ok := t.text[id]; !ok {
			return fmt.Errorf("reading trace %q: %w", id, sql.ErrNoRows)
		}
	}
	return nil
}

type eventRow struct {
	DagID   *string `parquet:"dag_id"`
	Aligner *string `parquet:"aligner"`
	NodeID  *string `parquet:"node_id"`
	Seq     *int32  `parquet:"seq"`
	Status  *string `parquet:"status"`
	Span    *string `parquet:"evidence_span"`
	Start   *int32  `parquet:"start_char"`
	End     *int32  `parquet:"end_char"`
	Block   *int32  `parquet:"block_id"`
}

type harmRow struct {
	DagID    *string `parquet:"dag_id"`
	Aligner  *string `parquet:"aligner"`
	Label    *string `parquet:"label"`
	Category *string `parquet:"category"`
	Seq      *int32  `parquet:"seq"`
	Span     *string `parquet:"evidence_span"`
	Start    *int32  `parquet:"start_char"`
	End      *int32  `parquet:"end_char"`
}

// groupEvents reads the alignment events and harmful actions of ids.
func (t *traceRows) groupEvents(g *groupFiles, ids []string) error {
	events, err := groupRowsByKey(g, schema.AlignmentEvents.Table, "trace_id", ids, func(e *eventRow) error {
		return required("dag_id", e.DagID, "aligner", e.Aligner, "node_id", e.NodeID, "status", e.Status, "evidence_span", e.Span)
	})
	if err != nil {
		return fmt.Errorf("reading the alignment of %s: %w", idsWhat(ids), err)
	}
	harms, err := groupRowsByKey(g, schema.HarmfulActions.Table, "trace_id", ids, func(h *harmRow) error {
		return required("dag_id", h.DagID, "aligner", h.Aligner, "label", h.Label, "category", h.Category, "evidence_span", h.Span)
	})
	if err != nil {
		return fmt.Errorf("reading the alignment of %s: %w", idsWhat(ids), err)
	}
	for id, rows := range events {
		// ORDER BY aligner, dag_id, node_id, seq
		slices.SortStableFunc(rows, func(a, b eventRow) int {
			return cmp.Or(strings.Compare(*a.Aligner, *b.Aligner), strings.Compare(*a.DagID, *b.DagID),
				strings.Compare(*a.NodeID, *b.NodeID), cmpNullable(a.Seq, b.Seq))
		})
		for _, e := range rows {
			t.events[id] = append(t.events[id], event{DagID: *e.DagID, Aligner: *e.Aligner, NodeID: *e.NodeID, Status: *e.Status,
				Span: *e.Span, Start: nullInt32(e.Start), End: nullInt32(e.End), Block: nullInt32(e.Block)})
		}
	}
	for id, rows := range harms {
		// ORDER BY aligner, dag_id, category, seq
		slices.SortStableFunc(rows, func(a, b harmRow) int {
			return cmp.Or(strings.Compare(*a.Aligner, *b.Aligner), strings.Compare(*a.DagID, *b.DagID),
				strings.Compare(*a.Category, *b.Category), cmpNullable(a.Seq, b.Seq))
		})
		for _, h := range rows {
			t.harms[id] = append(t.harms[id], event{DagID: *h.DagID, Aligner: *h.Aligner, NodeID: *h.Label, Status: *h.Category,
				Span: *h.Span, Start: nullInt32(h.Start), End: nullInt32(h.End)})
		}
	}
	return nil
}

// idsWhat names the traces a read was of, for errors.
func idsWhat(ids []string) string {
	if len(ids) == 1 {
		return fmt.Sprintf("%q", ids[0])
	}
	return fmt.Sprintf("%d traces", len(ids))
}

type scoreRowRead struct {
	DagID    *string  `parquet:"dag_id"`
	Aligner  *string  `parquet:"aligner"`
	RefIndex *int32   `parquet:"ref_index"`
	CAR      *float64 `parquet:"car"`
	PMF      *float64 `parquet:"pmf"`
	HAR      *float64 `parquet:"har"`
	Best     *bool    `parquet:"best"`
}

// groupScores reads the scores of ids.
func (t *traceRows) groupScores(g *groupFiles, ids []string) error {
	byID, err := groupRowsByKey(g, schema.Scores.Table, "trace_id", ids, func(s *scoreRowRead) error {
		return required("dag_id", s.DagID, "aligner", s.Aligner, "ref_index", s.RefIndex, "car", s.CAR, "har", s.HAR, "best", s.Best)
	})
	if err != nil {
		return fmt.Errorf("reading the scores of %s: %w", idsWhat(ids), err)
	}
	for id, rows := range byID {
		// ORDER BY aligner, ref_index
		slices.SortStableFunc(rows, func(a, b scoreRowRead) int {
			return cmp.Or(strings.Compare(*a.Aligner, *b.Aligner), cmp.Compare(*a.RefIndex, *b.RefIndex))
		})
		for _, r := range rows {
			s := score{dagID: *r.DagID, aligner: *r.Aligner, ref: int(*r.RefIndex)}
			s.cell = scoreCell{Has: true, Best: *r.Best, CAR: *r.CAR, HAR: *r.HAR}
			if r.PMF != nil {
				s.cell.PMF = sql.NullFloat64{Float64: *r.PMF, Valid: true}
			}
			t.scores[id] = append(t.scores[id], s)
		}
	}
	return nil
}

// gradeRow is a row of verdicts or of answers: the columns the page shows.
type gradeRow struct {
	Grader    *string `parquet:"grader"`
	Extracted *string `parquet:"extracted"`
	HasAnswer *bool   `parquet:"has_answer"`
	Correct   *bool   `parquet:"correct"`
	Reason    *string `parquet:"reason"`
	FoundIn   *string `parquet:"found_in"`
}

func (r *gradeRow) check() error {
	return required("grader", r.Grader, "extracted", r.Extracted, "has_answer", r.HasAnswer, "correct", r.Correct,
		"reason", r.Reason, "found_in", r.FoundIn)
}

// groupVerdicts is readVerdicts' union: every grader's verdict, then the
// answers of a grader (answers.grader's first word) with none; of ids.
func (t *traceRows) groupVerdicts(g *groupFiles, ids []string) error {
	check := func(r *gradeRow) error { return r.check() }
	verdicts, err := groupRowsByKey(g, schema.Verdicts.Table, "trace_id", ids, check)
	var answers map[string][]gradeRow
	if err == nil {
		answers, err = groupRowsByKey(g, schema.Answers.Table, "trace_id", ids, check)
	}
	if err != nil {
		return fmt.Errorf("reading the verdicts of %s: %w", idsWhat(ids), err)
	}
	for _, id := range ids {
		rows := verdicts[id]
		graded := rows[:len(rows):len(rows)] // NOT EXISTS looks in verdicts only
		for _, a := range answers[id] {
			name, _, _ := strings.Cut(*a.Grader, " ") // split_part(grader, ' ', 1)
			if !slices.ContainsFunc(graded, func(v gradeRow) bool { return *v.Grader == name }) {
				rows = append(rows, a)
			}
		}
		slices.SortStableFunc(rows, func(a, b gradeRow) int { return strings.Compare(*a.Grader, *b.Grader) }) // ORDER BY k, grader
		for _, r := range rows {
			v := verdictView{Grader: *r.Grader, Extracted: *r.Extracted, Reason: *r.Reason, FoundIn: *r.FoundIn,
				Verdict: verdictOf(*r.Reason, *r.HasAnswer, *r.Correct)}
			t.verdicts[id] = append(t.verdicts[id], v)
		}
	}
	return nil
}

// checkRow is a row of detections or of compliance: the columns the page
// shows, and compliance's settings (absent from files before v0.3.0) for
// its detector's old form.
type checkRow struct {
	Detector  *string `parquet:"detector"`
	Detected  *string `parquet:"detected"`
	Compliant *bool   `parquet:"compliant"`
	Status    *string `parquet:"status"`
	Shares    *string `parquet:"shares"`
}

type complianceRow struct {
	checkRow
	Settings *string `parquet:"settings"`
}

func (r *checkRow) check() error {
	return required("detector", r.Detector, "detected", r.Detected, "compliant", r.Compliant, "status", r.Status, "shares", r.Shares)
}

// groupDetections is readDetections' union: every detector's decision,
// then compliance's for a detector with none; of ids. Compliance's
// detector is read as schema.Compliances' ReadExpr reads it: before
// v0.3.0 (no settings) it held "<name>: <settings>", the name is what
// precedes the first ": ".
func (t *traceRows) groupDetections(g *groupFiles, ids []string) error {
	detections, err := groupRowsByKey(g, schema.Detections.Table, "trace_id", ids, func(r *checkRow) error { return r.check() })
	var compliance map[string][]complianceRow
	if err == nil {
		compliance, err = groupRowsByKey(g, schema.Compliances.Table, "trace_id", ids, func(r *complianceRow) error { return r.check() })
	}
	if err != nil {
		return fmt.Errorf("reading the language checks of %s: %w", idsWhat(ids), err)
	}
	for _, id := range ids {
		rows := detections[id]
		decided := rows[:len(rows):len(rows)] // NOT EXISTS looks in detections only
		for _, c := range compliance[id] {
			c.checkRow.Detector = complianceDetector(*c.Detector, c.Settings)
			if !slices.ContainsFunc(decided, func(d checkRow) bool { return *d.Detector == *c.Detector }) {
				rows = append(rows, c.checkRow)
			}
		}
		slices.SortStableFunc(rows, func(a, b checkRow) int { return strings.Compare(*a.Detector, *b.Detector) }) // ORDER BY k, detector
		for _, r := range rows {
			t.detections[id] = append(t.detections[id], detectionView{Detector: *r.Detector, Detected: *r.Detected,
				Compliant: *r.Compliant, Status: *r.Status, Shares: *r.Shares})
		}
	}
	return nil
}

// complianceDetector is schema's ReadExpr of compliance.detector:
// CASE WHEN settings IS NULL AND strpos(detector, ': ') > 0
// THEN split_part(detector, ': ', 1) ELSE detector END.
func complianceDetector(detector string, settings *string) *string {
	if settings == nil {
		if name, _, ok := strings.Cut(detector, ": "); ok {
			return &name
		}
	}
	return &detector
}

// cmpNullable orders as DuckDB's ORDER BY: NULL last.
func cmpNullable[T cmp.Ordered](a, b *T) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Compare(*a, *b)
}

func nullInt32(p *int32) sql.NullInt32 {
	if p == nil {
		return sql.NullInt32{}
	}
	return sql.NullInt32{Int32: *p, Valid: true}
}
