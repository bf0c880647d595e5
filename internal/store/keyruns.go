package store

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
)

// keyRuns is the set of keys a writer has written, checked for repeats
// without holding every key until the commit. The keys of the rows written
// since the last spill are held (a repeat among them is refused at once);
// every spillKeys of them (or spillBytes of key text) they are sorted and
// written to a run file in the transaction's staging directory, and the
// table's finish merges the runs in key order: a key in two runs is a
// repeat, refused then, before anything is committed. A writer that kept a
// digest of every key held 22-29 bytes a row to the end (three rows a
// trace in verify and langcheck: 45-73 bytes a trace, twice that resident
// with the collector's headroom); the runs hold at most spillKeys keys in
// memory, and the merge a read buffer a run.
//
// The runs are datg's own files in the staging directory datg made: the
// finish removes them before the directory becomes a generation, an abort
// removes the directory, and a killed process's directory is collected as
// any unfinished transaction's is. A dry run has no staging directory and
// keeps every key in memory, as it writes no file either.
type keyRuns struct {
	sortedRuns
	recent map[string]struct{} // the keys given since the last spill
}

func newKeyRuns(dir, table string) *keyRuns {
	return &keyRuns{sortedRuns: newSortedRuns(dir, "."+table+".keys"), recent: map[string]struct{}{}}
}

// add adds key and reports whether it was among the keys held (a repeat
// refused at once; one of a spilled key is found by check).
func (k *keyRuns) add(key string) (dup bool, err error) {
	if _, dup = k.recent[key]; dup {
		return true, nil
	}
	k.recent[key] = struct{}{}
	spilled, err := k.sortedRuns.add(key, 0)
	if spilled {
		clear(k.recent)
	}
	return false, err
}

