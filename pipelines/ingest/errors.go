package ingest

import "errors"

// ErrMissingFile means a (language, level) has neither layout's file.
var ErrMissingFile = errors.New("no file for this language and level")

// ErrMalformed means a line or row is not a PolyMath problem.
var ErrMalformed = errors.New("malformed problem")

// ErrCount means a (language, level) does not hold the expected number of
// problems.
var ErrCount = errors.New("wrong number of problems")

// ErrGoldMismatch means a problem has different gold answers in two languages.
var ErrGoldMismatch = errors.New("gold answer differs between languages")
