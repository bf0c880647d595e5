package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/progress"
)

// rejected is a request the simulator answers with 400 (chat, no
// messages): it fails its job only.
func rejected(i int) llm.Request {
	req := swahiliRequest(i)
	req.API = llm.APIChat
	return req
}

// journaledClient sends to one simulated endpoint through a new journal.
func journaledClient(t *testing.T) llm.Journaled {
	t.Helper()
	eps := start(t, simConfig())
	pool, err := llm.NewPool([]string{eps[0].URL}, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	return llm.NewJournaled(pool, openJournal(t, t.TempDir()))
}

// A request the server rejects fails its job, named as LogFailures says;
// the others finish, and the fan-out then ends in ErrFailedRequests
// counting the failures.
func TestFanoutLogsFailuresAndGoesOn(t *testing.T) {
	client := journaledClient(t)
	bad := map[int]bool{1: true, 4: true}
	prog := progress.Start(io.Discard, "test", 6)
	defer prog.Finish()
	var mu sync.Mutex
	var answered []int
	err := llm.Fanout(context.Background(), client, prog,
		func(yield func(int, llm.Request) bool) error {
			for i := range 6 {
				req := swahiliRequest(i)
				if bad[i] {
					req = rejected(i)
				}
				if !yield(i, req) {
					break
				}
			}
			return nil
		},
		func(i int, _ llm.Request, _ llm.Response, _ bool) error {
			mu.Lock()
			defer mu.Unlock()
			answered = append(answered, i)
			return nil
		},
		llm.LogFailures(func(i int) string { return fmt.Sprintf("job %d", i) }))
	if !errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("got %v, want ErrFailedRequests", err)
	}
	for _, want := range []string{"2 failed for good", "job 1: ", "job 4: "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if len(answered) != 4 {
		t.Errorf("%d jobs answered, want 4", len(answered))
	}
	done, skipped, failed := prog.Counts()
	if done != 4 {
		t.Errorf("progress: %d done, want 4", done)
	}
	if skipped != 0 {
		t.Errorf("progress: %d skipped, want 0", skipped)
	}
	if failed != 2 {
		t.Errorf("progress: %d failed, want 2", failed)
	}
}

// FanoutJobs runs jobs that make their own requests: a job whose request
// fails is a failed job and the others go on; a job's own error stops the
// run, named as LogFailures says.
func TestFanoutJobs(t *testing.T) {
	client := journaledClient(t)
	name := llm.LogFailures(func(i int) string { return fmt.Sprintf("example %d", i) })
	jobs := func(n int) func(func(int) bool) error {
		return func(yield func(int) bool) error {
			for i := range n {
				if !yield(i) {
					break
				}
			}
			return nil
		}
	}
	// Each job asks twice, one request after the other; job 2's second
	// request is rejected.
	prog := progress.Start(io.Discard, "test", 5)
	var finished sync.Map
	err := llm.FanoutJobs(context.Background(), client, prog, jobs(5),
		func(ctx context.Context, i int) error {
			if _, _, err := client.Do(ctx, swahiliRequest(2*i)); err != nil {
				return err
			}
			second := swahiliRequest(2*i + 1)
			if i == 2 {
				second = rejected(2*i + 1)
			}
			if _, _, err := client.Do(ctx, second); err != nil {
				return err
			}
			prog.Done(0)
			finished.Store(i, true)
			return nil
		}, name)
	prog.Finish()
	if !errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("got %v, want ErrFailedRequests", err)
	}
	if !strings.Contains(err.Error(), "example 2: ") {
		t.Errorf("error %q does not name example 2", err)
	}
	for i := range 5 {
		if _, ok := finished.Load(i); ok == (i == 2) {
			t.Errorf("example %d finished: %v", i, ok)
		}
	}
	done, _, failed := prog.Counts()
	if done != 4 {
		t.Errorf("progress: %d done, want 4", done)
	}
	if failed != 1 {
		t.Errorf("progress: %d failed, want 1", failed)
	}

	// A job's own error stops the run: it names the job, and says that
	// what finished is kept.
	broken := errors.New("cannot write the row")
	err = llm.FanoutJobs(context.Background(), client, progress.Start(io.Discard, "test", 5), jobs(5),
		func(ctx context.Context, i int) error {
			if i == 3 {
				return broken
			}
			_, _, err := client.Do(ctx, swahiliRequest(2*i))
			return err
		}, name)
	if !errors.Is(err, broken) || errors.Is(err, llm.ErrFailedRequests) {
		t.Fatalf("got %v, want the job's own error", err)
	}
	for _, want := range []string{"example 3: cannot write the row", "finished responses are kept"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