// check merges the runs and the held keys: it returns a key given twice
// (the least such key, when the runs are merged in one pass), if any.
func (k *keyRuns) check() (dup string, found bool, err error) {
	if !k.spilled() {
		return "", false, nil // every key was held: a repeat was refused on add
	}
	var last string
	began := false
	err = k.each(func(key string, _ uint64) error {
		if began && key == last {
			dup, found = key, true
			return errStop
		}
		last, began = key, true
		return nil
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return dup, found, err
}

// errStop ends a walk over sorted runs early.
var errStop = errors.New("stop")

// sortedRuns sorts entries (a key and a number) that may not fit in
// memory: entries are held until spillKeys of them (or spillBytes of key
// text), then sorted and written to a run file in dir; each merges the
// runs in key order.
type sortedRuns struct {
	dir, prefix string
	held        []runEntry
	bytes       int      // the held keys' length
	runs        []string // the run files, each sorted
	made        int      // run files made, for their names
	// The bounds: spillKeys, spillBytes and maxMergeRuns but in tests.
	maxKeys, maxBytes, maxRuns int
}

type runEntry struct {
	key string
	val uint64
}

// Entries are spilled once this many are held, or this much key text: under
// 1 MB at the keys' usual 40-60 bytes. A run is then about 400 KB on disk;
// verify's 1.1 million rows at ten times the paper's scale make 140 runs a
// table, merged in two passes.
const (
	spillKeys  = 1 << 13
	spillBytes = 1 << 20
)

// maxMergeRuns is the most runs merged at once; more are first merged in
// batches of this many into longer runs, so the files open at once, and
// the read buffers, stay bounded.
const maxMergeRuns = 64

// runBuffer is each run's read and write buffer.
const runBuffer = 32 << 10

func newSortedRuns(dir, prefix string) sortedRuns {
	keys := spillKeys
	if n := spillKeysForTests.Load(); n > 0 {
		keys = int(n)
	}
	return sortedRuns{dir: dir, prefix: prefix, maxKeys: keys, maxBytes: spillBytes, maxRuns: maxMergeRuns}
}

// spillKeysForTests, when set, replaces spillKeys.
var spillKeysForTests atomic.Int64

// SetSpillKeys makes writers, mergers and LineKeys started afterwards
// spill every n keys, so tests of other packages reach the spilled paths
// with few rows; it returns a function that restores the default. It is
// not for production use.
func SetSpillKeys(n int) (restore func()) {
	spillKeysForTests.Store(int64(n))
	return func() { spillKeysForTests.Store(0) }
}

// add adds an entry, and reports whether the held entries were spilled
// (the entry with them). With no directory nothing is spilled.
func (s *sortedRuns) add(key string, val uint64) (spilled bool, err error) {
	s.held = append(s.held, runEntry{key, val})
	s.bytes += len(key)
	if s.dir == "" || len(s.held) < s.maxKeys && s.bytes < s.maxBytes {
		return false, nil
	}
	return true, s.spill()
}

func (s *sortedRuns) spilled() bool { return len(s.runs) > 0 }

// spill writes the held entries, sorted, to a new run and forgets them.
func (s *sortedRuns) spill() error {
	slices.SortFunc(s.held, func(a, b runEntry) int { return cmp.Compare(a.key, b.key) })
	held := s.held
	err := s.writeRun(func(w *bufio.Writer) error {
		for _, e := range held {
			if err := writeRunEntry(w, e); err != nil {
				return err
			}
		}
		return nil
	})
	clear(s.held) // the keys may be collected
	s.held, s.bytes = s.held[:0], 0
	return err
}

// newRunPath names a new run file.
func (s *sortedRuns) newRunPath() string {
	path := filepath.Join(s.dir, s.prefix+"-"+strconv.Itoa(s.made))
	s.made++
	return path
}

// writeRun writes a new run through fill and adds it to the runs.
func (s *sortedRuns) writeRun(fill func(*bufio.Writer) error) error {
	path := s.newRunPath()
	s.runs = append(s.runs, path) // removed with the others, even if half written
	return writeRunFile(path, fill)
}

// each calls fn with every entry added, in ascending order of key (the
// order of entries with one key is not defined). Held entries are spilled
// first when there are runs.
func (s *sortedRuns) each(fn func(key string, val uint64) error) error {
	if !s.spilled() {
		slices.SortFunc(s.held, func(a, b runEntry) int { return cmp.Compare(a.key, b.key) })
		for _, e := range s.held {
			if err := fn(e.key, e.val); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.held) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	// Too many runs are merged in batches into longer runs, which replace
	// them: each may be called again, after more entries are added.
	for len(s.runs) > s.maxRuns {
		batch := s.runs[:s.maxRuns]
		path := s.newRunPath()
		err := writeRunFile(path, func(w *bufio.Writer) error {
			return mergeRuns(batch, func(key string, val uint64) error { return writeRunEntry(w, runEntry{key, val}) })
		})
		if err != nil {
			os.Remove(path)
			return err
		}
		for _, p := range batch {
			os.Remove(p)
		}
		s.runs = append(s.runs[s.maxRuns:], path)
	}
	return mergeRuns(s.runs, fn)
}

// remove deletes the run files and forgets the held entries.
func (s *sortedRuns) remove() {
	for _, path := range s.runs {
		os.Remove(path)
	}
	s.runs, s.held, s.bytes = nil, nil, 0
}

// writeRunFile creates the run file at path and writes it through fill.
func writeRunFile(path string, fill func(*bufio.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("spilling keys: %w", err)
	}
	w := bufio.NewWriterSize(f, runBuffer)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("spilling keys to %s: %w", path, err)
	}
	return nil
}

// A run is its entries in ascending order of key, each the key's length
// as a uvarint, its bytes, and the number as a uvarint.
func writeRunEntry(w *bufio.Writer, e runEntry) error {
	var n [binary.MaxVarintLen64]byte
	if _, err := w.Write(n[:binary.PutUvarint(n[:], uint64(len(e.key)))]); err != nil {
		return err
	}
	if _, err := w.WriteString(e.key); err != nil {
		return err
	}
	_, err := w.Write(n[:binary.PutUvarint(n[:], e.val)])
	return err
}

// runReader reads a run's entries in order.
type runReader struct {
	r    *bufio.Reader
	f    *os.File
	path string
	runEntry
}

// next reads the next entry; ok is false at the run's end.
func (r *runReader) next() (ok bool, err error) {
	n, err := binary.ReadUvarint(r.r)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err == nil && n > maxKeyLen {
		err = fmt.Errorf("a key of %d bytes", n)
	}
	if err == nil {
		buf := make([]byte, n)
		if _, err = io.ReadFull(r.r, buf); err == nil {
			r.key = string(buf)
			r.val, err = binary.ReadUvarint(r.r)
		}
	}
	if err != nil {
		return false, fmt.Errorf("reading spilled keys %s: %w", r.path, noEOF(err))
	}
	return true, nil
}

// maxKeyLen bounds a spilled key's length as read back: a longer one is a
// damaged run, not a key.
const maxKeyLen = 1 << 24

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// runHeap orders the runs by their current key.
type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].key < h[j].key }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

// mergeRuns calls fn with the runs' entries in ascending order of key.
func mergeRuns(paths []string, fn func(key string, val uint64) error) error {
	h := make(runHeap, 0, len(paths))
	defer func() {
		for _, r := range h {
			r.f.Close()
		}
	}()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("reading spilled keys: %w", err)
		}
		r := &runReader{r: bufio.NewReaderSize(f, runBuffer), f: f, path: path}
		ok, err := r.next()
		if !ok {
			f.Close()
			if err != nil {
				return err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	for len(h) > 0 {
		r := h[0]
		if err := fn(r.key, r.val); err != nil {
			return err
		}
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
			r.f.Close()
		}
	}
	return nil
}
