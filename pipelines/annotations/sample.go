package annotations

import (
	"github.com/datg/datg/internal/inputerr"

	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// Cell is one (language, level) stratum of the draw.
type Cell struct {
	Lang, Level string
	Candidates  int // scored base en-x traces of the cell
	Drawn       int // instances written: PerLevel, or every candidate when fewer
}

// Short reports whether the cell had fewer candidates than asked for.
func (c Cell) Short(perLevel int) bool { return c.Candidates < perLevel }

// Summary says what was drawn.
type Summary struct {
	Aligner   string
	Instances int
	Cells     []Cell // in the order of Config.Langs, then Config.Levels
}

// candidate is a scored trace that may be audited, with its best DAG.
type candidate struct {
	traceID, model, lang, level, problemID, dagID string
	refIndex                                      int32
}

// Run draws the audit and writes it to cfg.Out (atomically: a reader sees
// the previous file or the whole new one). An existing file is kept unless
// cfg.Force.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	if !cfg.Force {
		if _, err := os.Stat(cfg.Out); err == nil {
			return Summary{}, inputerr.BadField("Force", "%w: %s (kept: replacing it would lose filled-in judgments)", ErrOutputExists, cfg.Out)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return Summary{}, err
		}
	}
	db, err := duck.Open(ctx, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer db.Close()
	for _, t := range []string{"traces", "scores"} {
		if !db.Present[t] {
			return Summary{}, fmt.Errorf("%w: no %s in %s (the audit draws scored traces: run datg align and datg score first)", ErrNothingToSample, t, cfg.Data)
		}
	}
	aligner, err := chooseAligner(ctx, db, cfg.Aligner)
	if err != nil {
		return Summary{}, err
	}
	cands, err := candidates(ctx, db, cfg, aligner)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Aligner: aligner}
	var drawn []candidate
	for _, lang := range cfg.Langs {
		for _, level := range cfg.Levels {
			cell := cands[[2]string{lang, level}]
			take := draw(cell, cfg.Seed, cfg.PerLevel)
			sum.Cells = append(sum.Cells, Cell{Lang: lang, Level: level, Candidates: len(cell), Drawn: len(take)})
			drawn = append(drawn, take...)
		}
	}
	if len(drawn) == 0 {
		return sum, fmt.Errorf("%w: no scored base en-x traces of aligner %s in languages %s and levels %s",
			ErrNothingToSample, aligner, strings.Join(cfg.Langs, ","), strings.Join(cfg.Levels, ","))
	}
	sum.Instances = len(drawn)
	return sum, write(ctx, db, cfg, aligner, drawn)
}

// chooseAligner is the asked aligner, checked, or the run's only one.
func chooseAligner(ctx context.Context, db *duck.DB, asked string) (string, error) {
	rows, err := db.QueryContext(ctx, "SELECT DISTINCT aligner FROM scores ORDER BY aligner")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var all []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return "", err
		}
		all = append(all, a)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch {
	case len(all) == 0:
		return "", fmt.Errorf("%w: the scores table is empty", ErrNothingToSample)
	case asked != "" && !slices.Contains(all, asked):
		return "", fmt.Errorf("%w: aligner %q has no scores (the run has %s)", ErrNothingToSample, asked, strings.Join(all, ", "))
	case asked != "":
		return asked, nil
	case len(all) > 1:
		return "", inputerr.BadField("Aligner", "%w: the scores come from %s; choose one", ErrAmbiguousAligner, strings.Join(all, ", "))
	}
	return all[0], nil
}

// candidates are the audit's population by (language, level): base en-x
// traces with a current best score under the aligner.
func candidates(ctx context.Context, db *duck.DB, cfg Config, aligner string) (map[[2]string][]candidate, error) {
	args := []any{aligner}
	in := func(xs []string) string {
		marks := make([]string, len(xs))
		for i, x := range xs {
			marks[i], args = "?", append(args, x)
		}
		return "(" + strings.Join(marks, ", ") + ")"
	}
	q := `SELECT t.trace_id, t.model, t.reasoning_lang, t.level, t.problem_id, s.dag_id, s.ref_index
		FROM scores s
		JOIN traces t USING (trace_id)
		JOIN stg_alignment_lineage l ON l.trace_id = s.trace_id AND l.dag_id = s.dag_id AND l.aligner = s.aligner
		WHERE s.best AND s.aligner = ? AND probe_trace(t.method, t.seed) AND t.direction = 'en-x'
		  AND l.scorable AND l.alignment_hash = s.alignment_hash
		  AND l.text_hash IS NOT DISTINCT FROM s.text_hash AND l.dag_hash = s.dag_hash
		  AND t.reasoning_lang IN ` + in(cfg.Langs) + ` AND t.level IN ` + in(cfg.Levels)
	if len(cfg.Models) > 0 {
		q += ` AND t.model IN ` + in(cfg.Models)
	}
	q += ` ORDER BY t.trace_id`
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the scored traces: %w", err)
	}
	defer rows.Close()
	out := map[[2]string][]candidate{}
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.traceID, &c.model, &c.lang, &c.level, &c.problemID, &c.dagID, &c.refIndex); err != nil {
			return nil, err
		}
		k := [2]string{c.lang, c.level}
		out[k] = append(out[k], c)
	}
	return out, rows.Err()
}

// draw takes n of a cell's candidates: those first in the order of
// SHA-256(seed, trace id), a seeded shuffle that does not depend on the
// order the candidates came in.
func draw(cell []candidate, seed int64, n int) []candidate {
	type keyed struct {
		key [sha256.Size]byte
		c   candidate
	}
	ks := make([]keyed, len(cell))
	for i, c := range cell {
		ks[i] = keyed{sha256.Sum256([]byte(fmt.Sprintf("datg-audit/%d/%s", seed, c.traceID))), c}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := strings.Compare(string(a.key[:]), string(b.key[:])); c != 0 {
			return c
		}
		return strings.Compare(a.c.traceID, b.c.traceID)
	})
	out := make([]candidate, 0, min(n, len(ks)))
	for _, k := range ks[:min(n, len(ks))] {
		out = append(out, k.c)
	}
	return out
}
