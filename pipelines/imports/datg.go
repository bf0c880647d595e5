package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/strictjson"
	"github.com/datg/datg/pipelines/align"
	"github.com/datg/datg/pipelines/dags"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms/datg"
)

// dagRecord is one line of a DAG import.
type dagRecord struct {
	ProblemID *string         `json:"problem_id"`
	RefIndex  *float64        `json:"ref_index"`
	DAG       json.RawMessage `json:"dag"`
}

// rawJSON is a JSON value as text: an object as written, a string unquoted
// (a DAG or alignment "as an LLM returned it").
func rawJSON(v json.RawMessage) (string, bool) {
	if len(v) == 0 || string(v) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	return string(v), true
}

func importDAGs(ctx context.Context, cfg Config) (Summary, error) {
	f, err := os.Open(cfg.In)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	known, err := knownProblems(cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	w, err := dags.NewWriter(cfg.Data, store.Meta{Stage: "import dags", ConfigHash: store.HashConfig(filepath.Base(cfg.In))})
	if err != nil {
		return Summary{}, err
	}
	defer w.Abort()
	builder := "import:" + filepath.Base(cfg.In)
	seen := map[string]int{}
	var sum Summary
	err = eachRecord(ctx, cfg.In, f, func(line int, rec *dagRecord) error {
		switch {
		case rec.ProblemID == nil:
			return inputerr.Field(cfg.In, line, "problem_id", fmt.Errorf("%w: missing", ErrBadRecord))
		case identifier("problem_id", *rec.ProblemID) != nil:
			return recordError(cfg.In, line, "", identifier("problem_id", *rec.ProblemID))
		case !known[*rec.ProblemID]:
			return inputerr.Field(cfg.In, line, "problem_id", fmt.Errorf("%w: %s is not in the problems table", ErrBadRecord, *rec.ProblemID))
		case rec.RefIndex == nil:
			return inputerr.Field(cfg.In, line, "ref_index", fmt.Errorf("%w: missing", ErrBadRecord))
		}
		ref, ok := integer(*rec.RefIndex)
		if !ok || ref < 0 || ref > 1000 {
			return inputerr.Field(cfg.In, line, "ref_index", fmt.Errorf("%w: %v is not a reference index", ErrBadRecord, *rec.RefIndex))
		}
		raw, ok := rawJSON(rec.DAG)
		if !ok {
			return inputerr.Field(cfg.In, line, "dag", fmt.Errorf("%w: missing", ErrBadRecord))
		}
		if err := checkEmbeddedText(cfg.In, line, "dag", rec.DAG, raw); err != nil {
			return err
		}
		if err := dagIdentifiers(raw); err != nil {
			return recordError(cfg.In, line, "dag", err)
		}
		id := dags.ID(*rec.ProblemID, int(ref))
		if first, dup := seen[id]; dup {
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: DAG %s is also on line %d", ErrDuplicate, id, first))
		}
		seen[id] = line
		row, nodes, edges, verr := dags.Rows(*rec.ProblemID, int(ref), raw, builder)
		if errors.Is(verr, datg.ErrDAGTooLarge) {
			// Kept as an invalid DAG, it would still fill the tables.
			return inputerr.Field(cfg.In, line, "dag", fmt.Errorf("%w: %w", ErrBadRecord, verr))
		}
		if verr != nil {
			sum.Invalid++
		}
		sum.Records++
		return w.Add(row, nodes, edges)
	})
	if err != nil {
		return sum, err
	}
	if sum.Records == 0 {
		return sum, inputerr.At(cfg.In, 0, fmt.Errorf("%w: no DAGs in the file", ErrBadRecord))
	}
	if err := w.Commit(); err != nil {
		return sum, err
	}
	sum.Replaced, sum.Changed = w.Replaced, w.Changed
	return sum, nil
}

// alignmentRecord is one line of an alignment import.
type alignmentRecord struct {
	TraceID   *string         `json:"trace_id"`
	ProblemID *string         `json:"problem_id"`
	RefIndex  *float64        `json:"ref_index"`
	Alignment json.RawMessage `json:"alignment"`
}

type pendingAlignment struct {
	line    int
	problem string // checked against the trace's problem
	dagID   string
	raw     string
}

// importAlignments checks every line first, then streams the traces table
// once, aligning the lines of each trace as it passes (so only one trace's
// text is in memory at a time).
func importAlignments(ctx context.Context, cfg Config) (Summary, error) {
	f, err := os.Open(cfg.In)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	// The traces and DAGs the lines are checked against come from one
	// generation of the run.
	snap, err := store.Pin(cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer snap.Close()
	stored, err := dags.Load(snap.Dir)
	if err != nil {
		return Summary{}, err
	}
	aligner := cfg.Aligner
	if aligner == "" {
		aligner = "import:" + filepath.Base(cfg.In)
	}
	pending := map[string][]pendingAlignment{} // trace_id -> lines
	seen := map[string]int{}
	var sum Summary
	err = eachRecord(ctx, cfg.In, f, func(line int, rec *alignmentRecord) error {
		for _, f := range []struct {
			name string
			ok   bool
		}{{"trace_id", rec.TraceID != nil}, {"problem_id", rec.ProblemID != nil}, {"ref_index", rec.RefIndex != nil}, {"alignment", len(rec.Alignment) > 0}} {
			if !f.ok {
				return inputerr.Field(cfg.In, line, f.name, fmt.Errorf("%w: missing", ErrBadRecord))
			}
		}
		if err := identifiers([2]string{"trace_id", *rec.TraceID}, [2]string{"problem_id", *rec.ProblemID}); err != nil {
			return recordError(cfg.In, line, "", err)
		}
		raw, _ := rawJSON(rec.Alignment)
		if err := checkEmbeddedText(cfg.In, line, "alignment", rec.Alignment, raw); err != nil {
			return err
		}
		if err := alignmentIdentifiers(raw); err != nil {
			return recordError(cfg.In, line, "alignment", err)
		}
		ref, ok := integer(*rec.RefIndex)
		if !ok || ref < 0 {
			return inputerr.Field(cfg.In, line, "ref_index", fmt.Errorf("%w: %v is not a reference index", ErrBadRecord, *rec.RefIndex))
		}
		id := dags.ID(*rec.ProblemID, int(ref))
		d, ok := stored[id]
		switch {
		case !ok:
			return inputerr.Field(cfg.In, line, "ref_index", fmt.Errorf("%w: no DAG %s (import or build the DAGs first)", ErrBadRecord, id))
		case !d.Row.Valid:
			return inputerr.Field(cfg.In, line, "ref_index", fmt.Errorf("%w: DAG %s is invalid (%s)", ErrBadRecord, id, d.Row.Reason))
		}
		key := *rec.TraceID + "\x00" + id
		if first, dup := seen[key]; dup {
			return inputerr.At(cfg.In, line, fmt.Errorf("%w: trace %s and DAG %s are also on line %d", ErrDuplicate, *rec.TraceID, id, first))
		}
		seen[key] = line
		pending[*rec.TraceID] = append(pending[*rec.TraceID], pendingAlignment{line: line, problem: *rec.ProblemID, dagID: id, raw: raw})
		return nil
	})
	if err != nil {
		return sum, err
	}
	if len(pending) == 0 {
		return sum, inputerr.At(cfg.In, 0, fmt.Errorf("%w: no alignments in the file", ErrBadRecord))
	}
	w, err := align.NewWriter(cfg.Data, store.Meta{Stage: "import alignments", ConfigHash: store.HashConfig(filepath.Base(cfg.In))})
	if err != nil {
		return sum, err
	}
	defer w.Abort()
	err = store.Scan(snap.Dir, schema.Traces, func(t *schema.Trace) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		lines, ok := pending[t.TraceID]
		if !ok {
			return nil
		}
		delete(pending, t.TraceID)
		for _, p := range lines {
			if p.problem != t.ProblemID {
				return inputerr.Field(cfg.In, p.line, "problem_id", fmt.Errorf("%w: trace %s is about %s, not %s", ErrBadRecord, t.TraceID, t.ProblemID, p.problem))
			}
			res := align.Rows(t, stored[p.dagID], aligner, p.raw)
			sum.Records++
			sum.Capped += res.Capped
			if res.Alignment.Status != string(study.AlignmentOK) {
				sum.Invalid++
			}
			if err := w.Add(res); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNoTable) {
		return sum, err
	}
	if len(pending) > 0 {
		missing, first := 0, 0 // lines left, and the first of them
		for _, ls := range pending {
			for _, p := range ls {
				if missing == 0 || p.line < first {
					first = p.line
				}
				missing++
			}
		}
		return sum, inputerr.Field(cfg.In, first, "trace_id", fmt.Errorf("%w: %d lines name traces that are not in the traces table", ErrBadRecord, missing))
	}
	if err := w.Commit(); err != nil {
		return sum, err
	}
	sum.Replaced = w.Replaced()
	return sum, nil
}

// checkEmbeddedText checks the JSON a string field holds (a DAG or an
// alignment "as an LLM returned it") as the record's own strings are
// checked: its escapes are decoded only when the string is read, so a
// lone surrogate escaped in it would become U+FFFD then. value is the
// field as written, raw its text.
func checkEmbeddedText(path string, line int, field string, value json.RawMessage, raw string) error {
	if t := bytes.TrimSpace(value); len(t) == 0 || t[0] != '"' {
		return nil // an object: checked with the record
	}
	obj, err := datg.FindJSONObject(raw)
	if err != nil {
		return nil // no JSON in it: stored as an invalid reply, with the reason
	}
	return checkText(path, line, field, []byte(obj))
}

// dagIdentifiers checks the ids of a DAG's JSON: final_node_id, and each
// node's node_id and parents. A reply that holds no DAG passes: it is
// stored as an invalid DAG.
func dagIdentifiers(raw string) error {
	d, err := datg.ParseDAG(raw)
	if err != nil {
		return nil
	}
	if err := identifier("final_node_id", d.FinalNodeID); err != nil {
		return err
	}
	for i, n := range d.Nodes {
		if err := identifier(fmt.Sprintf("nodes[%d].node_id", i), n.NodeID); err != nil {
			return err
		}
		for j, p := range n.Parents {
			if err := identifier(fmt.Sprintf("nodes[%d].parents[%d]", i, j), p); err != nil {
				return err
			}
		}
	}
	return nil
}

// alignmentIdentifiers checks the node ids that key an alignment's
// audit_results, its events' statuses and its actions' categories. A reply that holds no
// alignment passes: it is stored as invalid, with the reason.
func alignmentIdentifiers(raw string) error {
	a, err := datg.ParseAlignment(raw)
	if err != nil {
		return nil
	}
	for _, list := range []struct {
		name    string
		actions []datg.Action
	}{{"contradictory_steps", a.ContradictorySteps}, {"harmful_loop_steps", a.HarmfulLoopSteps}, {"degenerate_steps", a.DegenerateSteps}} {
		for i, act := range list.actions {
			if err := identifier(fmt.Sprintf("%s[%d].category", list.name, i), act.Category); err != nil {
				return err
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(a.AuditResults)) {
		field := strictjson.AppendKey("audit_results", id)
		if err := identifier(field, id); err != nil {
			return err
		}
		for i, e := range a.AuditResults[id] {
			if err := identifier(fmt.Sprintf("%s[%d].status", field, i), e.Status); err != nil {
				return err
			}
		}
	}
	return nil
}
