package view

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/datg/datg/internal/duck"
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
// then the larger build's, not their sum: BENCHMARKS.md), on a DuckDB of
// its own capped at tablesMemory, closed once the tables are done (the
// viewer keeps none of their queries' memory).
func TestFirstStartBuildsOneAfterTheOther(t *testing.T) {
	tablesAtOpen(t)
	log := &lockedLog{}
	indexFirst := make(chan bool, 1)
	var mu sync.Mutex
	var opened []*duck.DB
	limits := map[string]int64{}
	// The index's build waits until the tables' computation begins, or 3
	// s: were they run at once, the computation begins meanwhile.
	tablesBegin := make(chan struct{})
	var begin sync.Once
	origIndex := beforeSearchIndex
	beforeSearchIndex = func(ctx context.Context) {
		select {
		case <-tablesBegin:
		case <-time.After(3 * time.Second):
		}
	}
	t.Cleanup(func() { beforeSearchIndex = origIndex })
	orig := openTablesDB
	openTablesDB = func(ctx context.Context, dir string) (*duck.DB, error) {
		begin.Do(func() {
			indexFirst <- strings.Contains(log.String(), "search index of generation")
			close(tablesBegin)
		})
		db, err := orig(ctx, dir)
		if err == nil {
			mu.Lock()
			opened = append(opened, db)
			mu.Unlock()
		}
		return db, err
	}
	t.Cleanup(func() { openTablesDB = orig })
	setBeforeTable(t, func(ctx context.Context, table string) error {
		if table == "" {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if len(opened) > 0 {
			limit, err := opened[len(opened)-1].MemoryLimitSet(ctx)
			if err != nil {
				return err
			}
			limits[table] = limit
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
	mu.Lock()
	defer mu.Unlock()
	if len(opened) != 1 {
		t.Fatalf("the tables were computed on %d DuckDBs of their own, want 1", len(opened))
	}
	if len(limits) == 0 {
		t.Fatal("no table's query ran")
	}
	for table, limit := range limits {
		if limit > tablesMemory+tablesMemory/50 {
			t.Errorf("%s computed under a memory_limit of %d, above tablesMemory %d", table, limit, tablesMemory)
		}
	}
	if err := opened[0].PingContext(context.Background()); err == nil {
		t.Error("the tables' DuckDB is still open once they are done")
	}
}
