package llm

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// RequestFailed reports whether err fails one request only (rejected by the
// server, or failed on every attempt) rather than the whole run.
func RequestFailed(err error) bool {
	return errors.Is(err, ErrRejected) || errors.Is(err, ErrGaveUp) || errors.Is(err, ErrDryRun)
}

// failureLog keeps the first few failures of a fan-out for its error
// message.
type failureLog struct {
	mu    sync.Mutex
	count int
	first []string
}

// add records a failure.
func (f *failureLog) add(what string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count++
	if len(f.first) < 3 {
		f.first = append(f.first, fmt.Sprintf("%s: %v", what, err))
	}
}

// err is nil when nothing failed, else an ErrFailedRequests error saying how
// many failed and the first reasons.
func (f *failureLog) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d failed for good, first: %s; rerun to retry them", ErrFailedRequests, f.count, strings.Join(f.first, "; "))
}
