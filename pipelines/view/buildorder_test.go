package view

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedLog is a viewer's log, read while its goroutines write it.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestFirstStartBuildsOneAfterTheOther: a first start's background builds
// run one after the other, not at once: the paper tables' computation
// begins once the search index is built (the first start's peak memory is
// then the larger build's, not their sum: BENCHMARKS.md).
func TestFirstStartBuildsOneAfterTheOther(t *testing.T) {
	tablesAtOpen(t)
	log := &lockedLog{}
	indexFirst := make(chan bool, 1)
	// The index's build waits until the tables' computation begins, or 3
	// s: were they run at once, the computation begins meanwhile.
	tablesBegin := make(chan struct{})
	origIndex := beforeSearchIndex
	beforeSearchIndex = func(ctx context.Context) {
		select {
		case <-tablesBegin:
		case <-time.After(3 * time.Second):
		}
	}
	t.Cleanup(func() { beforeSearchIndex = origIndex })
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == "" {
			indexFirst <- strings.Contains(log.String(), "search index of generation")
			close(tablesBegin)
			return nil
		}
		return skipSlow(table)
	})
	dir := writeRun(t, 2)
	s, err := newServer(context.Background(), dir, t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	task := currentTask(s)
	waitClosed(t, task.done, "the tables")
	if !<-indexFirst {
		t.Fatalf("the tables' computation began before the search index was built; the log then:\n%s", log.String())
	}
	if st := task.status(); st.page == nil {
		t.Fatalf("no tables: %v", st.err)
	}
}
