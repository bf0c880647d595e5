package llm

import (
	"context"
)

// fanoutBatched is Fanout with --batch: every request the fan-out yields
// is first answered through the Batch API (batcher.run journals each
// answer), then the ordinary online pass runs over the same requests and
// finds each answer in the journal, so the stage's own code handles batch
// answers exactly as online ones. A request no batch answered fails its
// job, never sent online (that would cost twice the price); a rerun
// submits it again. Requests a stage makes while handling an answer (a
// DAG's repair, an alignment's second try) depend on that answer and go
// online through Journaled.Do.
func fanoutBatched[J any](ctx context.Context, f *fanout[J], c Journaled,
	each func(yield func(job J, req Request) bool) error,
	done func(job J, req Request, resp Response, cached bool) error,
) error {
	type item struct {
		job J
		req Request
	}
	var items []item
	var reqs []Request
	var bad error
	err := each(func(job J, req Request) bool {
		// Every request is checked before the first upload, as the
		// online path checks each before sending it.
		req, err := c.Shape(req)
		if err == nil {
			err = clientRefusal(req)
		}
		if err != nil {
			bad = err
			return false
		}
		items = append(items, item{job, req})
		reqs = append(reqs, req)
		return true
	})
	if err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	unanswered, err := c.batch.run(ctx, c, reqs)
	if err != nil {
		return err
	}
	online := c
	online.batch = nil
	return f.requests(online,
		func(yield func(job J, req Request) bool) error {
			for _, it := range items {
				if err, ok := unanswered[it.req.Key()]; ok {
					f.fail(it.job, err)
					continue
				}
				if !yield(it.job, it.req) {
					break
				}
			}
			return nil
		}, done)
}
