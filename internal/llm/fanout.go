package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/datg/datg/internal/progress"
	"golang.org/x/sync/errgroup"
)

// Fanout sends the requests that each yields, concurrently, through a
// journaled client, and hands every response to done with its request. A
// journaled response is handed over at once (cached, counted as reused); a
// new one when it arrives. A request the server rejects, or that fails on
// every attempt (RequestFailed), is handed to failed and the others go on;
// any other error (no endpoint left, the run refused, the journal broken,
// ctx ended, each's own error) stops the fan-out and is returned. done and
// failed may be called from several goroutines at once; done with cached
// only from the goroutine that called Fanout.
func Fanout[J any](ctx context.Context, c Journaled, prog *progress.Progress,
	each func(yield func(job J, req Request) bool) error,
	done func(job J, req Request, resp Response, cached bool) error,
	failed func(job J, err error),
) error {
	if c.batch != nil && c.dry == nil { // a dry run counts, never submits
		return fanoutBatched(ctx, c, prog, each, done, failed)
	}
	g, gctx := errgroup.WithContext(ctx)
	// Twice the pool's capacity: while some goroutines journal responses,
	// others already wait for the slots they freed.
	g.SetLimit(2 * c.Pool.Capacity())
	eachErr := each(func(job J, req Request) bool {
		if gctx.Err() != nil {
			return false
		}
		// Keyed, sent and handed to done as the server gets it.
		req, err := c.Shape(req)
		if err != nil {
			g.Go(func() error { return err })
			return false
		}
		key := req.Key()
		if resp, ok, err := c.lookup(key); err != nil || ok {
			if err == nil {
				err = done(job, req, resp, true)
			}
			if err != nil {
				g.Go(func() error { return err })
				return false
			}
			if c.dry != nil {
				c.dry.count(c.Journal, req, true)
			}
			prog.Skip(1)
			return true
		}
		if c.dry != nil {
			c.dry.count(c.Journal, req, false)
			return true
		}
		g.Go(func() error {
			resp, shared, err := c.send(gctx, req, key)
			switch {
			case err == nil && shared:
				// An identical request in flight paid for it.
				prog.Skip(1)
				return done(job, req, resp, false)
			case err == nil:
				prog.Done(resp.CompletionTokens)
				return done(job, req, resp, false)
			case RequestFailed(err):
				prog.Fail()
				failed(job, err)
				return nil
			}
			return err
		})
		return true
	})
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if eachErr == nil && c.dry != nil {
		return ErrDryRun
	}
	return eachErr
}

// FanoutLogged is Fanout for the stages: failed requests are logged under
// name(job) and make the error ErrFailedRequests once the others finished;
// an error that stopped the fan-out says that finished responses are kept.
func FanoutLogged[J any](ctx context.Context, c Journaled, prog *progress.Progress,
	each func(yield func(job J, req Request) bool) error,
	done func(job J, req Request, resp Response, cached bool) error,
	name func(job J) string,
) error {
	failures := &FailureLog{}
	err := Fanout(ctx, c, prog, each, done, func(job J, err error) { failures.Add(name(job), err) })
	if err != nil {
		return fmt.Errorf("%w (finished responses are kept; rerun to resume)", err)
	}
	return failures.Err()
}

// RequestFailed reports whether err fails one request only (rejected by the
// server, or failed on every attempt) rather than the whole run.
func RequestFailed(err error) bool {
	return errors.Is(err, ErrRejected) || errors.Is(err, ErrGaveUp) || errors.Is(err, ErrDryRun)
}

// FailureLog keeps the first few failures of a fan-out for its error message.
type FailureLog struct {
	mu    sync.Mutex
	count int
	first []string
}

// Add records a failure.
func (f *FailureLog) Add(what string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count++
	if len(f.first) < 3 {
		f.first = append(f.first, fmt.Sprintf("%s: %v", what, err))
	}
}

// String lists the first failures.
func (f *FailureLog) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.first, "; ")
}

// Err is nil when nothing failed, else an ErrFailedRequests error saying how
// many failed and the first reasons.
func (f *FailureLog) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d failed for good, first: %s; rerun to retry them", ErrFailedRequests, f.count, strings.Join(f.first, "; "))
}
