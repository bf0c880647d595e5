package view

import (
	"io"
	"sync"
)

// heldLog holds what the viewer's background work (the search index, the
// paper tables) logs until the "serving … on http://…" line is out: on a
// small run that work can finish before the listener is up, and the
// address must be the first thing a user (or a script reading stderr)
// sees. Writes may come from several goroutines.
type heldLog struct {
	mu       sync.Mutex
	w        io.Writer
	held     []byte
	released bool
}

func (h *heldLog) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.released {
		h.held = append(h.held, p...)
		return len(p), nil
	}
	return h.w.Write(p)
}

// release writes what was held, in order, and lets later writes through.
func (h *heldLog) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return
	}
	h.released = true
	if len(h.held) > 0 {
		h.w.Write(h.held)
		h.held = nil
	}
}
