package view

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/datg/datg/pipelines/tables"
)

// maxNotedSeeds bounds the seeds a probe note names (an import may have
// one per trace).
const maxNotedSeeds = 10

// noteEmptyProbe says in each probe table that has no rows, and nothing
// else to say why (an error, stale or missing inputs), why, when the run
// has no base trace at the probe's seed (datg view --probe-seed, 42 by
// default; scripts/scale.sh's runs are at seed 1): the seeds its base
// traces are at, and the flag that reads one of them. When the run has
// base traces at that seed a table is empty for another reason, said by
// nothing here.
func noteEmptyProbe(ctx context.Context, r *runDB, results []tableResult) error {
	scope := map[string]string{}
	for _, l := range tables.Listings() {
		scope[l.Name] = l.Scope
	}
	var empty []*tableResult
	for i := range results {
		tr := &results[i]
		if scope[tr.Name] == "probe" && len(tr.Rows) == 0 && tr.Err == "" && len(tr.Stale) == 0 && len(tr.Missing) == 0 {
			empty = append(empty, tr)
		}
	}
	if len(empty) == 0 {
		return nil
	}
	// The base traces' seeds, the probe's first if it is one: two columns
	// of the traces, read once per generation (the tables are kept with
	// their notes).
	rows, err := r.db.QueryContext(ctx, `SELECT DISTINCT seed FROM traces WHERE method = 'base' ORDER BY seed = ? DESC, seed LIMIT ?`,
		r.probeSeed, maxNotedSeeds+1)
	if err != nil {
		return fmt.Errorf("reading the seeds of the run's base traces: %w", err)
	}
	defer rows.Close()
	var seeds []int64
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return fmt.Errorf("reading the seeds of the run's base traces: %w", err)
		}
		if s == r.probeSeed {
			return nil
		}
		seeds = append(seeds, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the seeds of the run's base traces: %w", err)
	}
	note := probeSeedNote(r.probeSeed, seeds)
	for _, tr := range empty {
		tr.Empty = note
	}
	return nil
}

// probeSeedNote is the note for a probe at seed, the run's base traces
// being at seeds (sorted; more than maxNotedSeeds: some are left out).
func probeSeedNote(seed int64, seeds []int64) string {
	if len(seeds) == 0 {
		return fmt.Sprintf("the direction probe's traces are the base traces at seed %d (datg view --probe-seed), and this run has no base trace (method base: datg generate, or datg import traces)", seed)
	}
	if len(seeds) == 1 {
		return fmt.Sprintf("this run's direction-probe traces are at seed %d, not %d: start datg view with --probe-seed %d", seeds[0], seed, seeds[0])
	}
	var names []string
	for _, s := range seeds[:min(len(seeds), maxNotedSeeds)] {
		names = append(names, strconv.FormatInt(s, 10))
	}
	list := strings.Join(names, ", ")
	if len(seeds) > maxNotedSeeds {
		list += ", ..."
	}
	return fmt.Sprintf("this run's base traces, the direction probe's, are at seeds %s, none at %d: start datg view with --probe-seed and one of them (--probe-seed %d: the first)", list, seed, seeds[0])
}
