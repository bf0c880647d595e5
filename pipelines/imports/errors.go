package imports

import "errors"

// ErrBadRecord means a line is not a valid record of the import format.
var ErrBadRecord = errors.New("invalid record")

// ErrDuplicate means two lines describe the same trace.
var ErrDuplicate = errors.New("duplicate trace")
