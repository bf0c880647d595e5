package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/datg/datg/internal/atomicfile"
)

// Summary is what a Run served.
type Summary struct {
	URLs []string // the endpoints' base URLs
}

// Run serves cfg.Count simulated endpoints until ctx ends. It reports each
// base URL on cfg.Notices and, when asked, in cfg.URLFile.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	key, err := loadAnswerKey(cfg.Data, cfg.Solutions)
	if err != nil {
		return Summary{}, err
	}
	m := &model{profile: cfg.Profile, key: key}
	listeners, err := listen(cfg.Listen, cfg.Count)
	if err != nil {
		return Summary{}, err
	}
	var urls []string
	var servers []*http.Server
	errc := make(chan error, len(listeners))
	for i, ln := range listeners {
		c := cfg
		c.Seed = cfg.Seed + uint64(i)
		hs := &http.Server{Handler: newServer(c, m), ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, hs)
		urls = append(urls, "http://"+ln.Addr().String()+cfg.basePath())
		go func(ln net.Listener) { errc <- hs.Serve(ln) }(ln)
	}
	known := len(key)
	notices := cfg.Notices
	if notices == nil {
		notices = io.Discard
	}
	for _, u := range urls {
		fmt.Fprintf(notices, "simulate: serving %s (a simulated model, not an LLM; answer key: %d questions)\n", u, known)
	}
	if cfg.URLFile != "" {
		if err := atomicfile.WriteFile(cfg.URLFile, []byte(strings.Join(urls, "\n")+"\n")); err != nil {
			return Summary{}, err
		}
	}
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return Summary{URLs: urls}, err
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, hs := range servers {
		hs.Shutdown(shutdown)
	}
	return Summary{URLs: urls}, nil
}

// listen opens count listeners: on consecutive ports from a fixed port, or
// each on its own free port when the port is 0.
func listen(addr string, count int) ([]net.Listener, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: bad port", addr)
	}
	var lns []net.Listener
	for i := 0; i < count; i++ {
		p := 0
		if port != 0 {
			p = port + i
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err != nil {
			closeAll(lns)
			return nil, err
		}
		lns = append(lns, ln)
	}
	return lns, nil
}
