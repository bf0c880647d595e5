package imports

import "errors"

// ErrBadRecord means a line is not a valid record of the import format.
var ErrBadRecord = errors.New("invalid record")

// ErrDuplicate means two lines describe the same trace.
var ErrDuplicate = errors.New("duplicate trace")

// ErrBadIdentifier means an identifier-like field (an id, a model or
// annotator name, a vocabulary word such as a method or a status) holds a
// character that can hide or break it where it is shown: a control
// character, a line or paragraph separator, or a bidirectional control.
var ErrBadIdentifier = errors.New("not an identifier")
