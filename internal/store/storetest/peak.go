package storetest

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// PeakHeap runs f with the collector at 5% and returns the largest heap
// sampled meanwhile (every millisecond), less the heap before: what a
// stage holds at its peak, not only at a step of its commit (an index a
// stage loads before reading its input and drops before committing shows
// here and not in HeapHeldAt). At 5% the heap sampled is within a few
// percent of the live heap.
func PeakHeap(f func()) int64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	// Twice: the first collection moves the pools' buffers (parquet-go's
	// pages, zstd's encoders) aside, the second frees them, so that they
	// are not counted before f and reused, uncounted, by it.
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := int64(ms.HeapAlloc)
	var peak atomic.Int64
	peak.Store(before)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if h := int64(ms.HeapAlloc); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	// A last sample: f may end between two, holding what it made.
	runtime.ReadMemStats(&ms)
	if h := int64(ms.HeapAlloc); h > peak.Load() {
		peak.Store(h)
	}
	return peak.Load() - before
}
