// Package traceids keeps one row per trace in a run's traces table. A
// trace's identity is its (model, input and reasoning languages, level,
// problem, seed, method); datg derives its trace_id from that identity, but
// an import may give its own. Every stage that adds traces (import,
// generate, control, references) checks each new row against the table
// first, so a trace never silently replaces another that happens to have
// its id, and one trace never gets two rows under two ids.
package traceids

import (
	"errors"
	"fmt"
	"iter"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/transforms"
)

// ErrIDTaken means a trace_id already names a trace of another identity.
var ErrIDTaken = errors.New("trace_id already names another trace")

// ErrHeldUnderAnotherID means the table already holds the trace under
// another trace_id.
var ErrHeldUnderAnotherID = errors.New("the table holds this trace under another trace_id")

// KeyOf is a trace's identity: the trace_id datg derives for it.
func KeyOf(t *schema.Trace) string {
	return transforms.TraceID(transforms.TraceKey{Model: t.Model, InputLang: t.InputLang, ReasoningLang: t.ReasoningLang,
		Level: t.Level, ProblemID: t.ProblemID, Seed: t.Seed, Method: t.Method})
}

// Index maps the traces of a table between ids and identities.
type Index struct {
	idOf   map[string]string // identity -> trace_id
	keyOf  map[string]string // trace_id -> identity
	source map[string]string // trace_id -> where the row came from
}

// keyColumns are the traces table's columns a trace's id and identity
// are read from.
type keyColumns struct {
	TraceID       string `parquet:"trace_id"`
	Model         string `parquet:"model"`
	InputLang     string `parquet:"input_lang"`
	ReasoningLang string `parquet:"reasoning_lang"`
	Level         string `parquet:"level"`
	ProblemID     string `parquet:"problem_id"`
	Seed          int64  `parquet:"seed"`
	Method        string `parquet:"method"`
	Source        string `parquet:"source"`
}

// key is the row's identity.
func (r *keyColumns) key() string {
	return KeyOf(&schema.Trace{Model: r.Model, InputLang: r.InputLang, ReasoningLang: r.ReasoningLang,
		Level: r.Level, ProblemID: r.ProblemID, Seed: r.Seed, Method: r.Method})
}

// Load indexes the traces table of the run in dir (empty when there is none).
func Load(dir string) (*Index, error) {
	x := &Index{idOf: map[string]string{}, keyOf: map[string]string{}, source: map[string]string{}}
	err := store.ScanProjection(dir, schema.Traces.Table, func(r *keyColumns) error {
		key := r.key()
		x.idOf[key], x.keyOf[r.TraceID], x.source[r.TraceID] = r.TraceID, key, r.Source
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		err = nil
	}
	return x, err
}

// Check says whether a row with this id and identity may be written: it
// may when the table has neither, or has this very trace under this id
// (the row replaces it).
func (x *Index) Check(id, key string) error {
	if k, ok := x.keyOf[id]; ok && k != key {
		return fmt.Errorf("%w: %s (from %s)", ErrIDTaken, id, x.source[id])
	}
	if held, ok := x.idOf[key]; ok && held != id {
		return fmt.Errorf("%w: %s (from %s), not %s", ErrHeldUnderAnotherID, held, x.source[held], id)
	}
	return nil
}

// ErrCollision means traces a stage would write collide with traces the
// table holds: the stage writes nothing and sends no request.
var ErrCollision = errors.New("traces to be written collide with traces in the table")

// CheckPlan checks every trace a stage is about to derive (by identity;
// its id is the derived one) against the traces table of the run in dir,
// before anything is sent. The error counts the collisions and names the
// first. keys is read more than once.
//
// It holds the smaller side in memory: the table's index when the plan is
// at least as long (generate's, in a new run), else the plan's ids, reading
// the table's key columns past them (references' 1,875 traces against a
// run of 382,500 held an index of every trace, about 250 bytes each).
func CheckPlan(dir string, keys iter.Seq[transforms.TraceKey]) error {
	planned := 0
	for range keys {
		planned++
	}
	rows, err := store.NumRows(dir, schema.Traces.Table)
	if err != nil {
		return err
	}
	var check func(id string) error
	if int64(planned) >= rows {
		x, err := Load(dir)
		if err != nil {
			return err
		}
		check = func(id string) error { return x.Check(id, id) }
	} else if check, err = planChecks(dir, keys); err != nil {
		return err
	}
	n := 0
	var first error
	for k := range keys {
		if err := check(transforms.TraceID(k)); err != nil {
			if n == 0 {
				first = fmt.Errorf("%s %s %s->%s seed %d %s: %w", k.Model, k.ProblemID, k.InputLang, k.ReasoningLang, k.Seed, k.Method, err)
			}
			n++
		}
	}
	if n > 0 {
		return fmt.Errorf("%w: %d, first %w (remove or re-import those traces under the ids datg derives)", ErrCollision, n, first)
	}
	return nil
}

// planChecks reads the traces table once and keeps, of its rows, those
// whose id or identity is a planned trace's id: what Index.Check(id, id)
// asks of a planned id, for the plan's ids alone.
func planChecks(dir string, keys iter.Seq[transforms.TraceKey]) (func(id string) error, error) {
	type row struct{ other, source string } // the row's identity (by id) or id (by identity), and its source
	byID, byKey := map[string]*row{}, map[string]*row{}
	for k := range keys {
		id := transforms.TraceID(k)
		byID[id], byKey[id] = nil, nil
	}
	err := store.ScanProjection(dir, schema.Traces.Table, func(r *keyColumns) error {
		key := r.key()
		// The last row wins, as in Load's maps.
		if _, ok := byID[r.TraceID]; ok {
			byID[r.TraceID] = &row{key, r.Source}
		}
		if _, ok := byKey[key]; ok {
			byKey[key] = &row{r.TraceID, r.Source}
		}
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNoTable) {
		return nil, err
	}
	return func(id string) error {
		if r := byID[id]; r != nil && r.other != id {
			return fmt.Errorf("%w: %s (from %s)", ErrIDTaken, id, r.source)
		}
		if r := byKey[id]; r != nil && r.other != id {
			// Load's source is by id: the source of the row holding it.
			return fmt.Errorf("%w: %s (from %s), not %s", ErrHeldUnderAnotherID, r.other, r.source, id)
		}
		return nil
	}, nil
}
