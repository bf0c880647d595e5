package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/viewassets"
	"github.com/datg/datg/study"
)

// Server serves one run. It reads one generation at a time and moves to a
// newer one on the first request after a commit.
type Server struct {
	dir   string
	cache string // datg's cache directory ("": no search index)
	log   io.Writer
	// probeSeed is the direction probe's seed, set in every generation
	// the server opens.
	probeSeed int64

	mu  sync.Mutex // guards cur
	cur *runDB

	openMu sync.Mutex // one generation opens at a time
}

// NewServer opens the run's current generation, with its search index in
// DefaultCacheDir.
func NewServer(ctx context.Context, dir string, logTo io.Writer) (*Server, error) {
	return newServer(ctx, dir, DefaultCacheDir(), logTo)
}

func newServer(ctx context.Context, dir, cache string, logTo io.Writer) (*Server, error) {
	return newServerAt(ctx, dir, cache, study.ProbeSeed, logTo)
}

// newServerAt is newServer with the direction probe at probeSeed.
func newServerAt(ctx context.Context, dir, cache string, probeSeed int64, logTo io.Writer) (*Server, error) {
	if logTo == nil {
		logTo = io.Discard
	}
	s := &Server{dir: dir, cache: cache, log: logTo, probeSeed: probeSeed}
	r, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	s.cur = r
	return s, nil
}

// open opens the run's current generation, with the server's probe seed,
// and starts its search index and its key filters (filterwarm.go).
func (s *Server) open(ctx context.Context) (*runDB, error) {
	r, err := openRunDBAt(ctx, s.dir, s.cache, s.probeSeed)
	if err != nil {
		return nil, err
	}
	logf := func(format string, args ...any) { fmt.Fprintf(s.log, format+"\n", args...) }
	r.warmFilters(logf)
	r.startSearchIndex(s.dir, s.cache, logf)
	if computeTablesAtOpen {
		r.tables = s.startTables(r)
	}
	return r, nil
}

// Close closes the generation in use (requests in flight finish first).
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return nil
	}
	r := s.cur
	s.cur = nil
	return s.release(r, true)
}

// acquire is the generation a request reads, a newer one when the run has
// committed since; moved says the request is the first on it.
func (s *Server) acquire(ctx context.Context) (r *runDB, moved bool, err error) {
	gen, err := store.CurrentGeneration(s.dir)
	if err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if cur == nil {
		return nil, false, errors.New("the viewer is closed")
	}
	if gen != cur.gen {
		s.openMu.Lock()
		s.mu.Lock()
		stale := s.cur != nil && s.cur.gen != gen
		s.mu.Unlock()
		if stale {
			next, err := s.open(ctx)
			if err != nil {
				s.openMu.Unlock()
				return nil, false, fmt.Errorf("reading generation %d of %s: %w", gen, s.dir, err)
			}
			s.mu.Lock()
			old := s.cur
			s.cur = next
			s.mu.Unlock()
			fmt.Fprintf(s.log, "datg view: the run has a new commit: now reading generation %d (was %d)\n", next.gen, old.gen)
			s.retire(old)
			moved = true
		}
		s.openMu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return nil, false, errors.New("the viewer is closed")
	}
	s.cur.mu.Lock()
	s.cur.refs++
	s.cur.mu.Unlock()
	return s.cur, moved, nil
}

// retire closes a replaced generation once no request reads it.
func (s *Server) retire(r *runDB) {
	if err := s.release(r, true); err != nil {
		fmt.Fprintf(s.log, "datg view: closing generation %d: %v\n", r.gen, err)
	}
}

// release ends a request's use of r (or, with retire, the server's) and
// closes r when it is retired and unused. Retiring r stops its tables'
// computation at once (no page will show them); closing waits for it.
func (s *Server) release(r *runDB, retire bool) error {
	r.mu.Lock()
	if retire {
		r.retired = true
	} else {
		r.refs--
	}
	closeIt := r.retired && r.refs == 0
	task := r.tables
	r.mu.Unlock()
	if task != nil && retire {
		task.cancel()
	}
	if closeIt {
		if task != nil {
			task.stop()
		}
		return r.close()
	}
	return nil
}

