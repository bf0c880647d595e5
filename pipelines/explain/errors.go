package explain

import (
	"errors"

	"github.com/datg/datg/pipelines/view"
)

// ErrNoTrace means the run has no trace of that id: the viewer's own
// sentinel, so its message (which names the id) is not said twice.
var ErrNoTrace = view.ErrNoTrace

// ErrNoScores means the run has no aligned trace to index.
var ErrNoScores = errors.New("no scored alignments")

// ErrUnknownAligner means no alignment of the run is by that aligner.
var ErrUnknownAligner = errors.New("no alignment by that aligner")

// ErrNoTraces means a filter matched no trace: an empty set is not written.
var ErrNoTraces = errors.New("no trace to export")
