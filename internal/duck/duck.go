// Package duck opens an embedded DuckDB over a run directory: every table of
// the run is a view by its name (an empty, typed view when the run has not
// written it yet), the study's reference tables (datg_languages,
// datg_levels, datg_directions, and datg_probe: the direction probe's seed)
// are loaded, and the project's macros and staging views from sql/ are
// created.
//
// The views read one pinned generation of the run (store.Pin), so a query
// sees the tables of one commit however long it runs. Every file is checked
// against schema/ before a view reads it, and read through a link of a
// plain name in a private directory (DuckDB reads any path as a glob
// pattern). The database can read those files and nothing else: external
// access is off (with the links as the only allowed paths, and the private
// directory as its temporary one), extensions are neither installed nor
// loaded, and the configuration is locked, so a query can neither write a
// file nor read one outside the run.
//
// The database is bounded (Limits): its memory, the disk space of its
// spill files, and the time of a query, which a cancelled context (Ctrl-C)
// or the time limit interrupts at once.
package duck

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	datgsql "github.com/datg/datg/sql"
	"github.com/datg/datg/study"
	"github.com/duckdb/duckdb-go/v2"
)

// partitionedWriteFlush is how many rows a thread of a partitioned COPY
// holds before it writes them out.
const partitionedWriteFlush = 32_768

// DB is DuckDB over one run directory.
type DB struct {
	*sql.DB
	connector *duckdb.Connector
	snap      *store.Snapshot
	tempDir   *privateDir // DuckDB's private directory (spill files, links to the run's files), removed by Close
	// Present lists the tables the run has written.
	Present map[string]bool
	// Limits are the database's limits, the defaults filled in.
	Limits Limits
	// probeSeed is the direction probe's seed (SetProbeSeed), which a
	// reopened database keeps.
	probeSeed int64
	// tables are the generation's files, checked when the database was
	// first opened: a reopen reads the same pinned files and does not
	// check them again (a file whose time changed, as after a cp -r of
	// the run, is hashed whole by the check: 1 GB of traces at ten times
	// the paper's design).
	tables map[string]store.TableFiles
}

// Open opens an in-memory DuckDB with views over the run in dir, with the
// default limits.
func Open(ctx context.Context, dir string) (*DB, error) {
	return OpenWith(ctx, dir, DefaultLimits())
}

// OpenWith is Open with the given limits.
func OpenWith(ctx context.Context, dir string, limits Limits) (*DB, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	snap, err := store.Pin(dir)
	if err != nil {
		return nil, err
	}
	db, err := openDuckDB(ctx, snap, limits, study.ProbeSeed, nil)
	if err != nil {
		snap.Close()
		return nil, err
	}
	return db, nil
}

// openDuckDB opens DuckDB over the pinned generation snap with the limits
// and probe seed given, its views over tables (nil: the generation's
// files, checked now). On an error DuckDB is closed; snap stays the
// caller's.
func openDuckDB(ctx context.Context, snap *store.Snapshot, limits Limits, probeSeed int64, tables map[string]store.TableFiles) (*DB, error) {
	connector, err := duckdb.NewConnector("", nil)
	if err != nil {
		return nil, err
	}
	db := &DB{DB: sql.OpenDB(connector), connector: connector, snap: snap, Present: map[string]bool{}, Limits: limits, probeSeed: probeSeed, tables: tables}
	if err := db.setup(ctx); err != nil {
		db.closeDuckDB()
		return nil, setupError(ctx, err)
	}
	return db, nil
}

// setupError is the error of setup that failed with err.
func setupError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		// Stopped (Ctrl-C, SIGTERM) while the views were being made: the
		// same one line as a query stopped later says.
		return fmt.Errorf("%w: %v", ErrInterrupted, context.Cause(ctx))
	}
	return err
}

