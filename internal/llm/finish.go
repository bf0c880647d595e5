package llm

import (
	"errors"
	"fmt"

	"github.com/datg/datg/internal/inputerr"
)

// Finish ends a stage whose fan-out ended in err, and is the one place that
// decides whether what finished is committed (generate's traces, control's
// examples: what names them in the messages):
//
//   - an error that stopped the fan-out: nothing is committed (the finished
//     responses are journaled; a rerun resumes), and err is returned;
//   - some jobs failed for good (ErrFailedRequests; every other one
//     finished): without keepGoing nothing is committed, and the error says
//     that the Config's KeepGoing would write what finished; with keepGoing
//     commit runs and the failures are still returned;
//   - no failure: commit runs and its error is returned.
func Finish(err error, keepGoing bool, what string, commit func() error) error {
	failed := errors.Is(err, ErrFailedRequests)
	if err != nil && !failed {
		return err
	}
	if failed && !keepGoing {
		return &notKept{failures: err, hint: inputerr.BadField("KeepGoing", "it writes the %s that finished", what)}
	}
	if cerr := commit(); cerr != nil {
		return cerr
	}
	if failed {
		return fmt.Errorf("%w; the %s that finished were written", err, what)
	}
	return nil
}

// notKept is failures that KeepGoing would have let the stage write. Its
// message is made when it is read, so a stage that holds the KeepGoing of
// another Config can still name it (inputerr.Nest).
type notKept struct {
	failures error
	hint     *inputerr.FieldError
}

func (e *notKept) Error() string   { return e.failures.Error() + ", or set " + e.hint.Error() }
func (e *notKept) Unwrap() []error { return []error{e.failures, e.hint} }
