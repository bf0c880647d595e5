package control

import (
	"github.com/datg/datg/internal/llm"
)

// ErrNoTokenIDs means a server returned no generated token ids: the loop
// detector counts the model's own tokens, which vLLM returns when asked
// (return_token_ids, vLLM 0.10.2 and later). Such a response is refused
// before it is journaled, so a rerun against a capable server starts clean.
var ErrNoTokenIDs = llm.ErrNoTokenIDs

// ErrFailedRequests means some examples failed for good; the responses that
// finished are journaled and a rerun retries only the rest.
var ErrFailedRequests = llm.ErrFailedRequests
