package llm

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/journal"
	"golang.org/x/sync/singleflight"
)

// Record is what the journal keeps of a finished call.
type Record struct {
	Request  Request  `json:"request"`
	Response Response `json:"response"`
}

// Journaled answers requests from the journal when it can and journals every
// new response before returning it, so a finished call is never paid twice
// and survives the process being killed. Identical requests in flight at
// the same time (two references with the same derivation ask for the same
// DAG) are sent once and share the response.
type Journaled struct {
	Pool    *Pool
	Journal *journal.Journal
	flight  *singleflight.Group
}

// NewJournaled answers requests through pool, journaled in j.
func NewJournaled(pool *Pool, j *journal.Journal) Journaled {
	return Journaled{Pool: pool, Journal: j, flight: &singleflight.Group{}}
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
// cached reports that this call sent nothing: the journal answered, or an
// identical request in flight did.
func (c Journaled) Do(ctx context.Context, req Request) (resp Response, cached bool, err error) {
	if resp, ok, err := c.Lookup(req); ok || err != nil {
		return resp, ok, err
	}
	if c.flight == nil {
		resp, err := c.send(ctx, req)
		return resp, false, err
	}
	sent := false // set only in the caller whose function runs
	v, err, _ := c.flight.Do(req.Key().String(), func() (any, error) {
		sent = true
		return c.send(ctx, req)
	})
	if err != nil {
		return Response{}, false, err
	}
	// A response this caller did not send was paid for by another.
	return v.(Response), !sent, nil
}

func (c Journaled) send(ctx context.Context, req Request) (Response, error) {
	resp, err := c.Pool.Do(ctx, req)
	if err != nil {
		return Response{}, err
	}
	if err := c.Journal.Put(req.Key(), Record{Request: req, Response: resp}); err != nil {
		return Response{}, fmt.Errorf("journaling response: %w", err)
	}
	return resp, nil
}
