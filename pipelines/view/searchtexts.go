package view

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A candidate's folded text is checked in windows taken from its two ends
// in turn, the first two firstChunk bytes, each next pair twice as long up
// to verifyChunk, until they meet: a text that holds the query near either
// end (a common word early; "final answer", "</think>", `\boxed{` at the
// end) is settled after a few KB instead of its whole length, and one
// that does not hold it is read once, as by a single pass. The texts are
// mapped (searchmap_unix.go), so a window costs no system call or copy;
// where they are not, each window is read (pread) into a buffer.
const (
	firstChunk  = 1 << 10
	verifyChunk = 64 << 10
)

// candidateBatch is how many candidates a worker takes at a time: runs of
// neighbours in texts (locality), small enough that the two cores share
// the work evenly.
const candidateBatch = 64

// search is the indexes of the traces whose text holds q, case-insensitive
// as RE2's (?i) (q indexable: UTF-8 without NUL), in ascending order.
func (x *searchIndex) search(q string) ([]int32, error) {
	fq := appendFolded(nil, q)
	cands, err := x.candidates(fq)
	if err != nil {
		return nil, err
	}
	holds := make([]bool, len(cands))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(cands)/candidateBatch))
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs[w] = x.checkCandidates(cands, holds, fq, &next) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("reading the search index: %w", err)
		}
	}
	out := cands[:0]
	for k, i := range cands {
		if holds[k] {
			out = append(out, i)
		}
	}
	return out, nil
}

// checkCandidates sets holds[k] for the candidates whose text holds fq,
// taking batches of cands from next until none is left. A fault reading
// the mapped texts (the file cut short under the viewer) is an error,
// not a crash.
func (x *searchIndex) checkCandidates(cands []int32, holds []bool, fq []byte, next *atomic.Int64) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				err = fmt.Errorf("%s: %w: %v (changed while in use?)", x.texts.Name(), errBadIndex, f)
				return
			}
			panic(r)
		}
	}()
	var buf []byte
	if x.textsMap == nil {
		buf = make([]byte, verifyChunk+len(fq)-1)
	}
	find := newFinder(fq, &x.bytes)
	var checked int64
	defer func() { x.checked.Add(checked) }()
	for {
		from := int(next.Add(candidateBatch)) - candidateBatch
		if from >= len(cands) {
			return nil
		}
		for k := from; k < min(from+candidateBatch, len(cands)); k++ {
			i := int(cands[k])
			start := x.start(i)
			end, _ := x.end(i)
			holds[k], err = scanWindows(end-start, int64(len(fq)), func(lo, hi int64) (bool, error) {
				checked += hi - lo
				if x.textsMap != nil {
					return find.in(x.textsMap[start+lo : start+hi]), nil
				}
				if _, err := x.texts.ReadAt(buf[:hi-lo], start+lo); err != nil {
					return false, fmt.Errorf("%s: %w", x.texts.Name(), err)
				}
				return find.in(buf[:hi-lo]), nil
			})
			if err != nil {
				return err
			}
		}
	}
}

// scanWindows reports whether a text of n bytes holds a string of m
// bytes (m >= 1), asking check(lo, hi) whether text[lo:hi] does, for
// windows from the text's start and its end in turn (firstChunk, then
// doubling to verifyChunk, starts of the string each), each covering the
// starts it takes and the m-1 bytes after them, until every start of the
// string in the text is covered, or check says yes or fails. No window
// is longer than verifyChunk+m-1 bytes.
func scanWindows(n, m int64, check func(lo, hi int64) (bool, error)) (bool, error) {
	a, b := int64(0), n-m+1 // the starts not covered yet: [a, b)
	for k, head := int64(firstChunk), true; a < b; head = !head {
		w := min(k, b-a)
		var lo int64
		if head {
			lo, a = a, a+w
		} else {
			b -= w
			lo = b
			k = min(2*k, verifyChunk)
		}
		if ok, err := check(lo, lo+w+m-1); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}
