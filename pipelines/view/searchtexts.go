package view

import (
	"errors"
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
// that does not hold it is read once, as by a single pass. A batch of
// neighbouring candidates' texts is mapped (searchmap_unix.go) and
// unmapped after it, so a window costs no system call or copy and the
// viewer never holds more of the texts than a batch's; where they are
// not mapped, each window is read (pread) into a buffer.
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
	var region []byte // the batch's mapped region, unmapped before the next
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				err = fmt.Errorf("%s: %w: %v (changed while in use?)", x.texts.Name(), errBadIndex, f)
			} else {
				unmapRegion(region)
				panic(r)
			}
		}
		err = errors.Join(err, unmapRegion(region))
	}()
	buf := make([]byte, verifyChunk+len(fq)-1)
	find := newFinder(fq, &x.bytes)
	var checked int64
	defer func() { x.checked.Add(checked) }()
	for {
		from := int(next.Add(candidateBatch)) - candidateBatch
		if from >= len(cands) {
			return nil
		}
		to := min(from+candidateBatch, len(cands))
		// The batch's texts, from the page its first starts in to where
		// its last ends: mapped when they are close (a common word's
		// candidates are neighbours), else read window by window.
		base := x.start(int(cands[from])) / pageSize * pageSize
		last, _ := x.end(int(cands[to-1]))
		if x.mapBatches && last-base <= maxRegion {
			if region, err = mapRegion(x.texts, base, last-base); err != nil {
				return fmt.Errorf("%s: %w", x.texts.Name(), err)
			}
		}
		for k := from; k < to; k++ {
			i := int(cands[k])
			start := x.start(i)
			end, _ := x.end(i)
			holds[k], err = scanWindows(end-start, int64(len(fq)), func(lo, hi int64) (bool, error) {
				checked += hi - lo
				if region != nil {
					return find.in(region[start-base+lo : start-base+hi]), nil
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
		if err = unmapRegion(region); err != nil {
			return fmt.Errorf("%s: %w", x.texts.Name(), err)
		}
		region = nil
	}
}

// maxRegion bounds a batch's mapped region: the viewer's resident set
// holds at most a region a worker of the texts (about 1.6 MB for 64
// neighbours of real length), never the texts a search touched.
const maxRegion = 16 << 20

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
