package simulate

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// maxUploadBytes is the largest file /v1/files takes (OpenAI's batch
// input limit is 200 MB).
const maxUploadBytes = 200 << 20

// file is one file of the simulated /v1/files store.
type file struct {
	ID        string
	Name      string
	Purpose   string
	CreatedAt int64
	Bytes     []byte
}

func (f *file) object() map[string]any {
	return map[string]any{"id": f.ID, "object": "file", "bytes": len(f.Bytes), "created_at": f.CreatedAt,
		"filename": f.Name, "purpose": f.Purpose, "status": "processed", "status_details": nil}
}

// batchAPI is the state of the simulated Files and Batch APIs of one
// endpoint: uploaded and generated files, and the batches.
type batchAPI struct {
	mu      sync.Mutex
	files   map[string]*file
	batches map[string]*batch
	order   []string // batch ids in creation order
	nextID  int
}

func newBatchAPI() *batchAPI {
	return &batchAPI{files: map[string]*file{}, batches: map[string]*batch{}}
}

// id is a fresh object id with OpenAI's prefix (file-, batch_, batch_req_).
func (a *batchAPI) id(prefix string) string {
	a.nextID++
	return fmt.Sprintf("%s%06d", prefix, a.nextID)
}

// addFile stores a file and returns its id. The caller holds a.mu.
func (a *batchAPI) addFile(name, purpose string, b []byte) *file {
	f := &file{ID: a.id("file-"), Name: name, Purpose: purpose, CreatedAt: time.Now().Unix(), Bytes: b}
	a.files[f.ID] = f
	return f
}

// serveFiles answers /v1/files (upload) and /v1/files/{id}[/content];
// rest is the path after /v1/files, of an authorized request.
func (s *Server) serveFiles(w http.ResponseWriter, r *http.Request, rest string) {
	a := s.batchAPI
	switch {
	case rest == "" && r.Method == http.MethodPost:
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "expected a multipart/form-data body: "+err.Error())
			return
		}
		purpose := r.FormValue("purpose")
		if purpose != "batch" {
			writeError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("purpose %q is not supported here; use batch", purpose))
			return
		}
		part, header, err := r.FormFile("file")
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "missing the file field: "+err.Error())
			return
		}
		defer part.Close()
		b, err := io.ReadAll(io.LimitReader(part, maxUploadBytes+1))
		if err != nil || len(b) > maxUploadBytes {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "the file could not be read or is larger than 200 MB")
			return
		}
		a.mu.Lock()
		f := a.addFile(header.Filename, purpose, b)
		a.mu.Unlock()
		writeJSON(w, http.StatusOK, f.object())
	case r.Method == http.MethodGet && strings.HasPrefix(rest, "/"):
		id, content := strings.CutSuffix(strings.TrimPrefix(rest, "/"), "/content")
		a.mu.Lock()
		f := a.files[id]
		a.mu.Unlock()
		if f == nil {
			writeError(w, http.StatusNotFound, "invalid_request_error", "No such File object: "+id)
			return
		}
		if !content {
			writeJSON(w, http.StatusOK, f.object())
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		w.Write(f.Bytes)
	default:
		writeError(w, http.StatusNotFound, "NotFoundError", "no route "+r.Method+" "+r.URL.Path)
	}
}

// authorized checks the API key as the completion endpoints do.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.RequireKey != "" && r.Header.Get("Authorization") != "Bearer "+s.cfg.RequireKey {
		writeError(w, http.StatusUnauthorized, "AuthenticationError", "invalid API key")
		return false
	}
	return true
}
