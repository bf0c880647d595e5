package llm_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
)

// Finish commits what finished only when nothing stopped the fan-out and,
// if jobs failed, only with keepGoing; the error it returns says what was
// written and, without keepGoing, names the KeepGoing field.
func TestFinishDecidesWhetherToCommit(t *testing.T) {
	stopped := fmt.Errorf("%w (finished responses are kept; rerun to resume)", llm.ErrNoEndpoint)
	failures := fmt.Errorf("%w: 2 failed for good, first: a: x; b: y; rerun to retry them", llm.ErrFailedRequests)
	commitErr := errors.New("disk full")
	cases := []struct {
		name       string
		err        error
		keepGoing  bool
		commitErr  error
		wantCommit bool
		wantIs     error  // nil: no error
		wantText   string // in the error
		wantField  string // the FieldError it holds, if any
	}{
		{name: "all finished", wantCommit: true},
		{name: "all finished, keep going", keepGoing: true, wantCommit: true},
		{name: "commit fails", commitErr: commitErr, wantCommit: true, wantIs: commitErr},
		{name: "stopped", err: stopped, wantIs: llm.ErrNoEndpoint, wantText: "finished responses are kept"},
		{name: "stopped, keep going", err: stopped, keepGoing: true, wantIs: llm.ErrNoEndpoint},
		{name: "failures", err: failures, wantIs: llm.ErrFailedRequests,
			wantText: "or set KeepGoing: it writes the traces that finished", wantField: "KeepGoing"},
		{name: "failures, keep going", err: failures, keepGoing: true, wantCommit: true, wantIs: llm.ErrFailedRequests,
			wantText: "; the traces that finished were written"},
		{name: "failures, keep going, commit fails", err: failures, keepGoing: true, commitErr: commitErr, wantCommit: true, wantIs: commitErr},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			committed := false
			err := llm.Finish(c.err, c.keepGoing, "traces", func() error { committed = true; return c.commitErr })
			if committed != c.wantCommit {
				t.Errorf("committed %v, want %v", committed, c.wantCommit)
			}
			if c.wantIs == nil && err != nil {
				t.Errorf("error %v, want none", err)
			}
			if c.wantIs != nil && !errors.Is(err, c.wantIs) {
				t.Errorf("error %v, want %v", err, c.wantIs)
			}
			if c.wantText != "" && (err == nil || !strings.Contains(err.Error(), c.wantText)) {
				t.Errorf("error %v does not say %q", err, c.wantText)
			}
			var fields []string
			for _, fe := range inputerr.Fields(err) {
				fields = append(fields, fe.Field)
			}
			if got := strings.Join(fields, ","); got != c.wantField {
				t.Errorf("fields named %q, want %q", got, c.wantField)
			}
		})
	}
}

// A stage that holds KeepGoing under another Config (control's
// Generation) names it so, though Finish made the message.
func TestFinishHintCanBeNested(t *testing.T) {
	failures := fmt.Errorf("%w: 1 failed for good, first: a: x; rerun to retry them", llm.ErrFailedRequests)
	err := inputerr.Nest("Generation", llm.Finish(failures, false, "examples", func() error { return nil }))
	want := "or set Generation.KeepGoing: it writes the examples that finished"
	if !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("error %q does not end %q", err, want)
	}
}
