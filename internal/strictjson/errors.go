package strictjson

import (
	"errors"
	"fmt"
)

// ErrDuplicateKey means an object names the same key twice. encoding/json
// keeps the last value without a word, so a config saying "temperature"
// twice would run with whichever came last.
var ErrDuplicateKey = errors.New("duplicate key")

// ErrTrailingData means something follows the document's one value (a
// second object, a stray bracket). encoding/json's Decoder reads the first
// value and ignores the rest.
var ErrTrailingData = errors.New("data after the JSON value")

// ErrNoValue means the document holds nothing but white space.
var ErrNoValue = errors.New("no JSON value")

// ErrTooDeep means values nest deeper than MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deeply")

// Error is a problem at a line of the document (0 when it cannot be told).
type Error struct {
	Line int // 1-based
	Err  error
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}
func (e *Error) Unwrap() error { return e.Err }

// ErrInvalidUnicode means a string of the document is not Unicode text:
// bytes that are not UTF-8, or a \u escape of a UTF-16 surrogate that is
// not half of a pair. encoding/json decodes both to U+FFFD without a word,
// so the text stored would not be the text given.
var ErrInvalidUnicode = errors.New("not valid Unicode")
