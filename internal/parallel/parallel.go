// Package parallel runs a stage's work on a bounded number of goroutines:
// the one pattern behind every fan-out of datg (the LLM fan-outs of
// internal/llm, langcheck's detectors, the symbolic aligner). The first
// error stops it: the producer is told to yield no more, the tasks still
// running see their context canceled, and the error is returned once they
// have all returned.
package parallel

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Group is work in flight for one producer: an errgroup.WithContext with a
// limit. A producer loop reads
//
//	g := parallel.New(ctx, limit)
//	err := each(func(item T) bool {
//		if g.Stopped() {
//			return false
//		}
//		g.Go(func(ctx context.Context) error { ... })
//		return true
//	})
//	return g.Wait(err)
type Group struct {
	eg     *errgroup.Group
	ctx    context.Context // the tasks': canceled at the first error
	parent context.Context
}

// New starts a group of at most limit tasks at once (limit < 1: no bound)
// under ctx.
func New(ctx context.Context, limit int) *Group {
	eg, gctx := errgroup.WithContext(ctx)
	if limit >= 1 {
		eg.SetLimit(limit)
	}
	return &Group{eg: eg, ctx: gctx, parent: ctx}
}

// Stopped reports whether a task failed, Fail was called or ctx ended: the
// producer should yield no more.
func (g *Group) Stopped() bool { return g.ctx.Err() != nil }

// Go runs task on a goroutine once fewer than limit run (it blocks until
// then). task gets the group's context, canceled at the first error; a
// task whose turn comes after the group stopped is not run.
func (g *Group) Go(task func(ctx context.Context) error) {
	g.eg.Go(func() error {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		return task(g.ctx)
	})
}

// Fail stops the group with an error the producer found itself (a request
// it could not shape, a journal it could not read), as if a task had
// returned it: the tasks in flight are canceled.
func (g *Group) Fail(err error) {
	g.eg.Go(func() error { return err })
}

// Wait waits for every task and returns the first error of a task (or of
// Fail), else the parent context's error, else produced: the producer's
// own error, which did not stop the tasks already started.
func (g *Group) Wait(produced error) error {
	if err := g.eg.Wait(); err != nil {
		return err
	}
	if err := g.parent.Err(); err != nil {
		return err
	}
	return produced
}
