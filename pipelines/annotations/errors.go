package annotations

import (
	"errors"
	"fmt"

	"github.com/datg/datg/internal/inputerr"
)

// ErrNothingToSample means the run has no scored traces to audit.
var ErrNothingToSample = errors.New("nothing to sample")

// ErrAmbiguousAligner means the run's scores come from several aligners and
// none was chosen: a usage error (exit 2), --aligner settles it.
var ErrAmbiguousAligner = fmt.Errorf("%w: several aligners", inputerr.ErrInvalidConfig)

// ErrOutputExists means the output file exists and overwriting was not
// asked for.
var ErrOutputExists = errors.New("output file exists")
