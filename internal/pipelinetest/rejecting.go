package pipelinetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// Rejecting answers HTTP 400 with Message to requests whose body holds
// Marker (until Off is set) and passes the others on to Next. It counts the
// rejected requests and the distinct bodies among them.
type Rejecting struct {
	Next    http.Handler
	Marker  string
	Message string
	Off     atomic.Bool

	count    atomic.Int64
	mu       sync.Mutex
	distinct map[string]bool
}

func (h *Rejecting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !h.Off.Load() && bytes.Contains(body, []byte(h.Marker)) {
		h.count.Add(1)
		h.mu.Lock()
		if h.distinct == nil {
			h.distinct = map[string]bool{}
		}
		h.distinct[string(body)] = true
		h.mu.Unlock()
		msg, _ := json.Marshal(h.Message)
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error": {"message": `+string(msg)+`, "type": "BadRequestError"}}`)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.Next.ServeHTTP(w, r)
}

// Count is the number of requests rejected.
func (h *Rejecting) Count() int64 { return h.count.Load() }

// Distinct is the number of different request bodies rejected.
func (h *Rejecting) Distinct() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.distinct)
}
