package annotations

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

// record is one line of the sample: the import annotations format with
// every judgment null (not made yet: the import refuses it until filled)
// and the context an annotator needs under "context", which the import
// does not read.
type record struct {
	Annotator *string                `json:"annotator"`
	TraceID   string                 `json:"trace_id"`
	RefIndex  int32                  `json:"ref_index"`
	Nodes     map[string]*bool       `json:"nodes"`
	Edges     map[string]*bool       `json:"edges"`
	Statuses  map[string]blankStatus `json:"statuses"`
	Harmful   map[string]*bool       `json:"harmful"`
	Context   instanceContext        `json:"context"`
}

// blankStatus is a node's status to fill: COMMIT, ATTEMPT, ERROR or
// MISSING, with the trace text that shows it (none for MISSING).
type blankStatus struct {
	Status       *string `json:"status"`
	EvidenceSpan *string `json:"evidence_span"`
}

// instanceContext is what the annotator reads.
type instanceContext struct {
	Instructions      string      `json:"instructions"`
	Stratum           string      `json:"stratum"` // "sw medium 3/20"
	Seed              int64       `json:"seed"`
	Aligner           string      `json:"aligner"`
	Model             string      `json:"model"`
	Lang              string      `json:"lang"`
	Level             string      `json:"level"`
	Direction         string      `json:"direction"`
	ProblemID         string      `json:"problem_id"`
	DagID             string      `json:"dag_id"`
	Question          string      `json:"question"`
	Trace             string      `json:"trace"`
	DAG               contextDAG  `json:"dag"`
	HarmfulCandidates []candidacy `json:"harmful_candidates"`
}

type contextDAG struct {
	FinalNodeID string      `json:"final_node_id"`
	Nodes       []datg.Node `json:"nodes"`
}

// candidacy is one of the aligner's harmful actions on the pair: every
// item of its three lists is a candidate (the paper's HAR precision counts
// them all). Quote is the text it is judged by, its key under "harmful":
// the evidence_span, or the evidence when it has none, as the paper's
// degenerate_steps do not.
type candidacy struct {
	Category     string `json:"category"`
	Evidence     string `json:"evidence"`
	EvidenceSpan string `json:"evidence_span"`
	Quote        string `json:"quote"`
}

const instructions = `Fill every null, then import with datg import annotations --in FILE. ` +
	`annotator: your name. nodes / edges: true if the DAG's node (edge parent>child; a > or \ inside a node id is written \> or \\) is mathematically valid, else false. ` +
	`statuses: for each node, status COMMIT (the trace establishes it), ATTEMPT (tries without establishing), ERROR (states it wrongly) or MISSING, ` +
	`and evidence_span: the trace text, copied exactly, that shows it (the earliest committing text for COMMIT; null for MISSING). ` +
	`harmful: true if the automatic candidate (its quote is the key: the evidence_span, or the evidence when it has none; see harmful_candidates) is a harmful action, else false. ` +
	`Remove a key to leave it unjudged. Judge from the question, the trace and the DAG below; context is not imported.`

// write builds the drawn instances' records and writes them to cfg.Out.
func write(ctx context.Context, db *duck.DB, cfg Config, aligner string, drawn []candidate) error {
	stored, err := dags.Load(cfg.Data)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Readable keys ("n1>n2": datg.Edge.Key) and trace text; still valid JSON.
	enc.SetEscapeHTML(false)
	perCell := map[[2]string]int{}
	for _, c := range drawn {
		d, ok := stored[c.dagID]
		if !ok || !d.Row.Valid {
			return fmt.Errorf("trace %s: its best DAG %s is not a valid DAG of the run", c.traceID, c.dagID)
		}
		rec, err := instance(ctx, db, aligner, c, d.DAG)
		if err != nil {
			return fmt.Errorf("trace %s: %w", c.traceID, err)
		}
		k := [2]string{c.lang, c.level}
		perCell[k]++
		rec.Context.Stratum = fmt.Sprintf("%s %s %d/%d", c.lang, c.level, perCell[k], cfg.PerLevel)
		rec.Context.Seed = cfg.Seed
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(cfg.Out, buf.Bytes())
}

// instance is one drawn trace's record, judgments blank.
func instance(ctx context.Context, db *duck.DB, aligner string, c candidate, d datg.DAG) (record, error) {
	rec := record{TraceID: c.traceID, RefIndex: c.refIndex, Nodes: map[string]*bool{}, Edges: map[string]*bool{},
		Statuses: map[string]blankStatus{}, Harmful: map[string]*bool{}}
	for _, n := range d.Nodes {
		rec.Nodes[n.NodeID] = nil
		rec.Statuses[n.NodeID] = blankStatus{}
	}
	for _, e := range d.Edges() {
		rec.Edges[e.Key()] = nil
	}
	var question sql.NullString
	var text string
	err := db.QueryRowContext(ctx, `SELECT t.text, p.question FROM traces t
		LEFT JOIN problems p ON p.problem_id = t.problem_id AND p.lang = t.input_lang
		WHERE t.trace_id = ?`, c.traceID).Scan(&text, &question)
	if err != nil {
		return rec, err
	}
	rec.Context = instanceContext{Instructions: instructions, Aligner: aligner, Model: c.model, Lang: c.lang, Level: c.level,
		Direction: string(study.EnX), ProblemID: c.problemID, DagID: c.dagID, Question: question.String, Trace: text,
		DAG: contextDAG{FinalNodeID: d.FinalNodeID, Nodes: d.Nodes}, HarmfulCandidates: []candidacy{}}
	rows, err := db.QueryContext(ctx, `SELECT category, evidence, evidence_span, coalesce(quote, '') FROM stg_harmful_candidates
		WHERE trace_id = ? AND dag_id = ? AND aligner = ?
		ORDER BY CASE category WHEN 'contradictory' THEN 0 WHEN 'harmful_loop' THEN 1 ELSE 2 END, seq`,
		c.traceID, c.dagID, aligner)
	if err != nil {
		return rec, err
	}
	defer rows.Close()
	for rows.Next() {
		var h candidacy
		if err := rows.Scan(&h.Category, &h.Evidence, &h.EvidenceSpan, &h.Quote); err != nil {
			return rec, err
		}
		rec.Context.HarmfulCandidates = append(rec.Context.HarmfulCandidates, h)
		// human_eval matches judgments to candidates by quote: a candidate
		// that quotes nothing cannot be judged, and is listed for context
		// only (human_eval still counts it as a candidate, unjudged).
		if h.Quote != "" {
			rec.Harmful[h.Quote] = nil
		}
	}
	return rec, rows.Err()
}
