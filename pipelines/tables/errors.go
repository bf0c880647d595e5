package tables

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotGraded means traces exist that datg verify has not graded.
var ErrNotGraded = errors.New("traces are not graded")

// ErrNoTraces means the run has no traces yet.
var ErrNoTraces = errors.New("no traces in the run")

// ErrStale means a table derived from traces (compliance, ...) does not
// cover every trace's current text.
var ErrStale = errors.New("derived table is stale")

// ErrUnknownTable means a table name that registry.go does not declare.
var ErrUnknownTable = errors.New("no such table")

// StaleError is datg tables refusing the tables whose inputs are stale over
// the traces they read: every other table was written. It matches the
// inputs' sentinels (ErrStale, ErrNotGraded) with errors.Is.
type StaleError struct {
	// Tables are the tables not written, in the order the queries ran
	// (their names').
	Tables []string
	// Reasons say what is stale, an input at a time ("compliance: 3 probe
	// traces have no compliance row for their current text").
	Reasons []string
	// Producers are the commands to run, each once.
	Producers string
	// Written is how many tables the same run wrote.
	Written int
	errs    []error
}

func (e *StaleError) Error() string {
	written := "no other table was written"
	if e.Written > 0 {
		written = fmt.Sprintf("the %d other tables were written", e.Written)
		if e.Written == 1 {
			written = "the 1 other table was written"
		}
	}
	return fmt.Sprintf("%d tables not written, their inputs are stale: %s (%s); run %s, then datg tables again (%s)",
		len(e.Tables), strings.Join(e.Tables, ", "), strings.Join(e.Reasons, "; "), e.Producers, written)
}

// Unwrap is the sentinels of the stale inputs.
func (e *StaleError) Unwrap() []error { return e.errs }

// ErrColumns means a column count for tables/paper.tex other than 1 or 2.
var ErrColumns = errors.New("paper.tex has 1 or 2 columns")
