package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Pool spreads requests over endpoints. Each endpoint takes at most
// SlotsPerEndpoint requests at once; a request goes to the endpoint in
// rotation with the most room. An endpoint that faults FailThreshold times in
// a row leaves rotation for a cooldown, then gets one probe request; a
// success brings it back. The pool fails with ErrNoEndpoint once every
// endpoint is out and none can be expected back.
type Pool struct {
	opts Options

	mu   sync.Mutex
	eps  []*endpoint
	wake chan struct{} // closed and replaced whenever a slot frees or an endpoint changes state
	next int           // round-robin start among equally free endpoints

	retries atomic.Int64
	kind    serverKind
}

// NewPool makes a pool over the given base URLs.
func NewPool(urls []string, opts Options) (*Pool, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(urls) == 0 {
		return nil, errors.New("no endpoints given")
	}
	said := opts.Server
	opts.Server = ResolveServer(opts.Server, urls)
	p := &Pool{opts: opts, wake: make(chan struct{})}
	switch {
	case said != "":
		p.kind.why = "were said with --server " + said
	case opts.Server != "":
		p.kind.why = "are OpenAI's own host"
	}
	seen := map[string]bool{}
	for _, raw := range urls {
		base, err := NormalizeURL(raw)
		if err != nil {
			return nil, err
		}
		if seen[base] {
			return nil, fmt.Errorf("endpoint %s given twice", base)
		}
		seen[base] = true
		p.eps = append(p.eps, newEndpoint(base, opts))
	}
	return p, nil
}

// Shape is the request as the pool sends (and the journal keys) it: put in
// its server's form (Options.Shape; the kind decided first, DecideServer)
// and checked (Request.Validate). Every path that sends a request goes
// through it; shaping twice changes nothing.
func (p *Pool) Shape(req Request) (Request, error) {
	if err := p.DecideServer(context.Background()); err != nil {
		return req, err
	}
	req, err := p.opts.Shape(req)
	if err != nil {
		return req, err
	}
	return req, req.Validate()
}

// Capacity is the number of requests the pool can have in flight.
func (p *Pool) Capacity() int { return len(p.eps) * p.opts.SlotsPerEndpoint }

// Retries counts attempts that failed and were retried.
func (p *Pool) Retries() int64 { return p.retries.Load() }

// EndpointStatus is a snapshot of one endpoint for progress reports.
type EndpointStatus struct {
	URL      string
	InFlight int
	Up       bool
	Requests int64
	Faults   int64
}

// Status reports every endpoint.
func (p *Pool) Status() []EndpointStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]EndpointStatus, len(p.eps))
	for i, e := range p.eps {
		out[i] = EndpointStatus{URL: e.url, InFlight: e.inflight, Up: e.downUntil.IsZero(), Requests: e.requests, Faults: e.faults}
	}
	return out
}

// Do sends the request, retrying on other endpoints until it succeeds, the
// server rejects it, it has used its attempts, or its deadline passes
// (requestDeadline, counted from its first attempt). A request that cannot
// be sent as it is fails at once with ErrBadRequestConfig.
func (p *Pool) Do(ctx context.Context, req Request) (Response, error) {
	return p.DoKeeping(ctx, req, nil)
}

