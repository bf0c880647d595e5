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

	// What BatchConfig's faults count: creates asked for, batches
	// created (existing ones apart), downloads of each file, downloads cut.
	creates, created int
	downloads        map[string]int
	cuts             int
	// Forgotten (Server.Forget) batches and files answer 404; a test may
	// still see them through Batches.
	forgotten      map[string]*batch
	forgottenFiles map[string]*file
	calls          map[string]int // by route (Server.BatchCalls)
	seedOnce       sync.Once
}

func newBatchAPI() *batchAPI {
	return &batchAPI{files: map[string]*file{}, batches: map[string]*batch{}, downloads: map[string]int{},
		forgotten: map[string]*batch{}, forgottenFiles: map[string]*file{}, calls: map[string]int{}}
}

// anyFile is the file id, forgotten or not. The caller holds a.mu.
func (a *batchAPI) anyFile(id string) *file {
	if f := a.files[id]; f != nil {
		return f
	}
	return a.forgottenFiles[id]
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
	s.seed()
	a := s.batchAPI
	switch {
	case rest == "":
		a.count(r.Method + " /v1/files")
	case strings.HasSuffix(rest, "/content"):
		a.count(r.Method + " /v1/files/{id}/content")
	default:
		a.count(r.Method + " /v1/files/{id}")
	}
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
		cfg := s.cfg.Batch
		a.mu.Lock()
		f := a.files[id]
		output := f != nil && f.Purpose == "batch_output"
		if output && content {
			if cfg.FilesGoneAfter > 0 && a.downloads[id] >= cfg.FilesGoneAfter {
				a.forgottenFiles[id] = f
				delete(a.files, id)
				f = nil
			} else {
				a.downloads[id]++
			}
		}
		cut := f != nil && output && content && a.cuts < cfg.CutDownloads
		if cut {
			a.cuts++
		}
		a.mu.Unlock()
		if f == nil {
			writeError(w, http.StatusNotFound, "invalid_request_error", "No such File object: "+id)
			return
		}
		if !content {
			writeJSON(w, http.StatusOK, f.object())
			return
		}
		if cut {
			cutDownload(w, f.Bytes, cfg.CutAt, cfg.CutDeclaresLength)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		w.Write(f.Bytes)
	default:
		writeError(w, http.StatusNotFound, "NotFoundError", "no route "+r.Method+" "+r.URL.Path)
	}
}

// cutDownload sends the first at bytes of a file (at most all but its
// last) and closes the connection: a download cut off. Without
// declareLength the reply has no Content-Length (HTTP/1.1 then ends the
// body at the close), so the client cannot tell the cut from the end.
func cutDownload(w http.ResponseWriter, b []byte, at int, declareLength bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	at = max(0, min(at, len(b)-1))
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n")
	if declareLength {
		fmt.Fprintf(buf, "Content-Length: %d\r\n", len(b))
	}
	buf.WriteString("\r\n")
	buf.Write(b[:at])
	buf.Flush()
}

// authorized checks the API key as the completion endpoints do.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.RequireKey != "" && r.Header.Get("Authorization") != "Bearer "+s.cfg.RequireKey {
		writeError(w, http.StatusUnauthorized, "AuthenticationError", "invalid API key")
		return false
	}
	return true
}
