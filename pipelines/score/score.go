package score

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	datgsql "github.com/datg/datg/sql"
)

// Config is one score run.
type Config struct {
	Data string
}

// DefaultConfig scores the run in data/run.
func DefaultConfig() Config { return Config{Data: store.DefaultDir} }

// Validate checks the run directory is named.
func (c Config) Validate() error { return inputerr.Invalid(store.CheckDir(c.Data)) }

// Summary counts what was scored.
type Summary struct {
	Scored, Traces int
	StaleText      int // alignments of a trace text that has changed since (or of a trace no longer in the run), not scored
	StaleDAG       int // alignments of a DAG whose content has changed since (or that is no longer in the run), not scored
	Unusable       int // current alignments whose reply held no alignment, not scored
}

// Run scores every alignment and rewrites the scores table.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	db, err := openRun(ctx, cfg.Data)
	if err != nil {
		return Summary{}, err
	}
	defer db.Close()
	for _, t := range []string{"traces", "dags", "nodes", "alignments"} {
		if !db.Present[t] {
			return Summary{}, fmt.Errorf("%w: no %s in %s (run datg references, dags and align, or import them)", ErrNothingToScore, t, cfg.Data)
		}
	}
	var sum Summary
	q, _ := datgsql.Derive("scores")
	// scores.sql sorts by trace first and the parts follow each other in
	// trace order, so the writer checks the keys a trace at a time instead
	// of keeping every score's until the commit.
	w, err := store.CreateSorted(cfg.Data, schema.Scores, store.Meta{Stage: "score", ConfigHash: store.HashConfig(q.Text)}, 1)
	if err != nil {
		return sum, err
	}
	defer w.Abort()
	// The session variables that choose the part are the connection's:
	// every query of the parts runs on this one.
	conn, err := db.Conn(ctx)
	if err != nil {
		return sum, err
	}
	defer func() { conn.Close() }()
	parts, err := partsOf(ctx, conn, partAlignments)
	if err != nil {
		return sum, err
	}
	// One part (a small run) reads the run's files once: nothing to cut.
	var files *partFiles
	if len(parts) > 1 {
		if files, err = writePartFiles(ctx, conn, db.PrivateDir(), parts); err != nil {
			return sum, err
		}
	}
	batch := make([]schema.Score, 0, 1024)
	add := func(s schema.Score) error {
		if s.Best {
			sum.Traces++
		}
		sum.Scored++
		batch = append(batch, s)
		if len(batch) == cap(batch) {
			if err := w.Write(batch...); err != nil {
				return err
			}
			batch = batch[:0]
		}
		return nil
	}
	for i, p := range parts {
		if files != nil {
			if i%reopenEvery == 0 {
				if conn, err = files.reopen(ctx, db, conn); err != nil {
					return sum, err
				}
			}
			if err := files.choose(ctx, conn, i); err != nil {
				return sum, err
			}
		}
		if err := scoreOrHalve(ctx, conn, q.Text, p, maxHalvings, &sum, add); err != nil {
			return sum, err
		}
	}
	if err := w.Write(batch...); err != nil {
		return sum, err
	}
	if beforeCommit != nil {
		beforeCommit()
	}
	return sum, w.Commit()
}

// beforeCommit, when set (by a test), runs once every score is written
// and before the table is committed: what the stage holds then.
var beforeCommit func()

// countUnscored adds to sum the alignments of the part of the run conn
// has chosen that are not scored: stale, or current but unusable.
func countUnscored(ctx context.Context, conn *sql.Conn, sum *Summary) error {
	var staleText, staleDAG, unusable int
	if err := queryRow(ctx, conn, `SELECT
		count(*) FILTER (WHERE NOT current_text),
		count(*) FILTER (WHERE current_text AND NOT current_dag),
		count(*) FILTER (WHERE current_text AND current_dag AND status <> 'ok')
		FROM stg_alignment_lineage
		WHERE in_score_partition(trace_id)`).Scan(&staleText, &staleDAG, &unusable); err != nil {
		return fmt.Errorf("counting the stale alignments: %w", err)
	}
	sum.StaleText += staleText
	sum.StaleDAG += staleDAG
	sum.Unusable += unusable
	return nil
}

// beforeQuery, when set (by a test), is called with each query Run is
// about to run on its connection, the part's variables chosen.
var beforeQuery func(ctx context.Context, conn *sql.Conn, query string)

// queryRows runs a query of Run on conn.
func queryRows(ctx context.Context, conn *sql.Conn, query string) (*sql.Rows, error) {
	if beforeQuery != nil {
		beforeQuery(ctx, conn, query)
	}
	return conn.QueryContext(ctx, query)
}

// queryRow runs a query of Run that gives one row on conn.
func queryRow(ctx context.Context, conn *sql.Conn, query string) *sql.Row {
	if beforeQuery != nil {
		beforeQuery(ctx, conn, query)
	}
	return conn.QueryRowContext(ctx, query)
}

// scorePart runs scores.sql over the part of the run conn has chosen,
// giving each row to add in the query's order.
func scorePart(ctx context.Context, conn *sql.Conn, query string, add func(schema.Score) error) error {
	rows, err := queryRows(ctx, conn, query)
	if err != nil {
		return fmt.Errorf("sql/derive/scores.sql: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		s, err := scanScore(rows)
		if err != nil {
			return err
		}
		if err := add(s); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanScore reads one row of scores.sql.
func scanScore(rows *sql.Rows) (schema.Score, error) {
	var s schema.Score
	var pmf sql.NullFloat64
	if err := rows.Scan(&s.TraceID, &s.DagID, &s.Aligner, &s.RefIndex, &s.CAR, &pmf, &s.HAR, &s.Best,
		&s.NodeCount, &s.Committed, &s.EdgeCount, &s.Ordered, &s.Harmful, &s.Judgeable,
		&s.TextHash, &s.DagHash, &s.AlignmentHash); err != nil {
		return s, err
	}
	if pmf.Valid {
		v := pmf.Float64
		s.PMF = &v
	}
	return s, nil
}

// stageMemory caps DuckDB's memory in datg score. One query over every
// alignment ran out of memory under 256 MiB at 675,000 alignments (ten
// times the paper's design) and took 1.4 GB of memory under 1 GiB; a part
// of partAlignments runs under this cap, and one that does not is scored
// in halves. Under 256 MiB the parts and the copies in trace order
// (temporary tables then; part files now, partfiles.go) of a run ten
// times the design filled the cap, where the design's parts took about
// 150 MB: the cap was part of what grew with the run. Under 160 MiB 28 of the 30 parts of scripts/scale.sh 10's run
// ran out of memory and were scored again in halves (twice the CPU);
// under this cap none did, there or in designWorld at 10x and 20x
// (BENCHMARKS.md, "score's peak flat"). A variable so that a test can
// score under a smaller cap.
var stageMemory int64 = 192 << 20

// openRun opens the run's database with a stage's limits: its memory
// capped (duck.StageLimits), so the stage's memory stays flat in the run's
// size and what does not fit spills to DuckDB's private directory. DuckDB's
// allocator returns what a query frees at once (duck.ReturnFreedAtOnce):
// a part's query spills and frees under the cap all along, and the pages
// jemalloc kept for a second on top of it were the part of the peak that
// grew with the run and the machine's load (BENCHMARKS.md, "score's peak
// flat").
func openRun(ctx context.Context, dir string) (*duck.DB, error) {
	duck.ReturnFreedAtOnce()
	return duck.OpenWith(ctx, dir, duck.StageLimits(stageMemory))
}