// DoKeeping is Do with keep called on the answer before its endpoint slot
// is given back: a journal that keeps every answer there holds all but the
// answers of the requests in flight, however starved of CPU the process
// is, so a kill costs at most one call per slot (with the slot released
// first, answers read but not yet kept piled up while new requests went
// out). keep's error is the request's.
func (p *Pool) DoKeeping(ctx context.Context, req Request, keep func(Response) error) (Response, error) {
	if p.opts.DryRun != nil {
		return Response{}, ErrDryRun // never sent, whatever path asked
	}
	req, err := p.Shape(req)
	if err != nil {
		return Response{}, err
	}
	prefer := p.endpointByURL(req.Prefer)
	// The deadline starts with the first attempt: waiting for a slot while
	// other requests hold them all is not this request being slow.
	e, err := p.acquire(ctx, nil, prefer)
	if err != nil {
		return Response{}, p.redact(err)
	}
	limit := requestDeadline(req, p.opts)
	rctx, cancel := context.WithTimeoutCause(ctx, limit, ErrRequestDeadline)
	defer cancel()
	// ended is the error once rctx is done: the caller's when it gave up,
	// else the request's deadline.
	var last error
	ended := func(attempts int) (Response, error) {
		if err := ctx.Err(); err != nil {
			return Response{}, err
		}
		return Response{}, p.redact(fmt.Errorf("%w: %w: %s found no answer within %v (%d attempts)%s",
			ErrGaveUp, ErrRequestDeadline, req.describe(), limit, attempts, lastSuffix(last)))
	}
	var avoid *endpoint
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			if e, err = p.acquire(rctx, avoid, prefer); err != nil {
				if rctx.Err() != nil {
					return ended(attempt - 1)
				}
				if last != nil && errors.Is(err, ErrNoEndpoint) {
					err = fmt.Errorf("%w (this request last failed with: %w)", err, last)
				}
				return Response{}, p.redact(err)
			}
		}
		resp, ex, err := e.call(rctx, req, p.opts)
		out := classify(rctx, err, ex)
		// The server cannot do what the run needs: its answer is not one to
		// keep (the journal would replay it on every rerun).
		noTokenIDs := out == succeeded && wantsTokenIDs(req) && len(resp.TokenIDs) == 0 && resp.CompletionTokens > 0
		var keepErr error
		if out == succeeded && !noTokenIDs && keep != nil {
			resp.Attempts = attempt
			keepErr = keep(resp)
		}
		p.release(e, out, err)
		switch out {
		case succeeded:
			if noTokenIDs {
				return Response{}, p.redact(fmt.Errorf("%s: %w: %w", e.url, ErrFatal, ErrNoTokenIDs))
			}
			if keepErr != nil {
				return Response{}, keepErr
			}
			resp.Attempts = attempt
			return resp, nil
		case canceled:
			return ended(attempt)
		case unsendable:
			return Response{}, p.redact(fmt.Errorf("%w: %s: %v", ErrBadRequestConfig, req.describe(), err))
		case fatal:
			return Response{}, p.redact(fmt.Errorf("%s: %w: %v", e.url, ErrFatal, err))
		case quota:
			return Response{}, p.redact(fmt.Errorf("%s: %w: %w: %v", e.url, ErrFatal, ErrQuota, err))
		case rejected:
			if strings.Contains(err.Error(), "--trust-request-chat-template") {
				// Every chat request carries the template: none would pass.
				return Response{}, p.redact(fmt.Errorf("%s: %w: %w: %v", e.url, ErrFatal, ErrUntrustedTemplate, err))
			}
			if refusesForm(err) {
				// Every request of the run has this form: none would pass.
				return Response{}, p.redact(p.wrongServer(e.url, req, err))
			}
			return Response{}, p.redact(fmt.Errorf("%s: %w: %w", e.url, ErrRejected, err))
		}
		last = newAttemptFault(e.url, err)
		if attempt >= p.opts.MaxAttempts {
			return Response{}, p.redact(fmt.Errorf("%w: %s (%d attempts), last: %w", ErrGaveUp, req.describe(), attempt, last))
		}
		p.retries.Add(1)
		avoid, prefer = e, nil
		pause := p.backoff(attempt)
		if out == overloaded {
			if ra := retryAfter(ex); ra > 0 {
				pause = min(ra, p.opts.BackoffMax)
			}
		}
		if err := sleep(rctx, pause); err != nil {
			return ended(attempt)
		}
	}
}

// attemptFault is a failed attempt as a request's final error reports it:
// the endpoint and the whole error text, but only the pool's own sentinels
// to errors.Is. A transport error can wrap context errors, which must not
// pass for the caller's context ending.
type attemptFault struct {
	text string
	kind error
}

func (f *attemptFault) Error() string { return f.text }
func (f *attemptFault) Unwrap() error { return f.kind }

func newAttemptFault(url string, err error) *attemptFault {
	f := &attemptFault{text: url + ": " + err.Error()}
	for _, kind := range []error{ErrSlowResponse, ErrCrossOriginRedirect, ErrMalformed} {
		if errors.Is(err, kind) {
			f.kind = kind
			break
		}
	}
	return f
}

func lastSuffix(last error) string {
	if last == nil {
		return ""
	}
	return ", last: " + last.Error()
}

func (p *Pool) backoff(attempt int) time.Duration {
	d := p.opts.BackoffBase << min(attempt-1, 20)
	if d > p.opts.BackoffMax || d <= 0 {
		d = p.opts.BackoffMax
	}
	return d/2 + rand.N(d/2+1) // jitter keeps retries from arriving in waves
}

func (p *Pool) cooldown(trips int) time.Duration {
	d := p.opts.CooldownBase << min(trips-1, 20)
	if d > p.opts.CooldownMax || d <= 0 {
		d = p.opts.CooldownMax
	}
	return d
}

// endpointByURL finds an endpoint by its base URL, as given or as a
// Response names it (nil when none has it).
func (p *Pool) endpointByURL(url string) *endpoint {
	if url == "" {
		return nil
	}
	for _, e := range p.eps {
		if e.url == url || strings.TrimSuffix(e.url, "/v1") == url {
			return e
		}
	}
	return nil
}

