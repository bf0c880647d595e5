package llm

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/journal"
)

// Record is what the journal keeps of a finished call.
type Record struct {
	Request  Request  `json:"request"`
	Response Response `json:"response"`
}

// Journaled answers requests from the journal when it can and journals every
// new response before returning it, so a finished call is never paid twice
// and survives the process being killed.
type Journaled struct {
	Pool    *Pool
	Journal *journal.Journal
}

// Lookup returns the journaled response of the request, if any.
func (c Journaled) Lookup(req Request) (Response, bool, error) {
	var rec Record
	ok, err := c.Journal.Get(req.Key(), &rec)
	if err != nil {
		return Response{}, ok, fmt.Errorf("reading journal: %w", err)
	}
	return rec.Response, ok, nil
}

// Has reports whether the request's response is journaled.
func (c Journaled) Has(req Request) bool { return c.Journal.Has(req.Key()) }

// Do answers the request from the journal or, failing that, from the pool.
// cached says which.
func (c Journaled) Do(ctx context.Context, req Request) (resp Response, cached bool, err error) {
	if resp, ok, err := c.Lookup(req); ok || err != nil {
		return resp, ok, err
	}
	resp, err = c.Pool.Do(ctx, req)
	if err != nil {
		return Response{}, false, err
	}
	if err := c.Journal.Put(req.Key(), Record{Request: req, Response: resp}); err != nil {
		return Response{}, false, fmt.Errorf("journaling response: %w", err)
	}
	return resp, false, nil
}
