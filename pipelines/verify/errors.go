package verify

import "errors"

// ErrNoGold means a trace's problem is not in the problems table.
var ErrNoGold = errors.New("trace has no gold answer")