func (db *DB) setup(ctx context.Context) error {
	// DuckDB may always use its temporary directory, by default .tmp in
	// the working directory, which a query could then read (or reach any
	// file through, were .tmp a link): it gets a private one instead.
	private, err := newPrivateDir()
	if err != nil {
		return err
	}
	db.tempDir = private
	tmp := private.path
	db.Limits = db.Limits.resolve(tmp)
	if db.tables == nil {
		if db.tables, err = inspectTables(db.snap.Dir); err != nil {
			return err
		}
	}
	views := map[string]string{}
	var allowed []string
	for _, t := range schema.All() {
		files, ok := db.tables[t.Name]
		if !ok {
			views[t.Name] = t.EmptySelect()
			continue
		}
		db.Present[t.Name] = true
		quoted := make([]string, len(files.Paths))
		for i, p := range files.Paths {
			// DuckDB reads every path as a glob pattern, and no escaping
			// makes all of [ * ? \ literal: it reads each file through a
			// link of a plain name in the private directory, so run[1]/
			// is never read as run1/.
			link, err := linkFile(tmp, fmt.Sprintf("%s-%d.parquet", t.Name, i), p)
			if err != nil {
				return err
			}
			quoted[i] = Quote(link)
			allowed = append(allowed, Quote(link))
		}
		cols := make([]string, 0, len(t.Columns()))
		for _, c := range t.Columns() {
			if files.Columns[c.Name] {
				cols = append(cols, fmt.Sprintf("CAST(%s AS %s) AS %s", c.Name, c.Type, c.Name))
			} else { // a column added since the files were written
				cols = append(cols, fmt.Sprintf("CAST(NULL AS %s) AS %s", c.Type, c.Name))
			}
		}
		// The outer select reads values older datg versions wrote
		// differently as today's (schema.Table.ReadExpr).
		read := make([]string, 0, len(t.Columns()))
		for _, c := range t.Columns() {
			read = append(read, fmt.Sprintf("%s AS %s", t.ReadExpr(c.Name), c.Name))
		}
		views[t.Name] = fmt.Sprintf("SELECT %s FROM (SELECT %s FROM read_parquet([%s], union_by_name = true)) AS f",
			strings.Join(read, ", "), strings.Join(cols, ", "), strings.Join(quoted, ", "))
	}
	if len(allowed) == 0 {
		allowed = append(allowed, "'/nonexistent/datg'") // an empty list is a type error
	}
	// The limits are set before the configuration is locked, which a
	// query then cannot undo.
	lockDown := append(db.Limits.settings(),
		// A generation's files never change: their footers are read once.
		"SET parquet_metadata_cache = true",
		// A partitioned COPY (datg score's part files) keeps each
		// thread's rows in memory until it holds this many, then writes
		// them out: the default (524,288) held more than a part's rows
		// of the events at ten times the paper's design, and past
		// DuckDB's cap with the alignments' raw replies.
		fmt.Sprintf("SET partitioned_write_flush_threshold = %d", partitionedWriteFlush),
		"SET temp_directory = "+Quote(tmp),
		"SET allowed_paths = ["+strings.Join(allowed, ", ")+"]",
		"SET enable_external_access = false",
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		"SET allow_community_extensions = false",
		"SET lock_configuration = true",
	)
	for _, s := range lockDown {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("locking DuckDB down (%s): %w", s, err)
		}
	}
	for _, t := range schema.All() {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE VIEW %s AS %s", t.Name, views[t.Name])); err != nil {
			return fmt.Errorf("view %s: %w", t.Name, err)
		}
	}
	if err := db.referenceTables(ctx); err != nil {
		return err
	}
	for _, group := range [][]datgsql.File{datgsql.Macros(), datgsql.Staging()} {
		for _, f := range group {
			if _, err := db.ExecContext(ctx, f.Text); err != nil {
				return fmt.Errorf("sql/%s.sql: %w", f.Name, err)
			}
		}
	}
	return nil
}

// inspectTables checks the files of every table the generation in dir
// holds (store.Inspect), by table name; a table not written has none.
func inspectTables(dir string) (map[string]store.TableFiles, error) {
	tables := map[string]store.TableFiles{}
	for _, t := range schema.All() {
		files, err := store.Inspect(dir, t)
		if errors.Is(err, store.ErrNoTable) {
			continue
		}
		if err != nil {
			return nil, err
		}
		tables[t.Name] = files
	}
	return tables, nil
}

// referenceTables loads the study's languages (with resource groups),
// levels and directions with their display order, and the probe's seed.
func (db *DB) referenceTables(ctx context.Context) error {
	var langs []string
	for i, l := range study.Languages() {
		langs = append(langs, fmt.Sprintf("(%s, %s, %s, %d)", Quote(l.Code), Quote(l.Name), Quote(string(l.Resource)), i))
	}
	var levels, dirs []string
	for i, l := range study.Levels {
		levels = append(levels, fmt.Sprintf("(%s, %d)", Quote(string(l)), i))
	}
	for i, d := range study.Directions {
		dirs = append(dirs, fmt.Sprintf("(%s, %d)", Quote(string(d)), i))
	}
	stmts := []string{
		"CREATE TABLE datg_languages (code VARCHAR, name VARCHAR, resource VARCHAR, ord INTEGER)",
		"INSERT INTO datg_languages VALUES " + strings.Join(langs, ", "),
		"CREATE TABLE datg_levels (level VARCHAR, ord INTEGER)",
		"INSERT INTO datg_levels VALUES " + strings.Join(levels, ", "),
		"CREATE TABLE datg_directions (direction VARCHAR, ord INTEGER)",
		"INSERT INTO datg_directions VALUES " + strings.Join(dirs, ", "),
		// The seed whose base traces are the direction probe's (the
		// probe_trace macro, stg_graded_traces.probe): a macro of the
		// literal, so that the probe's filter is a constant DuckDB pushes
		// into every traces scan (a subquery on a table of the seed was a
		// join after every join of traces: the probe tables then held
		// every base trace of the run, not the probe's, and grew with
		// the run's seeds). datg_probe shows it as a one-row view.
		probeSeedMacro(db.probeSeed),
		"CREATE VIEW datg_probe AS SELECT datg_probe_seed() AS seed",
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("reference tables: %w", err)
		}
	}
	return nil
}