// csp allows the viewer's own assets and nothing else: no inline script
// or style, no frame, no connection, no form posting elsewhere.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:; " +
	"connect-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the viewer's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", staticHandler()))
	mux.Handle(assetsPrefix, viewassets.Handler(assetsPrefix))
	mux.HandleFunc("GET /{$}", s.page(s.index))
	mux.HandleFunc("GET /trace", s.page(s.trace))
	mux.HandleFunc("GET /tables", s.page(s.tables))
	return secure(mux)
}

// secure sets the headers of every response: the CSP, no sniffing, no
// referrer, no framing.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// httpError is an error with its status.
type httpError struct {
	status int
	err    error
}

func (e *httpError) Error() string { return e.err.Error() }
func (e *httpError) Unwrap() error { return e.err }

// pageFunc renders a page of generation r into a buffer.
type pageFunc func(ctx context.Context, r *runDB, req *http.Request, p *pageInfo) (string, any, error)

// pageInfo is what every page's frame shows.
type pageInfo struct {
	Title      string
	Generation int
	// Moved is set when this request was the first after a new commit:
	// the page says the run changed under the last one.
	Moved bool
	// Static is set on the pages of an export (datg explain): they load
	// their assets as it says and link Home (none: a page alone), not the
	// server's routes.
	Static *Head
	Home   string
	// Refresh, when set, reloads the page after that many seconds (a
	// page of work in progress).
	Refresh int
}

// page runs a page: the generation to read, the page's data, its
// template; an error is a page of its own, with its status. A page whose
// data keeps its renderings (prerendered) is rendered once and served
// with an ETag and gzip (rendered.go); every other page is rendered
// anew and never kept by the browser (no-store).
func (s *Server) page(fn pageFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		r, moved, err := s.acquire(ctx)
		if err != nil {
			s.fail(w, req, err)
			return
		}
		defer s.release(r, false)
		info := &pageInfo{Generation: r.gen, Moved: moved}
		tmpl, data, err := fn(ctx, r, req, info)
		if err != nil {
			s.fail(w, req, err)
			return
		}
		if pr, ok := data.(prerendered); ok && pr.renderings() != nil {
			page, err := pr.renderings().get(tmpl, info, data)
			if err != nil {
				s.fail(w, req, err)
				return
			}
			page.serve(w, req)
			return
		}
		body, err := render(tmpl, info, data)
		if err != nil {
			s.fail(w, req, err)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		io.WriteString(w, body)
	}
}

// fail answers with an error page: 400 for a bad parameter, 404 for an
// unknown trace, else 500 (and a log line).
func (s *Server) fail(w http.ResponseWriter, req *http.Request, err error) {
	status := http.StatusInternalServerError
	var he *httpError
	switch {
	case errors.As(err, &he):
		status = he.status
	case errors.Is(err, ErrBadParam):
		status = http.StatusBadRequest
	case errors.Is(err, ErrNoTrace):
		status = http.StatusNotFound
	case errors.Is(err, context.Canceled):
		return
	}
	if status == http.StatusInternalServerError {
		fmt.Fprintf(s.log, "datg view: %s: %v\n", req.URL.Path, err)
	}
	body, rerr := render("error", &pageInfo{Title: http.StatusText(status)}, struct {
		Status int
		Err    string
	}{status, err.Error()})
	if rerr != nil {
		http.Error(w, err.Error(), status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// Serve runs the viewer until ctx ends; ready, when set, gets the address
// it listens on.
func Serve(ctx context.Context, cfg Config, ready func(addr string)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	logTo := cfg.Log
	if logTo == nil {
		logTo = io.Discard
	}
	// The port first: taken, it is the user's one mistake to hear of,
	// before the run is opened and its index built for nothing.
	ln, err := listen(cfg.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	held := &heldLog{w: logTo}
	defer held.release()
	s, err := newServerAt(ctx, cfg.Data, cfg.CacheDir, cfg.probeSeed(), held)
	if err != nil {
		return err
	}
	defer s.Close()
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(s.log, "datg view: ", 0)}
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "datg view: serving %s (generation %d, the direction probe at seed %d) on http://%s/ (read-only; Ctrl-C stops)\n", cfg.Data, s.cur.gen, s.probeSeed, ln.Addr())
	}
	held.release()
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return nil
	case err := <-done:
		return err
	}
}

// listen listens on addr, saying which flag to change when another
// program (often another datg view) has the port.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("--addr %s: %w", addr, ErrAddrInUse)
	}
	return ln, err
}
