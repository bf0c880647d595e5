package llm

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/parallel"
	"github.com/datg/datg/internal/progress"
)

// FanoutOption configures Fanout and FanoutJobs.
type FanoutOption[J any] func(*fanoutOptions[J])

type fanoutOptions[J any] struct {
	name func(job J) string
}

// LogFailures names each failed job name(job) in the fan-out's error (by
// default a job is named as fmt prints it). A failed job never stops the
// fan-out: the others go on, and the fan-out then ends in an
// ErrFailedRequests error that counts the failures and names the first.
// FanoutJobs also names the job whose error stopped the run.
func LogFailures[J any](name func(job J) string) FanoutOption[J] {
	return func(o *fanoutOptions[J]) { o.name = name }
}

// Fanout sends the requests that each yields, concurrently, through a
// journaled client, and hands every response to done with its request. A
// journaled response is handed over at once (cached, counted as reused); a
// new one when it arrives. A request the server rejects, or that fails on
// every attempt (RequestFailed), fails its job (see LogFailures) and the
// others go on; any other error (no endpoint left, the run refused, the
// journal broken, ctx ended, each's or done's own error) stops the fan-out
// and is returned, saying that finished responses are kept. done may be
// called from several goroutines at once; done with cached only from the
// goroutine that called Fanout.
//
// With a dry run (Options.DryRun) nothing is sent: the requests are
// counted and the fan-out ends in ErrDryRun. With --batch (Target.Batch)
// the requests are first answered through the Batch API (fanoutBatched).
func Fanout[J any](ctx context.Context, c Journaled, prog *progress.Progress,
	each func(yield func(job J, req Request) bool) error,
	done func(job J, req Request, resp Response, cached bool) error,
	opts ...FanoutOption[J],
) error {
	// Twice the pool's capacity: while some goroutines journal responses,
	// others already wait for the slots they freed.
	f := newFanout(ctx, c, prog, 2*c.Pool.Capacity(), opts)
	if c.batch != nil && c.dry == nil { // a dry run counts, never submits
		return f.end(fanoutBatched(ctx, f, c, each, done))
	}
	return f.end(f.requests(c, each, done))
}

// FanoutJobs runs work on every job that each yields, concurrently, for
// jobs that make their own requests through c (a controlled example asks
// for its attempts one after another, each through c.Do): as many jobs at
// once as c's pool has slots keeps every slot busy. A job whose work fails
// with RequestFailed fails (see LogFailures) and the others go on; any
// other error stops the fan-out, as for Fanout. work counts its job's
// progress; a failed job is counted here.
func FanoutJobs[J any](ctx context.Context, c Journaled, prog *progress.Progress,
	each func(yield func(job J) bool) error,
	work func(ctx context.Context, job J) error,
	opts ...FanoutOption[J],
) error {
	f := newFanout(ctx, c, prog, c.Pool.Capacity(), opts)
	eachErr := each(func(job J) bool {
		if f.group.Stopped() {
			return false
		}
		f.group.Go(func(ctx context.Context) error {
			err := f.settle(job, work(ctx, job))
			if err != nil {
				return fmt.Errorf("%s: %w", f.name(job), err)
			}
			return nil
		})
		return true
	})
	return f.end(eachErr)
}

// fanout is what Fanout and FanoutJobs share: the bounded group the jobs
// run in, the progress, and the log of the jobs that failed.
type fanout[J any] struct {
	opts     fanoutOptions[J]
	prog     *progress.Progress
	group    *parallel.Group
	failures failureLog
}

func newFanout[J any](ctx context.Context, c Journaled, prog *progress.Progress, limit int, opts []FanoutOption[J]) *fanout[J] {
	f := &fanout[J]{prog: prog, group: parallel.New(ctx, limit)}
	if f.prog == nil {
		f.prog = progress.Start(nil, "", 0)
	}
	if c.dry != nil {
		// A dry run prints its plan (DryRun.Report) and nothing else: no
		// "0 done".
		f.prog.Quiet()
	}
	for _, o := range opts {
		o(&f.opts)
	}
	return f
}

// name is how the job is named in errors.
func (f *fanout[J]) name(job J) string {
	if f.opts.name != nil {
		return f.opts.name(job)
	}
	return fmt.Sprint(job)
}

// fail counts and logs a job that failed for good.
func (f *fanout[J]) fail(job J, err error) {
	f.prog.Fail()
	f.failures.add(f.name(job), err)
}

// settle is the end of one job's work: nil, a failure of that job only
// (logged; the others go on), or an error that stops the fan-out.
func (f *fanout[J]) settle(job J, err error) error {
	if err != nil && RequestFailed(err) {
		f.fail(job, err)
		return nil
	}
	return err
}

// end waits for the jobs in flight and says how the fan-out ended: the
// error that stopped it (the finished responses are journaled), else
// ErrFailedRequests when jobs failed, else nil.
func (f *fanout[J]) end(produced error) error {
	if err := f.group.Wait(produced); err != nil {
		return fmt.Errorf("%w (finished responses are kept; rerun to resume)", err)
	}
	return f.failures.err()
}

// requests is Fanout's online pass: each request is answered from the
// journal on the calling goroutine, or sent on one of the group's.
func (f *fanout[J]) requests(c Journaled,
	each func(yield func(job J, req Request) bool) error,
	done func(job J, req Request, resp Response, cached bool) error,
) error {
	eachErr := each(func(job J, req Request) bool {
		if f.group.Stopped() {
			return false
		}
		// Keyed, sent and handed to done as the server gets it.
		req, err := c.Shape(req)
		if err != nil {
			f.group.Fail(err)
			return false
		}
		if sent, resp, ok, err := c.journaled(req); err != nil || ok {
			if err == nil {
				if err = spentError(sent, resp); err != nil {
					f.fail(job, err)
					return true
				}
				err = done(job, sent, resp, true)
			}
			if err != nil {
				f.group.Fail(err)
				return false
			}
			if c.dry != nil {
				c.dry.count(c.Journal, sent, true)
			}
			f.prog.Skip(1)
			return true
		} else if c.dry != nil {
			c.dry.count(c.Journal, sent, false)
			return true
		}
		f.group.Go(func(ctx context.Context) error {
			sent, resp, cached, err := c.DoSent(ctx, req)
			if err != nil {
				return f.settle(job, err)
			}
			if cached {
				// An identical request in flight paid for it.
				f.prog.Skip(1)
			} else {
				f.prog.Done(resp.CompletionTokens)
			}
			return done(job, sent, resp, false)
		})
		return true
	})
	if eachErr == nil && c.dry != nil {
		return ErrDryRun
	}
	return eachErr
}
