package store

import "errors"

// ErrNoTable means the run directory holds no file for the table yet.
var ErrNoTable = errors.New("table not written yet")

// ErrAmbiguousTable means a table exists both as DIR/<name>.parquet and as
// the folder DIR/<name>/, so which one is current is unknown.
var ErrAmbiguousTable = errors.New("table exists both as a file and as a folder")

// ErrDuplicateKey means rows given to one write share a key.
var ErrDuplicateKey = errors.New("duplicate row key")

// ErrTableBusy means another process is writing the table.
var ErrTableBusy = errors.New("another datg process is writing this table")
