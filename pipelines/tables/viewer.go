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
	Stale   []string
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
		for _, s := range stale {
			r.Stale = append(r.Stale, fmt.Sprintf("%s: %s (run %s)", s.input, s.what, inputs[s.input].producer))
		}
		out[t.Name] = r
	}
	return out, nil
}
