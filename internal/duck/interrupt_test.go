package duck

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// endless is a query that runs for hours: 10^13 rows of a cross join.
const endless = "SELECT count(*) FROM range(100000000) a, range(100000) b"

// stopsWithin runs q and fails unless it ends within limit, returning its
// error. (An Arrow query was not interrupted at all: the test would wait
// for hours, so it gives up instead.)
func stopsWithin(t *testing.T, ctx context.Context, db *DB, q string, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- WriteQuery(ctx, db, q, FormatCSV, io.Discard) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("%s ran on %s after it should have stopped", q, limit)
		return nil
	}
}

// A cancelled context stops a running query, whichever statement of a
// query string runs, and the database answers the next query.
func TestCancelInterruptsTheQuery(t *testing.T) {
	db := open(t, t.TempDir())
	for _, q := range []string{
		endless,
		"SELECT 1; " + endless,               // the last statement: go-duckdb's Arrow query leaves it running
		endless + "; SELECT 1",               // an earlier one
		"WITH x AS (" + endless + ") FROM x", // a query over a query
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(300*time.Millisecond, func() { cancel(errors.New("interrupt signal received")) })
		err := stopsWithin(t, ctx, db, q, 20*time.Second)
		if !errors.Is(err, ErrInterrupted) || err.Error() != "query interrupted: interrupt signal received" {
			t.Errorf("%s: %v, want ErrInterrupted with the cause", q, err)
		}
		checkQuery(t, "the next query", db, "SELECT 42 AS x", "x\n42\n")
	}
}

// A query past Limits.Timeout stops with ErrTimeout naming the limit.
func TestTimeoutInterruptsTheQuery(t *testing.T) {
	db, err := OpenWith(context.Background(), t.TempDir(), Limits{Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	err = stopsWithin(t, context.Background(), db, endless, 20*time.Second)
	if !errors.Is(err, ErrTimeout) || err.Error() != "query stopped at its time limit of 500ms" {
		t.Fatalf("got %v, want ErrTimeout naming 500ms", err)
	}
	t.Logf("stopped %s after its start", time.Since(start).Round(time.Millisecond))
	// A quick query is not affected.
	checkQuery(t, "a quick query", db, "SELECT 42 AS x", "x\n42\n")
}

// A signal that comes while the run's views are being made (datg sql
// stopped at once, or on a loaded machine) says what a stopped query says,
// not "context canceled".
func TestCancelWhileOpeningIsAnInterruption(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("terminated signal received"))
	db, err := OpenWith(ctx, t.TempDir(), Limits{})
	if err == nil {
		db.Close()
		t.Fatal("opened with a cancelled context")
	}
	if !errors.Is(err, ErrInterrupted) || err.Error() != "query interrupted: terminated signal received" {
		t.Fatalf("got %v, want ErrInterrupted with the cause", err)
	}
}