// acquire waits for a slot on an endpoint in rotation (or a probe slot on one
// whose cooldown has passed), preferring one other than avoid, and prefer
// when it is in rotation and has a free slot.
func (p *Pool) acquire(ctx context.Context, avoid, prefer *endpoint) (*endpoint, error) {
	for {
		p.mu.Lock()
		now := time.Now()
		// The preferred endpoint first, when it is in rotation and has room;
		// pickLocked marks the endpoint it returns as a probe, so it is
		// asked only when its choice is taken.
		var e *endpoint
		if prefer != nil && prefer != avoid && prefer.downUntil.IsZero() && prefer.inflight < p.opts.SlotsPerEndpoint {
			e = prefer
		} else {
			e = p.pickLocked(now, avoid)
		}
		if e != nil {
			e.inflight++
			e.requests++
			p.mu.Unlock()
			return e, nil
		}
		if err := p.allGoneLocked(now); err != nil {
			p.mu.Unlock()
			return nil, err
		}
		wake := p.wake
		wait := p.untilNextProbeLocked(now)
		p.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

func (p *Pool) pickLocked(now time.Time, avoid *endpoint) *endpoint {
	var best *endpoint
	bestFree := 0
	n := len(p.eps)
	for i := 0; i < n; i++ {
		e := p.eps[(p.next+i)%n]
		free := 0
		switch {
		case e.downUntil.IsZero():
			free = p.opts.SlotsPerEndpoint - e.inflight
		case !now.Before(e.downUntil) && !e.probing && e.inflight == 0:
			free = 1 // one probe
		}
		if free <= 0 {
			continue
		}
		if e == avoid && n > 1 {
			free = 0 // last resort: only when nothing else has room
			if best == nil {
				best = e
			}
			continue
		}
		if best == nil || best == avoid || free > bestFree {
			best, bestFree = e, free
		}
	}
	if best != nil {
		p.next = (p.next + 1) % n
		if !best.downUntil.IsZero() {
			best.probing = true
		}
	}
	return best
}

// allGoneLocked returns ErrNoEndpoint when every endpoint is out of rotation
// and none can be expected back: it has been out for longer than the pool's
// patience, or it never answered and its probes failed too (a server that
// is not there). An endpoint with requests still under way may yet answer,
// and one that never answered gets its probes: a faulty server's errors
// come back before its answers and can trip it before its first success.
func (p *Pool) allGoneLocked(now time.Time) error {
	var why []string
	for _, e := range p.eps {
		if e.downUntil.IsZero() || e.probing || e.inflight > 0 {
			return nil
		}
		if e.everOK && now.Sub(e.downSince) < p.opts.Patience {
			return nil
		}
		if !e.everOK && e.trips < neverAnsweredTrips {
			return nil
		}
		why = append(why, fmt.Sprintf("%s: %v", e.url, e.lastErr))
	}
	return fmt.Errorf("%w: %s", ErrNoEndpoint, strings.Join(why, "; "))
}

func (p *Pool) untilNextProbeLocked(now time.Time) time.Duration {
	wait := time.Second
	for _, e := range p.eps {
		if !e.downUntil.IsZero() {
			if d := e.downUntil.Sub(now); d < wait {
				wait = max(d, time.Millisecond)
			}
		}
	}
	return wait
}

func (p *Pool) release(e *endpoint, out outcome, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.inflight--
	wasProbe := e.probing
	e.probing = false
	switch out {
	case succeeded, rejected, overloaded:
		// The endpoint answered: it is alive.
		if !e.downUntil.IsZero() && p.opts.Logf != nil {
			p.opts.Logf("endpoint %s is back", e.url)
		}
		e.everOK = true
		e.consecFault, e.trips = 0, 0
		e.downUntil, e.downSince = time.Time{}, time.Time{}
	case unsendable:
		e.requests-- // nothing reached the server
	case timedOut:
		// A generation longer than the attempt's time says nothing about
		// the server's health.
	case faulted:
		e.faults++
		e.consecFault++
		e.lastErr = p.redact(err)
		if wasProbe || (e.downUntil.IsZero() && e.consecFault >= p.opts.FailThreshold) {
			e.trips++
			now := time.Now()
			if e.downSince.IsZero() {
				e.downSince = now
			}
			e.downUntil = now.Add(p.cooldown(e.trips))
			if p.opts.Logf != nil {
				p.opts.Logf("endpoint %s out of rotation for %v after %d faults: %v", e.url, p.cooldown(e.trips), e.consecFault, e.lastErr)
			}
		}
	}
	close(p.wake)
	p.wake = make(chan struct{})
}

// redact makes an error safe to print, whatever a server put in it: the
// API key removed, control characters escaped and the text bounded
// (servers' bodies are cut where they are quoted: cleanServerError; this
// covers the rest, such as a transport error quoting a header line).
func (p *Pool) redact(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	clean := text
	if p.opts.APIKey != "" {
		clean = strings.ReplaceAll(clean, p.opts.APIKey, "[REDACTED]")
	}
	clean = printable(clean, maxErrorBytes)
	if clean == text {
		return err
	}
	return redactedError{err: err, text: clean}
}

type redactedError struct {
	err  error
	text string
}

func (r redactedError) Error() string { return r.text }
func (r redactedError) Unwrap() error { return r.err }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// neverAnsweredTrips is how many times an endpoint that never answered is
// taken out of rotation (its probe failing each time) before it counts as
// not there.
const neverAnsweredTrips = 3

// wantsTokenIDs reports whether the request asks for the generated token ids.
func wantsTokenIDs(req Request) bool {
	v, _ := req.Extra["return_token_ids"].(bool)
	return v
}