// SetProbeSeed makes seed the direction probe's (datg_probe), in place of
// study.ProbeSeed: the probe tables then read the base traces of that seed.
func (db *DB) SetProbeSeed(ctx context.Context, seed int64) error {
	if _, err := db.ExecContext(ctx, probeSeedMacro(seed)); err != nil {
		return fmt.Errorf("setting the probe seed: %w", err)
	}
	db.probeSeed = seed
	return nil
}

// probeSeedMacro defines datg_probe_seed(), the direction probe's seed, as
// the literal seed.
func probeSeedMacro(seed int64) string {
	return fmt.Sprintf("CREATE OR REPLACE MACRO datg_probe_seed() AS CAST(%d AS BIGINT)", seed)
}

// Arrow runs a query (the last of several statements) and returns its result
// as Arrow record batches. The query is interrupted when ctx ends.
func (db *DB) Arrow(ctx context.Context, query string) (array.RecordReader, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var rr array.RecordReader
	err = conn.Raw(func(dc any) error {
		interrupt, err := interrupter(dc.(driver.Conn))
		if err != nil {
			return err
		}
		a, err := newArrowFromConn(dc.(driver.Conn))
		if err != nil {
			return err
		}
		stop := interruptOnDone(ctx, interrupt)
		defer stop()
		rr, err = a.QueryContext(ctx, query)
		return err
	})
	return rr, err
}

// Generation is the run's generation the views read (store.Snapshot's;
// 0 for a run read in place).
func (db *DB) Generation() int { return db.snap.Generation }

// SnapshotDir is the pinned generation's directory (the run's directory
// for a run read in place), for reading its manifest. Never write to it.
func (db *DB) SnapshotDir() string { return db.snap.Dir }

// PrivateDir is a directory of this database's own (DuckDB's spill files
// are in it) for a process's temporary files: Close removes it, and when
// the process is killed the next datg process to open a database does.
func (db *DB) PrivateDir() string { return db.tempDir.path }

// Close closes the database and releases the run's generation.
func (db *DB) Close() error {
	err := db.closeDuckDB()
	if cerr := db.snap.Close(); err == nil {
		err = cerr
	}
	return err
}

// closeDuckDB closes DuckDB and removes its private directory; the run's
// generation stays pinned.
func (db *DB) closeDuckDB() error {
	err := db.DB.Close()
	if cerr := db.connector.Close(); err == nil {
		err = cerr
	}
	if db.tempDir != nil {
		db.tempDir.remove()
	}
	return err
}

// Reopen replaces DuckDB with a fresh one over the same generation of the
// run, with the same limits and probe seed, and moves the entries named
// keep (names in PrivateDir) into the new database's private directory.
// The run's files are not checked again: they are the pinned generation's,
// checked when db was opened. DuckDB keeps memory from query to query that
// no setting bounds: its Parquet footer cache holds every file read until
// the database closes (datg score's part files: about 0.3 MB a part at ten
// times the paper's design), and its buffer pool's eviction queue keeps
// the blocks of past queries until it holds tens of thousands (about 4 KB
// a join; BENCHMARKS.md, "score part by part: what DuckDB keeps"). A stage
// of many queries reopens to start again from what opening takes. Every
// connection taken from the old database must be closed first; db stays
// valid, and the session state of its connections (temporary views,
// variables) is gone.
func (db *DB) Reopen(ctx context.Context, keep ...string) error {
	fresh, err := openDuckDB(ctx, db.snap, db.Limits, db.probeSeed, db.tables)
	if err != nil {
		return err
	}
	for i, name := range keep {
		if err := os.Rename(filepath.Join(db.PrivateDir(), name), filepath.Join(fresh.PrivateDir(), name)); err != nil {
			// The database stays as it was, with what was moved.
			for _, moved := range keep[:i] {
				os.Rename(filepath.Join(fresh.PrivateDir(), moved), filepath.Join(db.PrivateDir(), moved))
			}
			fresh.closeDuckDB()
			return fmt.Errorf("keeping %s across a reopen of DuckDB: %w", name, err)
		}
	}
	err = db.closeDuckDB()
	db.DB, db.connector, db.tempDir, db.Present = fresh.DB, fresh.connector, fresh.tempDir, fresh.Present
	return err
}

// Quote is s as an SQL string literal.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
