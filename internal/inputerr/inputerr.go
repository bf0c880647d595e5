// Package inputerr is the error datg gives for bad input: it names the file
// and line (or the record and field) so the user can go and fix it.
package inputerr

import (
	"errors"
	"fmt"
)

// ErrInvalidConfig marks a configuration that cannot work (a bad flag
// value, an unknown language): a command-line mistake, caught before any work.
var ErrInvalidConfig = errors.New("invalid configuration")

// Invalid wraps the problems a Validate method found, or returns nil. A
// problem that is itself an Invalid (a nested config's) is taken apart, so
// the message says "invalid configuration" once.
func Invalid(errs ...error) error {
	var flat []error
	for _, err := range errs {
		if in, ok := err.(*invalid); ok {
			err = in.problems
		}
		flat = append(flat, err)
	}
	if err := errors.Join(flat...); err != nil {
		return &invalid{problems: err}
	}
	return nil
}

// invalid is ErrInvalidConfig with the problems found.
type invalid struct{ problems error }

func (e *invalid) Error() string   { return ErrInvalidConfig.Error() + ": " + e.problems.Error() }
func (e *invalid) Unwrap() []error { return []error{ErrInvalidConfig, e.problems} }

// Error is a problem at a place in an input file.
type Error struct {
	Path  string // file as the user named it
	Line  int    // 1-based line (or row) number; 0 when the whole file is meant
	Field string // optional: the field at fault
	Err   error
}

func (e *Error) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %v (%s)", e.Field, e.Err, where)
	}
	return fmt.Sprintf("%v (%s)", e.Err, where)
}

func (e *Error) Unwrap() error { return e.Err }

// At makes an Error.
func At(path string, line int, err error) *Error { return &Error{Path: path, Line: line, Err: err} }

// Field makes an Error about one field of a record.
func Field(path string, line int, field string, err error) *Error {
	return &Error{Path: path, Line: line, Field: field, Err: err}
}

// FieldError is a problem with one field of a Config. It names the field as
// Go code sets it (Endpoints, MaxTokens), not as a command line does: a
// library caller has no flags. cmd/datg shows it as the flag that sets the
// field (--endpoints, --max-tokens).
type FieldError struct {
	Field string // the Config field, as declared
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// BadField makes a FieldError; format and args are as for fmt.Errorf (so
// %w wraps a sentinel).
func BadField(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// Fields returns every FieldError in err's tree, outermost first.
func Fields(err error) []*FieldError {
	var out []*FieldError
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if fe, ok := err.(*FieldError); ok {
			out = append(out, fe)
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// Problems collects what a Validate method finds, each problem naming its
// Config field. The zero value is ready to use.
type Problems struct{ errs []error }

// Add records a problem with field; format and args are as for fmt.Errorf.
func (p *Problems) Add(field, format string, args ...any) {
	p.errs = append(p.errs, BadField(field, format, args...))
}

// Check records err, when not nil, as a problem with field.
func (p *Problems) Check(field string, err error) {
	if err != nil {
		p.errs = append(p.errs, &FieldError{Field: field, Err: err})
	}
}

// Nested records the problems a nested config's Validate found (an
// Invalid, whose problems name their own fields), when err is not nil.
func (p *Problems) Nested(err error) {
	if err != nil {
		p.errs = append(p.errs, err)
	}
}

// NestedIn is Nested for a config held in the field named field: each
// problem's field becomes a path (Pool.MaxAttempts); see Nest.
func (p *Problems) NestedIn(field string, err error) { p.Nested(Nest(field, err)) }

// Err is the problems as one Invalid error, or nil when there are none.
func (p *Problems) Err() error { return Invalid(p.errs...) }

// FieldNames lists the fields the FieldErrors in err's tree name, in order.
func FieldNames(err error) []string {
	var names []string
	for _, fe := range Fields(err) {
		names = append(names, fe.Field)
	}
	return names
}
