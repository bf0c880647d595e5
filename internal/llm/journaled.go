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

// lookup returns the journaled response under key, if any.
func (c Journaled) lookup(key journal.Key) (Response, bool, error) {
	var rec Record
	ok, err := c.Journal.Get(key, &rec)
	if err != nil {
		return Response{}, ok, fmt.Errorf("reading journal: %w", err)
	}
	return rec.Response, ok, nil
}

// Do answers the request from the journal or, failing that, from the pool.
// cached reports that this call sent nothing: the journal answered, or an
// identical request in flight did.
func (c Journaled) Do(ctx context.Context, req Request) (resp Response, cached bool, err error) {
	key := req.Key()
	if resp, ok, err := c.lookup(key); ok || err != nil {
		return resp, ok, err
	}
	return c.send(ctx, req, key)
}

// send asks the pool (once for identical requests in flight together) and
// journals the response before returning it.
func (c Journaled) send(ctx context.Context, req Request, key journal.Key) (Response, bool, error) {
	sent := false // set only in the caller whose function runs
	v, err, _ := c.flight.Do(key.String(), func() (any, error) {
		sent = true
		resp, err := c.Pool.Do(ctx, req)
		if err != nil {
			return Response{}, err
		}
		if err := c.Journal.Put(key, Record{Request: req, Response: resp}); err != nil {
			return Response{}, fmt.Errorf("journaling response: %w", err)
		}
		return resp, nil
	})
	if err != nil {
		return Response{}, false, err
	}
	// A response this caller did not send was paid for by another.
	return v.(Response), !sent, nil
}
