package tables

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// probeNote is the caption's statement of the design a probe table reads:
// the direction probe's traces at its seed, one per problem and cell, and
// the n of the table's cells (its n column: the least and the most when
// they differ).
func probeNote(r *result, seed int64) string {
	note := fmt.Sprintf(" Direction probe only: one trace per problem and cell, seed %d", seed)
	i, ok := r.colOK("n")
	if !ok || len(r.Rows) == 0 {
		return note + "."
	}
	var ns []int64
	for _, row := range r.Rows {
		// A count is BIGINT, a sum of counts HUGEINT: read either as text.
		if n, err := strconv.ParseInt(plain(row[i]), 10, 64); err == nil {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return note + "."
	}
	lo, hi := slices.Min(ns), slices.Max(ns)
	if lo == hi {
		return note + fmt.Sprintf("; n = %d per cell.", lo)
	}
	return note + fmt.Sprintf("; n = %d to %d per cell.", lo, hi)
}

// warnOutsideProbe tells w of base traces at seeds other than the probe's:
// they are in the run (datg generate --seeds, imports) but in no probe
// table, which a user who sampled them for the probe must know.
func warnOutsideProbe(ctx context.Context, db *duck.DB, seed int64, w io.Writer) error {
	if w == nil {
		return nil
	}
	rows, err := db.QueryContext(ctx, `SELECT t.seed, count(*) FROM traces t
		WHERE t.method = 'base' AND NOT probe_trace(t.method, t.seed) GROUP BY t.seed ORDER BY t.seed`)
	if err != nil {
		return fmt.Errorf("base traces outside the probe: %w", err)
	}
	defer rows.Close()
	var n int64
	var seeds []string
	for rows.Next() {
		var s, c int64
		if err := rows.Scan(&s, &c); err != nil {
			return err
		}
		n += c
		seeds = append(seeds, fmt.Sprint(s))
	}
	if err := rows.Err(); err != nil || n == 0 {
		return err
	}
	label := "seed"
	if len(seeds) > 1 {
		label = "seeds"
	}
	const shown = 10
	if len(seeds) > shown {
		seeds = append(seeds[:shown], fmt.Sprintf("and %d more", len(seeds)-shown))
	}
	fmt.Fprintf(w, "datg tables: warning: %d base traces (%s %s) are not the direction probe's (seed %d) and no probe table reads them; --probe-seed reads the probe of another seed\n",
		n, label, strings.Join(seeds, ", "), seed)
	return nil
}
