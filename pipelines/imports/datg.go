package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
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
		raw, _ := rawJSON(rec.Alignment)
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
