package store

import "errors"

// ErrNoTable means the run directory holds no file for the table yet.
var ErrNoTable = errors.New("table not written yet")

// ErrNoRun means the directory given as a run's is missing, is not a
// directory, or holds no run: no current, no gen/ and no table. A stage
// that reads a run refuses it rather than reading every table as empty
// (ingest and import, which make a run, do not ask).
var ErrNoRun = errors.New("no run directory")

// ErrAmbiguousTable means a table exists both as DIR/<name>.parquet and as
// the folder DIR/<name>/, so which one is current is unknown.
var ErrAmbiguousTable = errors.New("table exists both as a file and as a folder")

// ErrDuplicateKey means rows given to one write share a key.
var ErrDuplicateKey = errors.New("duplicate row key")

// ErrOutsideGroup means a row was given to a merger of whole groups
// (MergeGroupsIn) while another group's rows were being given, or before
// any group began: its group's rows would not all be replaced together.
var ErrOutsideGroup = errors.New("row given outside the group being written")

// ErrTableBusy means another process is writing the table.
var ErrTableBusy = errors.New("another datg process is writing this table")

// ErrBadRun means the run directory's layout is damaged: current is not a
// symlink into gen/, or a generation was given where the run belongs.
var ErrBadRun = errors.New("not a usable run directory")

// ErrStrayTable means a table file sits in the run directory outside its
// committed generations (written there by hand or by another tool); datg
// neither reads nor overwrites it.
var ErrStrayTable = errors.New("table file outside the run's committed generations")

// ErrSchemaMismatch means a table file's columns are not the declared ones:
// a column is missing, or has another type.
var ErrSchemaMismatch = errors.New("table file does not match the declared schema")

// ErrTableChanged means a file of a committed generation is not the one
// datg committed (its manifest says another size or hash, or it is a link
// now, or missing), or a file sits in a generation that its manifest does
// not list: it was changed outside datg, and is refused rather than read.
var ErrTableChanged = errors.New("table file changed outside datg")

// ErrDryRun means a dry-run transaction was asked to commit.
var ErrDryRun = errors.New("dry run: nothing is committed")

// ErrUnsorted means a row was given to a writer of sorted rows
// (CreateSorted) after rows of a group that sorts after its own: the
// writer no longer holds the keys its row could repeat.
var ErrUnsorted = errors.New("rows not in the order of their key")
