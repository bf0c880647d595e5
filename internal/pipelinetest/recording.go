package pipelinetest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Recording keeps the body of every request and passes it on to Next:
// tests read back what a stage really sent.
type Recording struct {
	Next http.Handler

	mu     sync.Mutex
	bodies []string
}

func (h *Recording) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.bodies = append(h.bodies, string(body))
	h.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.Next.ServeHTTP(w, r)
}

// Containing counts the recorded bodies that hold s.
func (h *Recording) Containing(s string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, b := range h.bodies {
		if strings.Contains(b, s) {
			n++
		}
	}
	return n
}
