package generate

import (
	"errors"

	"github.com/datg/datg/internal/llm"
)

// ErrMissingProblem means the problems table lacks a (problem, language) the
// run needs.
var ErrMissingProblem = errors.New("problem not ingested")

// ErrFailedRequests means some requests failed for good; the responses that
// finished are journaled and a rerun retries only the failed ones.
var ErrFailedRequests = llm.ErrFailedRequests
