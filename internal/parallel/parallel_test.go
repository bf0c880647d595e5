package parallel_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/datg/datg/internal/parallel"
)

// At most limit tasks run at once; the producer waits for a free one.
func TestLimitBoundsTasksInFlight(t *testing.T) {
	const limit, tasks = 3, 10
	g := parallel.New(context.Background(), limit)
	var inFlight, most, ran atomic.Int64
	release := make(chan struct{})
	produced := make(chan error)
	go func() {
		for range tasks {
			g.Go(func(context.Context) error {
				n := inFlight.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				inFlight.Add(-1)
				ran.Add(1)
				return nil
			})
		}
		produced <- g.Wait(nil)
	}()
	for inFlight.Load() < limit {
		runtime.Gosched()
	}
	close(release)
	if err := <-produced; err != nil {
		t.Fatal(err)
	}
	if got := most.Load(); got != limit {
		t.Errorf("%d tasks ran at once, want %d", got, limit)
	}
	if got := ran.Load(); got != tasks {
		t.Errorf("%d tasks ran, want %d", got, tasks)
	}
}

// The first error stops the producer, cancels the tasks in flight, and is
// returned once they have returned; tasks queued after it do not run.
func TestFirstErrorCancelsAndDrains(t *testing.T) {
	boom := errors.New("boom")
	g := parallel.New(context.Background(), 2)
	var canceled, after atomic.Bool
	started := make(chan struct{})
	g.Go(func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		canceled.Store(true)
		return ctx.Err()
	})
	<-started
	g.Go(func(context.Context) error { return boom })
	for !g.Stopped() {
		runtime.Gosched()
	}
	g.Go(func(context.Context) error { after.Store(true); return nil })
	err := g.Wait(errors.New("the producer's"))
	if !errors.Is(err, boom) {
		t.Fatalf("Wait = %v, want the first task error", err)
	}
	if !canceled.Load() {
		t.Error("the task in flight was not canceled")
	}
	if after.Load() {
		t.Error("a task queued after the error ran")
	}
}

// Fail stops the group as a task's error would.
func TestFailStopsTheGroup(t *testing.T) {
	bad := errors.New("unshapeable request")
	g := parallel.New(context.Background(), 4)
	g.Fail(bad)
	if err := g.Wait(nil); !errors.Is(err, bad) {
		t.Fatalf("Wait = %v, want %v", err, bad)
	}
	if !g.Stopped() {
		t.Error("the group did not stop")
	}
}

// Without a task error, the parent's end comes before the producer's own
// error, and the producer's error is returned when nothing else went wrong.
func TestWaitOrder(t *testing.T) {
	own := errors.New("scan failed")
	g := parallel.New(context.Background(), 1)
	g.Go(func(context.Context) error { return nil })
	if err := g.Wait(own); !errors.Is(err, own) {
		t.Fatalf("Wait = %v, want the producer's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	g = parallel.New(ctx, 1)
	cancel()
	if !g.Stopped() {
		t.Fatal("a canceled parent did not stop the group")
	}
	if err := g.Wait(own); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
}
