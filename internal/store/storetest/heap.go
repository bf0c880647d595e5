// Package storetest holds what the stages' tests share about the store.
package storetest

import (
	"fmt"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
)

// HeapHeldAt runs run and returns the live heap it holds, beyond what was
// live before it began, when the store reaches step (a fault-hook step
// such as "finish traces": a stage's tables written, not yet committed,
// its peak). A run that never reaches step is an error, so a renamed step
// cannot make a memory test measure nothing and pass. The stages' memory
// tests measure it at two run sizes (testenv.HeapPer).
func HeapHeldAt(step string, run func() error) (int64, error) {
	var held int64
	reached := false
	before := testenv.LiveHeap()
	restore := store.SetFaultHook(func(s string) error {
		if s == step {
			held, reached = testenv.LiveHeap()-before, true
		}
		return nil
	})
	defer restore()
	if err := run(); err != nil {
		return 0, err
	}
	if !reached {
		return 0, fmt.Errorf("the store never reached step %q", step)
	}
	return held, nil
}
