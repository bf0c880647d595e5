package simulate

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// Endpoint is one simulated server started in-process, for tests and
// benchmarks that need a real HTTP peer.
type Endpoint struct {
	URL    string // base URL, ending in /v1
	Server *Server
	hs     *http.Server
}

// Start serves one simulated endpoint on cfg.Listen (a free loopback port
// when empty) until Close.
func Start(cfg Config) (*Endpoint, error) {
	srv, err := NewServer(cfg)
	if err != nil {
		return nil, err
	}
	return serve(cfg.Listen, srv)
}

// StartMany serves several endpoints that share one answer key (loaded once).
func StartMany(cfgs ...Config) ([]*Endpoint, error) {
	var eps []*Endpoint
	var m *model
	for _, cfg := range cfgs {
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		if m == nil {
			key, err := loadAnswerKey(cfg.Data, cfg.Solutions)
			if err != nil {
				return nil, err
			}
			m = &model{profile: cfg.Profile, key: key}
		}
		ep, err := serve(cfg.Listen, newServer(cfg, m))
		if err != nil {
			closeAll(eps)
			return nil, err
		}
		eps = append(eps, ep)
	}
	return eps, nil
}

// closeAll closes what was opened before a failure.
func closeAll[T io.Closer](opened []T) {
	for _, c := range opened {
		c.Close()
	}
}

func serve(addr string, srv *Server) (*Endpoint, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	return &Endpoint{URL: "http://" + ln.Addr().String() + srv.cfg.basePath(), Server: srv, hs: hs}, nil
}

// Close stops the endpoint.
func (e *Endpoint) Close() error {
	// Short grace: Shutdown waits for connections a client opened but has
	// not used yet, which would stall every test's cleanup.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := e.hs.Shutdown(ctx); err != nil {
		return e.hs.Close()
	}
	return nil
}

// DeadURL is the base URL of a loopback port nothing listens on: every
// connection to it is refused, as to a crashed server.
func DeadURL() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1", nil
}
