package tables

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/datg/datg/internal/atomicfile"
	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/pipelines/prompts"
	datgsql "github.com/datg/datg/sql"
)

// Config is one tables run.
type Config struct {
	Data string
	Out  string // default DIR/tables
	// Only, when set, limits the run to these tables.
	Only   []string
	Stdout io.Writer // told where each output went
}

// Run writes every table. It refuses to run on traces that are not graded,
// since their accuracy would silently count as wrong.
func Run(ctx context.Context, cfg Config) ([]string, error) {
	out := cfg.Out
	if out == "" {
		out = filepath.Join(cfg.Data, "tables")
	}
	db, err := duck.Open(ctx, cfg.Data)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if !db.Present["traces"] {
		return nil, fmt.Errorf("%w in %s (run datg generate or datg import traces)", ErrNoTraces, cfg.Data)
	}
	var written []string
	for _, f := range datgsql.Tables() {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, f.Name) {
			continue
		}
		ready, err := inputsReady(ctx, db, f.Name)
		if err != nil {
			return written, err
		}
		if !ready {
			if cfg.Stdout != nil {
				missing := missingInputs(db, f.Name)
				fmt.Fprintf(cfg.Stdout, "%s: skipped, no %s yet (run %s)\n", f.Name, strings.Join(missing, ", "), producers(missing))
			}
			continue
		}
		res, err := query(ctx, db.DB, f.Text)
		if err != nil {
			return written, fmt.Errorf("sql/tables/%s.sql: %w", f.Name, err)
		}
		lay, ok := layouts[f.Name]
		if !ok {
			lay = long
		}
		g := lay(res)
		for ext, data := range map[string][]byte{".csv": csvBytes(res), ".md": g.markdown(), ".tex": g.latex()} {
			path := filepath.Join(out, f.Name+ext)
			if err := atomicfile.WriteFile(path, data); err != nil {
				return written, err
			}
			written = append(written, path)
		}
		if cfg.Stdout != nil {
			fmt.Fprintf(cfg.Stdout, "%s: %d rows -> %s.{csv,md,tex}\n", f.Name, len(res.Rows), filepath.Join(out, f.Name))
		}
	}
	if len(written) == 0 {
		return nil, fmt.Errorf("%w: no table has its inputs (run datg verify)", ErrNotGraded)
	}
	slices.Sort(written)
	return written, nil
}

// needs lists the tables derived from traces that each output reads. An
// output is skipped while one is missing, and refused while one is stale:
// some trace has no row in it for its current text (text_hash).
var needs = map[string][]string{
	"direction_accuracy":    {"answers"},
	"accuracy_groups":       {"answers"},
	"compliance":            {"compliance"},
	"datg_full":             {"answers", "scores"},
	"datg_main":             {"answers", "scores"},
	"datg_correctness":      {"answers", "scores"},
	"datg_correctness_main": {"answers", "scores"},
	"reference_diversity":   {"answers", "scores"},
	"aligner_agreement":     {"scores"},
}

var producer = map[string]string{"answers": "datg verify", "compliance": "datg langcheck", "scores": "datg align and datg score"}

// missingInputs are the tables an output needs that the run lacks.
func missingInputs(db *duck.DB, output string) []string {
	var out []string
	for _, t := range needs[output] {
		if !db.Present[t] {
			out = append(out, t)
		}
	}
	return out
}

func producers(tables []string) string {
	var out []string
	for _, t := range tables {
		out = append(out, producer[t])
	}
	return strings.Join(out, ", ")
}

// inputsReady reports whether an output's inputs exist, and fails when one
// is stale, since its numbers would silently count old verdicts.
func inputsReady(ctx context.Context, db *duck.DB, output string) (bool, error) {
	for _, t := range needs[output] {
		if !db.Present[t] {
			return false, nil
		}
		stale, err := staleRows(ctx, db, t)
		if err != nil {
			return false, err
		}
		if stale != "" {
			err := ErrNotGraded
			if t != "answers" {
				err = ErrStale
			}
			return false, fmt.Errorf("%s: %w: %s (run %s)", output, err, stale, producer[t])
		}
	}
	return true, nil
}

// staleRows describes the rows of a derived table that no longer match the
// run ("" when none): per-trace tables must cover every trace's current
// text; scores must come from alignments of the current text and cover
// every usable alignment.
func staleRows(ctx context.Context, db *duck.DB, table string) (string, error) {
	count := func(q string) (n int64, err error) {
		err = db.QueryRowContext(ctx, q).Scan(&n)
		return n, err
	}
	if table != "scores" {
		n, err := count(fmt.Sprintf(`SELECT count(*) FROM traces t LEFT JOIN %s x USING (trace_id)
			WHERE x.trace_id IS NULL OR x.text_hash IS DISTINCT FROM t.text_hash`, table))
		if err != nil || n == 0 {
			return "", err
		}
		return fmt.Sprintf("%d traces have no %s row for their current text", n, table), nil
	}
	n, err := count(`SELECT count(*) FROM scores s JOIN alignments a USING (trace_id, dag_id, aligner)
		JOIN traces t USING (trace_id) WHERE a.text_hash IS DISTINCT FROM t.text_hash`)
	if err != nil {
		return "", err
	}
	if n > 0 {
		return fmt.Sprintf("%d scores come from alignments of an older trace text", n), nil
	}
	n, err = count(`SELECT count(*) FROM alignments a JOIN traces t USING (trace_id) JOIN dags d USING (dag_id)
		LEFT JOIN scores s USING (trace_id, dag_id, aligner)
		WHERE a.status = 'ok' AND d.valid AND a.text_hash IS NOT DISTINCT FROM t.text_hash AND s.trace_id IS NULL`)
	if err != nil || n == 0 {
		return "", err
	}
	return fmt.Sprintf("%d alignments have no scores row", n), nil
}

// studyOrder sorts language codes in the paper's order; unknown codes last.
func studyOrder(langs []string) []string {
	order := map[string]int{}
	for i, l := range prompts.Languages() {
		order[l.Code] = i
	}
	out := slices.Clone(langs)
	slices.SortStableFunc(out, func(a, b string) int {
		oa, okA := order[a]
		ob, okB := order[b]
		if !okA {
			oa = len(order)
		}
		if !okB {
			ob = len(order)
		}
		return oa - ob
	})
	return out
}
