package llm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// slowOptions detect a stall or trickle within 300ms of a response's first
// byte, and give an attempt a whole minute otherwise.
func slowOptions() llm.Options {
	o := fastOptions()
	o.StallTimeout = 300 * time.Millisecond
	o.RequestTimeout = time.Minute
	o.MaxAttempts, o.FailThreshold = 2, 100
	return o
}

// A server that sends its reply a byte at a time, or stalls halfway, fails
// the attempt early: the request fails with the reason instead of holding
// its slot until the attempt's timeout, on every attempt.
func TestTricklingResponseFailsEarly(t *testing.T) {
	for _, c := range []struct {
		name  string
		every time.Duration
	}{
		{"trickle", 20 * time.Millisecond}, // 50 bytes a second, below the 64 of the minimum rate
		{"stall", 10 * time.Second},        // one byte, then nothing
	} {
		cfg := simConfig()
		cfg.Faults = simulate.Faults{TrickleRate: 1, TrickleInterval: c.every}
		eps := start(t, cfg)
		pool, err := llm.NewPool([]string{eps[0].URL}, slowOptions())
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		_, err = pool.Do(context.Background(), swahiliRequest(0))
		if !errors.Is(err, llm.ErrSlowResponse) || !llm.RequestFailed(err) {
			t.Fatalf("%s: got %v, want a failed request for a slow response", c.name, err)
		}
		// Generous: the two attempts end within a second; undetected, each
		// would take the attempt's minute (the trickled body takes longer).
		if took := time.Since(began); took > 30*time.Second {
			t.Fatalf("%s: took %v", c.name, took)
		}
		if st := eps[0].Server.Stats(); st.Trickled != 2 {
			t.Fatalf("%s: %d trickled replies, want 2 attempts", c.name, st.Trickled)
		}
	}
}

// A server that takes long to generate (no byte until the reply is ready)
// is not a stall: only a response that started and then stops is one.
func TestSlowGenerationIsNotAStall(t *testing.T) {
	cfg := simConfig()
	cfg.Latency = time.Second // over three stall timeouts without a byte
	eps := start(t, cfg)
	pool, _ := llm.NewPool([]string{eps[0].URL}, slowOptions())
	answeredAtOnce(t, "a slow but healthy generation", pool, swahiliRequest(0))
}

// One request may take no longer than its deadline, however many attempts
// it has left: a server that never answers in time, or fails every attempt,
// fails the request (not the run, nor the caller's context).
func TestRequestDeadlineBoundsAllAttempts(t *testing.T) {
	slow := simConfig()
	slow.Latency = 5 * time.Second
	failing := simConfig()
	failing.Faults = simulate.Faults{ErrorRate: 1, ErrorCodes: []int{500}}
	for name, cfg := range map[string]simulate.Config{"slow": slow, "failing": failing} {
		eps := start(t, cfg)
		o := fastOptions()
		o.RequestDeadline = 300 * time.Millisecond
		o.MaxAttempts, o.FailThreshold = 1000, 1000
		pool, _ := llm.NewPool([]string{eps[0].URL}, o)
		_, err := pool.Do(context.Background(), swahiliRequest(0))
		if !errors.Is(err, llm.ErrRequestDeadline) || !llm.RequestFailed(err) {
			t.Fatalf("%s: got %v, want a failed request past its deadline", name, err)
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Fatalf("%s: the deadline passes for the caller's context ending: %v", name, err)
		}
		if !pool.Status()[0].Up && name == "slow" {
			t.Fatalf("%s: a slow endpoint was taken out of rotation", name)
		}
	}
}
