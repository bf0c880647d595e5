package control

import (
	"errors"

	"github.com/datg/datg/internal/llm"
)

// ErrNoTokenIDs means a server returned no generated token ids: the loop
// detector counts the model's own tokens, which vLLM returns when asked
// (return_token_ids, vLLM 0.10.2 and later).
var ErrNoTokenIDs = errors.New("the server returned no token ids")

// ErrFailedRequests means some examples failed for good; the responses that
// finished are journaled and a rerun retries only the rest.
var ErrFailedRequests = llm.ErrFailedRequests
