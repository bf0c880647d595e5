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
// journaled client. A journaled response is handed to done at once (and
// counted as resumed); a new one when it arrives. A request the server
// rejects, or that fails on every attempt, is handed to failed and the
// others go on; any other error (no endpoint left, the run refused, the
// journal broken, ctx ended) stops the fan-out and is returned. done and
// failed may be called from several goroutines at once.
func Fanout[J any](ctx context.Context, c Journaled, prog *progress.Progress,
	each func(yield func(job J, req Request) bool),
	done func(job J, resp Response, cached bool) error,
	failed func(job J, err error),
) error {
	g, gctx := errgroup.WithContext(ctx)
	// Twice the pool's capacity: while some goroutines journal responses,
	// others already wait for the slots they freed.
	g.SetLimit(2 * c.Pool.Capacity())
	each(func(job J, req Request) bool {
		if gctx.Err() != nil {
			return false
		}
		if resp, ok, err := c.Lookup(req); err != nil || ok {
			if err == nil {
				err = done(job, resp, true)
			}
			if err != nil {
				g.Go(func() error { return err })
				return false
			}
			prog.Skip(1)
			return true
		}
		g.Go(func() error {
			resp, shared, err := c.Do(gctx, req)
			switch {
			case err == nil && shared:
				// An identical request in flight paid for it. cached stays
				// false: it is true only on the enumerating goroutine.
				prog.Skip(1)
				return done(job, resp, false)
			case err == nil:
				prog.Done(resp.CompletionTokens)
				return done(job, resp, false)
			case errors.Is(err, ErrRejected) || errors.Is(err, ErrGaveUp):
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
	return ctx.Err()
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

// Count is the number of failures.
func (f *FailureLog) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count
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
