package score

import "errors"

// ErrNothingToScore means the run has no alignments yet.
var ErrNothingToScore = errors.New("nothing to score")
