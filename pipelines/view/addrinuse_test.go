package view

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// Another program (another datg view, say) has the port: datg view says
// so, names --addr, and opens nothing of the run first (it printed "the
// search index of generation 13 is ready", then the bare "listen tcp
// 127.0.0.1:8080: bind: address already in use").
func TestServeOnAPortInUseNamesAddr(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	log := &slowLines{}
	err = Serve(context.Background(), Config{Data: writeRun(t, 0), Addr: addr, CacheDir: t.TempDir(), Log: log}, nil)
	if !errors.Is(err, ErrAddrInUse) || !strings.Contains(err.Error(), "--addr "+addr) {
		t.Errorf("Serve on a port in use: %v; want %v naming --addr %s", err, ErrAddrInUse, addr)
	}
	if lines := log.all(); len(lines) > 0 {
		t.Errorf("Serve on a port in use logged %q before failing", lines)
	}
}
