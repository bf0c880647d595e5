package view

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/pipelines/tables"
)

// A generation's paper tables take as long as datg tables takes (9-61 s
// for the demo under load): the viewer computes them in the background
// from the moment it opens the generation, and /tables answers at once,
// with how far along they are until they are ready. They are kept in
// datg's cache (tablescache.go), so the next viewer of the same generation
// shows them at once.

// computeTablesAtOpen starts a generation's tables when the viewer opens
// it; else the first /tables starts them (it too answers at once). The
// package's tests open hundreds of viewers and look at few tables: they
// turn it off (TestMain), so that the tables' queries do not compete for
// the machine's cores with every test and fill the benchmarks' CPU time
// and memory.
var computeTablesAtOpen = true

// tablesTask is the computation of one generation's tables.
type tablesTask struct {
	total  int // tables to compute
	cancel context.CancelFunc
	done   chan struct{} // closed when the task has ended (and its cache entry is written)

	mu    sync.Mutex
	count int         // tables done
	page  *tablesPage // the tables, once ready
	err   error       // why there are none (context.Canceled: stopped)
	// cached says the page was read from the cache, not computed.
	cached bool
}

// tablesStatus is a task's state at one moment.
type tablesStatus struct {
	done int
	page *tablesPage
	err  error
}

func (task *tablesTask) status() tablesStatus {
	task.mu.Lock()
	defer task.mu.Unlock()
	return tablesStatus{task.count, task.page, task.err}
}

// stop ends the task and waits until it has ended.
func (task *tablesTask) stop() {
	task.cancel()
	<-task.done
}

// tablesTask is r's computation of its tables (nil: none started).
func (r *runDB) tablesTask() *tablesTask {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tables
}

// startTables starts computing r's tables, or takes them from the cache
// (read here, before r serves a page, so a generation computed before
// shows its tables on the first load).
func (s *Server) startTables(r *runDB) *tablesTask {
	ctx, cancel := context.WithCancel(context.Background())
	task := &tablesTask{total: len(tables.Listings()), cancel: cancel, done: make(chan struct{})}
	logf := func(format string, args ...any) { fmt.Fprintf(s.log, format+"\n", args...) }
	c := tablesCacheOf(ctx, r.db, s.dir, s.cache)
	if results, err := c.read(); err == nil {
		task.page, task.count, task.cached = tablesPageOf(results), task.total, true
		cancel()
		close(task.done)
		return task
	}
	go task.run(ctx, r, c, logf)
	return task
}

// run computes the tables once the search index's build has ended, in a
// process of their own (tableschild.go), which keeps them in the cache
// when every query answered (an error may not recur: the next viewer
// tries again). One build at a time: at once, the first start's peak was
// their sum (the search index's and the tables' 352 MB at 382,500 traces,
// where the row file's build peaks at 220-230 MB; BENCHMARKS.md). (A
// DuckDB of their own in the viewer's process, closed after them, was
// tried and not kept: it lowered neither the peak nor the memory kept
// after them, for a second DuckDB's setup.)
func (task *tablesTask) run(ctx context.Context, r *runDB, c tablesCache, logf func(string, ...any)) {
	defer close(task.done)
	if r.indexDone != nil {
		select {
		case <-r.indexDone:
		case <-ctx.Done():
			task.fail(ctx.Err())
			return
		}
	}
	// The pages DuckDB's allocator keeps after the builds' queries (up to
	// about 10 s) are returned before the tables are computed: else the
	// child's peak came on top of them (internal/duck's allocator.go).
	duck.ReleaseMemory()
	progress := func(done int) {
		task.mu.Lock()
		task.count = done
		task.mu.Unlock()
	}
	notKept := func(err error) {
		logf("datg view: keeping the paper tables of generation %d: %v (the next viewer computes them again)", r.gen, err)
	}
	start := time.Now()
	var results []tableResult
	var err error
	if tablesInChild {
		results, err = computeTablesInChild(ctx, r, c, progress, notKept)
	} else {
		results, err = computeTablesHere(ctx, r, c, progress, notKept)
	}
	if err != nil {
		task.fail(err)
		if ctx.Err() == nil {
			logf("datg view: the paper tables of generation %d: %v", r.gen, err)
		}
		return
	}
	task.mu.Lock()
	task.page = tablesPageOf(results)
	task.mu.Unlock()
	logf("datg view: the paper tables of generation %d are ready (%v)", r.gen, time.Since(start).Round(time.Millisecond))
}

// computeTablesHere computes r's tables in the viewer's process (the
// package's tests that set beforeTable), and keeps them in c when every
// query answered, as the child does.
func computeTablesHere(ctx context.Context, r *runDB, c tablesCache, progress func(done int), notKept func(error)) ([]tableResult, error) {
	results, err := computeTables(ctx, r, progress)
	if err != nil || !allAnswered(results) {
		return results, err
	}
	if err := c.write(results); err != nil {
		notKept(err)
	}
	return results, nil
}

// fail records why the task has no tables.
func (task *tablesTask) fail(err error) {
	task.mu.Lock()
	task.err = err
	task.mu.Unlock()
}

// replaceTables starts computing r's tables in place of old (nil: none
// started yet; else a computation that failed), unless another request
// did, or a newer generation replaced r; it returns r's computation then
// (nil: none, r is retired).
func (s *Server) replaceTables(r *runDB, old *tablesTask) *tablesTask {
	r.mu.Lock()
	current := r.tables == old && !r.retired
	r.mu.Unlock()
	if !current {
		return r.tablesTask()
	}
	next := s.startTables(r)
	r.mu.Lock()
	current = r.tables == old && !r.retired
	if current {
		r.tables = next
	}
	r.mu.Unlock()
	if !current {
		next.stop()
	}
	return r.tablesTask()
}
