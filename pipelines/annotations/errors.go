package annotations

import "errors"

// ErrNothingToSample means the run has no scored traces to audit.
var ErrNothingToSample = errors.New("nothing to sample")

// ErrAmbiguousAligner means the run's scores come from several aligners and
// none was chosen.
var ErrAmbiguousAligner = errors.New("several aligners")

// ErrOutputExists means the output file exists and overwriting was not
// asked for.
var ErrOutputExists = errors.New("output file exists")
