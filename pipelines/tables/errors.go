package tables

import "errors"

// ErrNotGraded means traces exist that datg verify has not graded.
var ErrNotGraded = errors.New("traces are not graded")

// ErrNoTraces means the run has no traces yet.
var ErrNoTraces = errors.New("no traces in the run")

// ErrStale means a table derived from traces (compliance, ...) does not
// cover every trace's current text.
var ErrStale = errors.New("derived table is stale")

// ErrUnknownTable means a table name that registry.go does not declare.
var ErrUnknownTable = errors.New("no such table")
