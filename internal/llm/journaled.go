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
	dry     *DryRun // counts instead of sending
	// batch, when set (--batch), answers a fan-out's requests through the
	// Batch API before its online pass (fanoutBatched).
	batch *batcher
}

// NewJournaled answers requests through pool, journaled in j.
func NewJournaled(pool *Pool, j *journal.Journal) Journaled {
	return Journaled{Pool: pool, Journal: j, flight: &singleflight.Group{}, dry: pool.opts.DryRun}
}

// lookup returns the journaled response under key, if any. A record no
// server could have given (journaled by a datg that did not check replies:
// no text, token counts out of range) counts as absent, and the request is
// sent again; as the journal keeps a key's first record, its new response
// goes under the record's replacement key (replacementKey).
func (c Journaled) lookup(key journal.Key) (Response, bool, error) {
	for k, i := key, 0; i < maxReplacements; k, i = replacementKey(k), i+1 {
		var rec Record
		ok, err := c.Journal.Get(k, &rec)
		if err != nil {
			return Response{}, ok, fmt.Errorf("reading journal: %w", err)
		}
		if !ok {
			break
		}
		if checkReply(rec.Request, rec.Response) == nil {
			return rec.Response, true, nil
		}
	}
	return Response{}, false, nil
}

// maxReplacements bounds the chain of records one request may have: its
// first, and one replacement for each time the checks of replies grew
// stricter.
const maxReplacements = 8

// replacementKey is where the response that replaces an unusable record
// under key is journaled.
func replacementKey(key journal.Key) journal.Key {
	return journal.KeyOf(append([]byte("replaces "), key[:]...))
}

// freeKey is the first key of key's chain without a record.
func (c Journaled) freeKey(key journal.Key) journal.Key {
	for i := 1; i < maxReplacements && c.Journal.Has(key); i++ {
		key = replacementKey(key)
	}
	return key
}

// Do answers the request from the journal or, failing that, from the pool
// (DoSent). cached reports that this call sent nothing: the journal
// answered, or an identical request in flight did.
func (c Journaled) Do(ctx context.Context, req Request) (resp Response, cached bool, err error) {
	_, resp, cached, err = c.DoSent(ctx, req)
	return resp, cached, err
}

// DoSent is Do, also returning the request that got the answer, as it was
// sent and keyed: the request shaped, or, when its reply spent the budget
// reasoning (SpentOnReasoning), the same asked once more with a larger
// budget (grownBudget), from the journal or the pool in turn. A final
// reply that still spent it and shows nothing fails with
// ErrBudgetSpentReasoning unless the request keeps it (KeepSpent).
func (c Journaled) DoSent(ctx context.Context, req Request) (Request, Response, bool, error) {
	req, err := c.Pool.Shape(req)
	if err != nil {
		return req, Response{}, false, err
	}
	resp, cached, err := c.answer(ctx, req)
	if err != nil {
		return req, Response{}, cached, err
	}
	if grown, ok := grownBudget(req, resp); ok {
		again, againCached, err := c.answer(ctx, grown)
		if err != nil {
			return grown, Response{}, cached && againCached, err
		}
		req, resp, cached = grown, again, cached && againCached
	}
	return req, resp, cached, spentError(req, resp)
}

// answer is one shaped request's reply: journaled, counted (a dry run), or
// sent and journaled.
func (c Journaled) answer(ctx context.Context, req Request) (Response, bool, error) {
	key := req.Key()
	if resp, ok, err := c.lookup(key); ok || err != nil {
		return resp, ok, err
	}
	if c.dry != nil {
		c.dry.count(c.Journal, req, false)
		return Response{}, false, ErrDryRun
	}
	return c.send(ctx, req, key)
}

// journaled is what the journal alone answers of a shaped request: its
// reply, or, when that reply spent the budget reasoning, its grown
// request's. ok is false when something is left to send: sent is then the
// request to send (req, or the grown request).
func (c Journaled) journaled(req Request) (sent Request, resp Response, ok bool, err error) {
	resp, ok, err = c.lookup(req.Key())
	if !ok || err != nil {
		return req, resp, ok, err
	}
	if grown, g := grownBudget(req, resp); g {
		resp, ok, err = c.lookup(grown.Key())
		return grown, resp, ok, err
	}
	return req, resp, true, nil
}

// Shape is the request as it will be sent and keyed (Pool.Shape: shaped
// and checked): a stage that records what it sent records it.
func (c Journaled) Shape(req Request) (Request, error) { return c.Pool.Shape(req) }

// send asks the pool (once for identical requests in flight together) and
// journals the response before returning it.
func (c Journaled) send(ctx context.Context, req Request, key journal.Key) (Response, bool, error) {
	sent := false // set only in the caller whose function runs
	v, err, _ := c.flight.Do(key.String(), func() (any, error) {
		sent = true
		// Journaled while the slot is held: see Pool.DoKeeping.
		return c.Pool.DoKeeping(ctx, req, func(resp Response) error {
			if err := c.Journal.Put(c.freeKey(key), Record{Request: req, Response: resp}); err != nil {
				return fmt.Errorf("journaling response: %w", err)
			}
			return nil
		})
	})
	if err != nil {
		return Response{}, false, err
	}
	// A response this caller did not send was paid for by another.
	return v.(Response), !sent, nil
}
