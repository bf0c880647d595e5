package score

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// partInputs are the inputs of scores.sql keyed by trace that datg score
// writes, once, as Parquet files of one part each, and that each part's
// query then reads in place of the run's (a temporary view shadows the
// view of its name on the connection, in the staging views too). A run's
// files are not in trace order (trace ids are hashes, and align writes as
// it goes): every row group spans every trace id, so a part read the
// inputs whole, 30 times at ten times the paper's design. The lineage is
// written whole (its join with traces once), the events and harmful
// actions with the columns the staging views read.
//
// They were temporary tables in trace id order before, made at 4 parts
// or more: DuckDB held them, in memory up to its cap, from the sort to
// the last part, so every part's peak stood on them, and the sort itself
// filled the cap: the 10x run's peak was 315-316 MiB, 287-288 with the
// files (the paper's design: 234-237, 226-228; issue 23; BENCHMARKS.md,
// "score's inputs as files of a part"). The files are written by
// DuckDB's partitioned COPY, which streams (no sort;
// https://duckdb.org/docs/stable/data/partitioning/partitioned_writes),
// into DuckDB's private directory, which Close removes. The paper's
// design (3 parts) takes them too, the same path as any larger run: the
// same CPU as its parts reading the run's files, and no higher a peak.
var partInputs = []struct{ name, query string }{
	{"stg_alignment_lineage", "FROM main.stg_alignment_lineage"},
	{"alignment_events", "SELECT trace_id, dag_id, aligner, node_id, status, start_char, block_id FROM main.alignment_events"},
	{"harmful_actions", "SELECT trace_id, dag_id, aligner, matched_seq FROM main.harmful_actions"},
}

// partRowGroup is the row group of the part files. The partitioned COPY
// keeps one row group of each part open: small ones keep that small
// (ten times the paper's design has 30 parts).
const partRowGroup = 8192

// partColumn is the part's index in the part files (their hive
// partition key).
const partColumn = "datg_part"

// partFiles are the part files of a run's inputs, in dir.
type partFiles struct {
	dir   string
	parts int
	// written holds the inputs with at least one row (a table without
	// rows writes no file, and is read from the run).
	written map[string]bool
}

// writePartFiles writes partInputs as files of each of parts (consecutive,
// in trace id order) under private (DuckDB's private directory,
// duck.DB.PrivateDir), before any part is chosen (every trace is then in).
func writePartFiles(ctx context.Context, conn *sql.Conn, private string, parts []part) (*partFiles, error) {
	f := &partFiles{dir: filepath.Join(private, partFilesDir), parts: len(parts), written: map[string]bool{}}
	// DuckDB makes a partitioned COPY's directory, not its parent.
	if err := os.Mkdir(f.dir, 0o700); err != nil {
		return nil, fmt.Errorf("making the directory of the part files: %w", err)
	}
	index := partIndex(parts)
	for _, in := range partInputs {
		out := filepath.Join(f.dir, in.name)
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("COPY (SELECT *, %s AS %s FROM (%s)) TO %s (FORMAT parquet, PARTITION_BY (%s), ROW_GROUP_SIZE %d)",
			index, partColumn, in.query, duck.Quote(out), partColumn, partRowGroup)); err != nil {
			return nil, fmt.Errorf("writing %s by part: %w", in.name, err)
		}
		written, err := filepath.Glob(filepath.Join(out, "*", "*.parquet"))
		if err != nil {
			return nil, err
		}
		f.written[in.name] = len(written) > 0
	}
	return f, f.views(ctx, conn)
}

// views makes the part files the views of their inputs' names on conn,
// each reading the files of the part in the variable datg_score_part
// (choose), which DuckDB reads as a constant: a query opens the files
// of that part only. The views are made once on each database (reopen):
// a view made again for each part is a catalog entry more each time.
func (f *partFiles) views(ctx context.Context, conn *sql.Conn) error {
	for _, in := range partInputs {
		if !f.written[in.name] {
			continue
		}
		glob := filepath.Join(f.dir, in.name, "*", "*.parquet")
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE TEMP VIEW %s AS SELECT * EXCLUDE (%s) FROM read_parquet(%s, hive_partitioning = true) WHERE %s = getvariable('datg_score_part')",
			in.name, partColumn, duck.Quote(glob), partColumn)); err != nil {
			return fmt.Errorf("reading %s by part: %w", in.name, err)
		}
	}
	return nil
}

// partFilesDir is the part files' directory in DuckDB's private one.
const partFilesDir = "score-parts"

// reopenEvery is how many parts datg score scores on one DuckDB: it
// reopens the database (duck.DB.Reopen) after the part files are written
// and then every reopenEvery parts. DuckDB keeps, from part to part and
// outside its cap, the footers of every part file read and its buffer
// pool's records of past queries' blocks: the C heap grew by 0.7 MB a
// part at ten times the paper's design (30 parts), 20 MB by the last. A
// reopen costs what opening the run does (0.2 s there; BENCHMARKS.md,
// "score part by part: what DuckDB keeps").
var reopenEvery = 8

// reopen closes conn, reopens db with the part files kept, and gives a
// connection to the new database with the part files' views made on it.
func (f *partFiles) reopen(ctx context.Context, db *duck.DB, conn *sql.Conn) (*sql.Conn, error) {
	if err := conn.Close(); err != nil {
		return conn, err
	}
	if err := db.Reopen(ctx, partFilesDir); err != nil {
		return conn, fmt.Errorf("reopening DuckDB between parts: %w", err)
	}
	f.dir = filepath.Join(db.PrivateDir(), partFilesDir)
	fresh, err := db.Conn(ctx)
	if err != nil {
		return conn, err
	}
	return fresh, f.views(ctx, fresh)
}

// choose makes part i the one the views of the part files read.
func (f *partFiles) choose(ctx context.Context, conn *sql.Conn, i int) error {
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("SET VARIABLE datg_score_part = %d", i)); err != nil {
		return fmt.Errorf("choosing part %d of %d: %w", i+1, f.parts, err)
	}
	return nil
}

// partIndex is the SQL expression of the index in parts of a row's
// trace_id.
func partIndex(parts []part) string {
	var b strings.Builder
	b.WriteString("CASE")
	for i, p := range parts[1:] {
		fmt.Fprintf(&b, " WHEN trace_id < %s THEN %d", duck.Quote(p.From), i)
	}
	fmt.Fprintf(&b, " ELSE %d END", len(parts)-1)
	return b.String()
}
