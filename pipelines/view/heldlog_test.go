package view

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowLines records each line when its write returns; the "serving" line
// takes its time, so a line written meanwhile by the background work
// would be recorded before it.
type slowLines struct {
	mu    sync.Mutex
	lines []string
}

func (s *slowLines) Write(p []byte) (int, error) {
	if strings.Contains(string(p), " serving ") {
		time.Sleep(1500 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (s *slowLines) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// The address is the viewer's first line, though its search index (on a
// small run, ready in milliseconds) may finish first.
func TestServingIsTheFirstLine(t *testing.T) {
	log := &slowLines{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Config{Data: writeRun(t, 0), Addr: "127.0.0.1:0", CacheDir: t.TempDir(), Log: log}, nil)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		lines := log.all()
		if len(lines) >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := log.all()
	if len(lines) < 2 || !strings.Contains(lines[0], "serving") || !strings.Contains(lines[1], "search index") {
		t.Errorf("the viewer's lines: %q; want the serving line, then the search index's", lines)
	}
}

func TestHeldLogKeepsOrder(t *testing.T) {
	var out bytes.Buffer
	h := &heldLog{w: &out}
	h.Write([]byte("a\n"))
	h.Write([]byte("b\n"))
	if out.Len() != 0 {
		t.Fatalf("written before release: %q", out.String())
	}
	out.WriteString("first\n")
	h.release()
	h.Write([]byte("c\n"))
	h.release()
	if got := out.String(); got != "first\na\nb\nc\n" {
		t.Errorf("got %q", got)
	}
}
