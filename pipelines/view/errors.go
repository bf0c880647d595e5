package view

import "errors"

// ErrRemote means the address is not a loopback one and remote access was
// not asked for.
var ErrRemote = errors.New("not a loopback address")

// ErrAddrInUse means another program listens on the address already.
var ErrAddrInUse = errors.New("the address is in use by another program (another datg view?): choose another port with --addr")

// ErrBadParam means a URL's query parameter cannot be read.
var ErrBadParam = errors.New("bad query parameter")

// ErrNoTrace means the run has no trace of that id.
var ErrNoTrace = errors.New("no such trace")

// ErrCacheInRun means the cache directory is the run directory or inside
// it: a run directory belongs to its user, and datg keeps caches elsewhere.
var ErrCacheInRun = errors.New("the cache directory is inside the run")

// errBadRows means a row file in the cache is not whole, or not of this
// format or key: it is rebuilt, never read.
var errBadRows = errors.New("not a whole row file")

// ErrNoWritableDir means the viewer has no directory to write its index
// and DuckDB's temporary files in: neither the cache directory nor the
// system's temporary directory can be written.
var ErrNoWritableDir = errors.New("no writable directory for the viewer's files")

// errBadTables means a cache entry of a generation's paper tables is not
// whole, or not of this format or key: the tables are computed again.
var errBadTables = errors.New("not a whole entry of paper tables")

// errTablesNotKept means the generation's paper tables have no place in
// the cache (no cache directory, one inside the run, no manifest).
var errTablesNotKept = errors.New("the paper tables are not kept")

// ErrUnreadableFile means a Parquet file of the run cannot be read where
// a trace page reads it (damaged since it was written and checked).
var ErrUnreadableFile = errors.New("a Parquet file of the run cannot be read")
