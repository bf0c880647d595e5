package view

import (
	"fmt"
	"io"
	"net"
	"net/netip"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/study"
)

// Config is one datg view server.
type Config struct {
	Data string
	// Addr is host:port to listen on; a host other than a loopback
	// address needs AllowRemote (the run is then readable by anyone who
	// reaches the port).
	Addr        string
	AllowRemote bool
	// CacheDir is datg's cache directory, where the search index of each
	// generation's texts (CacheDir/view/<key>) and its row file
	// (CacheDir/view/rows/<key>) are kept; "" for none (every search reads
	// every text; the row file is built in the temporary directory at each
	// start). Never inside the run.
	CacheDir string
	// ProbeSeed is the seed of the direction probe (datg tables
	// --probe-seed): the probe tables read its base traces, and the
	// index's scope "probe" is them; nil is the study's, study.ProbeSeed
	// (42). Any seed a trace can have is one, 0 too: hence a pointer.
	ProbeSeed *int64
	// Log receives one line when the server starts and one per newer
	// generation it moves to.
	Log io.Writer
}

// DefaultAddr is where datg view listens by default: loopback only.
const DefaultAddr = "127.0.0.1:8080"

// DefaultConfig serves data/run on DefaultAddr, its direction probe at
// the study's seed.
func DefaultConfig() Config {
	return Config{Data: store.DefaultDir, Addr: DefaultAddr, CacheDir: DefaultCacheDir()}
}

// probeSeed is the direction probe's seed: ProbeSeed, else the study's.
func (c Config) probeSeed() int64 {
	if c.ProbeSeed != nil {
		return *c.ProbeSeed
	}
	return study.ProbeSeed
}

// Validate checks the run directory is named and the address is loopback
// unless remote access was asked for.
func (c Config) Validate() error {
	var p inputerr.Problems
	p.Check("data", store.CheckDir(c.Data))
	p.Check("addr", checkAddr(c.Addr, c.AllowRemote))
	if c.CacheDir != "" && cacheInRun(c.CacheDir, c.Data) {
		p.Check("cache-dir", fmt.Errorf("%s is inside the run %s: %w", c.CacheDir, c.Data, ErrCacheInRun))
	}
	return p.Err()
}

// checkAddr accepts host:port with a loopback host ("localhost" too), or
// any host with allowRemote. An empty host means every interface.
func checkAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q: %w", addr, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("%q: bad port: %w", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q: %w: the viewer serves the whole run to whoever reaches it; use 127.0.0.1 or ::1, or --allow-remote", addr, ErrRemote)
}
