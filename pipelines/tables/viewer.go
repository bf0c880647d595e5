package tables

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/duck"
)

// Listing is an output table as a viewer lists it: its name (the query
// sql/tables/<Name>.sql) and the traces its cells are over.
type Listing struct {
	Name string
	// Scope names the traces the query reads: "probe" (base traces at the
	// probe's seed), "control" (the control study's), "reference" (the
	// accepted reference derivations) or "all".
	Scope string
}

// Listings are every output table in the paper's order (the registry's),
// so datg view links each cell to the traces behind it.
func Listings() []Listing {
	scope := map[string]string{probeTraces.where: "probe", controlTraces.where: "control", referenceTraces.where: "reference", allTraces.where: "all"}
	out := make([]Listing, len(registry))
	for i, t := range registry {
		out[i] = Listing{Name: t.Name, Scope: scope[t.Reads.where]}
	}
	return out
}

// Readiness is whether datg tables would write a table over the run as it
// is: Missing are the inputs the run lacks (the table is skipped), Stale
// what is stale in its inputs and what to run (the table is refused: its
// numbers would count old verdicts or scores); both empty when it is
// written.
type Readiness struct {
	Missing []string
	// MissingRun says what to run for the missing inputs, as datg tables
	// says when it skips the table.
	MissingRun string
	Stale      []string
}

// CheckListings checks every listed table's inputs as datg tables does
// before writing them, each input once, so a viewer refuses the same
// tables.
func CheckListings(ctx context.Context, db *duck.DB) (map[string]Readiness, error) {
	// The checks' queries join whole inputs: the pages DuckDB's allocator
	// keeps from them are returned before the tables' queries run.
	defer duck.ReleaseMemory()
	check := newInputCheck(db)
	out := map[string]Readiness{}
	for _, t := range registry {
		missing, stale, err := check.ready(ctx, t)
		if err != nil {
			return nil, err
		}
		r := Readiness{Missing: missing}
		if len(missing) > 0 {
			r.MissingRun = producers(missing)
		}
		for _, s := range stale {
			r.Stale = append(r.Stale, fmt.Sprintf("%s: %s (run %s)", s.input, s.what, inputs[s.input].producer))
		}
		out[t.Name] = r
	}
	return out, nil
}

// OpenRun opens the run's database as datg tables does, with the same
// limits (its DuckDB memory cap), so a viewer computing the tables in a
// process of their own runs them as datg tables runs them.
func OpenRun(ctx context.Context, dir string) (*duck.DB, error) {
	return openRun(ctx, dir)
}

// SharedInputs keeps, in one run's database, the rows of the staging views
// several tables read (the DATG bootstrap: sharedViews), the first time a
// table's query names one, as datg tables does: the bootstrap is then
// computed once for datg_main and datg_full, not once for each.
type SharedInputs struct{ s *sharedInputs }

// NewSharedInputs keeps shared views' rows in db, for the tables' queries
// run over it after.
func NewSharedInputs(db *duck.DB) *SharedInputs {
	return &SharedInputs{newSharedInputs(db.DB)}
}

// Prepare keeps the rows of every shared view query names, once.
func (s *SharedInputs) Prepare(ctx context.Context, query string) error {
	return s.s.prepare(ctx, query)
}
