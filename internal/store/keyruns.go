package store

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// keyRuns is the set of keys a writer has written, checked for repeats
// without holding every key until the commit. The keys of the rows written
// since the last spill are held (a repeat among them is refused at once);
// every spillKeys of them (or spillBytes of key text) they are sorted and
// written to a run file in the transaction's staging directory, and the
// table's finish merges the runs in key order: a key in two runs is a
// repeat, refused then, before anything is committed. A writer that kept a
// digest of every key held about 29 bytes a row to the end (33 MB for
// verify's three rows a trace at ten times the paper's scale, twice that
// resident with the collector's headroom); the runs hold at most spillKeys
// keys in memory, and the merge a read buffer a run.
//
// The runs are datg's own files in the staging directory datg made: the
// finish removes them before the directory becomes a generation, an abort
// removes the directory, and a killed process's directory is collected as
// any unfinished transaction's is. A dry run has no staging directory and
// keeps every key in memory, as it writes no file either.
type keyRuns struct {
	dir    string              // the staging directory; "" holds every key
	prefix string              // the runs' names: dir/prefix-<n>
	recent map[string]struct{} // the keys written since the last spill
	bytes  int                 // their length
	runs   []string            // the run files, each sorted, no key twice
	// The bounds: spillKeys, spillBytes and maxMergeRuns but in tests.
	maxKeys, maxBytes, maxRuns int
}

// Keys are spilled once this many are held, or this much key text: under
// 1 MB of map at the keys' usual 40-60 bytes. A run is then about 400 KB
// on disk; verify's 1.1 million rows at ten times the paper's scale make
// 140 runs a table, merged in three passes.
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

func newKeyRuns(dir, table string) *keyRuns {
	return &keyRuns{dir: dir, prefix: "." + table + ".keys", recent: map[string]struct{}{},
		maxKeys: spillKeys, maxBytes: spillBytes, maxRuns: maxMergeRuns}
}

// add adds key and reports whether it was among the keys held (a repeat
// refused at once; one of a spilled key is found by check).
func (k *keyRuns) add(key string) (dup bool, err error) {
	if _, dup = k.recent[key]; dup {
		return true, nil
	}
	k.recent[key] = struct{}{}
	k.bytes += len(key)
	if k.dir != "" && (len(k.recent) >= k.maxKeys || k.bytes >= k.maxBytes) {
		err = k.spill()
	}
	return false, err
}

// spill writes the held keys, sorted, to a new run and forgets them.
func (k *keyRuns) spill() error {
	keys := make([]string, 0, len(k.recent))
	for key := range k.recent {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	path := filepath.Join(k.dir, k.prefix+"-"+strconv.Itoa(len(k.runs)))
	k.runs = append(k.runs, path) // removed with the others, even if half written
	if err := writeRun(path, func(w *bufio.Writer) error {
		for _, key := range keys {
			if err := writeRunKey(w, key); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	clear(k.recent)
	k.bytes = 0
	return nil
}

// check merges the runs and the held keys: it returns a key written twice
// (the least such key), if any. The held keys are spilled first, so check
// is called once, at the table's finish.
func (k *keyRuns) check() (dup string, found bool, err error) {
	if len(k.runs) == 0 {
		return "", false, nil // every key was held: a repeat was refused on add
	}
	if len(k.recent) > 0 {
		if err := k.spill(); err != nil {
			return "", false, err
		}
	}
	runs := k.runs
	for len(runs) > k.maxRuns {
		var merged []string
		for len(runs) > 0 {
			batch := runs[:min(len(runs), k.maxRuns)]
			runs = runs[len(batch):]
			path := filepath.Join(k.dir, k.prefix+"-"+strconv.Itoa(len(k.runs)))
			k.runs = append(k.runs, path)
			var batchDup string
			var batchFound bool
			err := writeRun(path, func(w *bufio.Writer) error {
				var werr error
				d, f, merr := mergeRuns(batch, func(key string) { werr = cmpErr(werr, writeRunKey(w, key)) })
				batchDup, batchFound = d, f
				return cmpErr(merr, werr)
			})
			if err != nil || batchFound {
				return batchDup, batchFound, err
			}
			merged = append(merged, path)
		}
		runs = merged
	}
	return mergeRuns(runs, nil)
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// remove deletes the run files.
func (k *keyRuns) remove() {
	for _, path := range k.runs {
		os.Remove(path)
	}
	k.runs = nil
}

// writeRun creates the run file at path and writes it through fill.
func writeRun(path string, fill func(*bufio.Writer) error) error {
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

// A run is its keys in ascending order, each its length as a uvarint and
// its bytes.
func writeRunKey(w *bufio.Writer, key string) error {
	var n [binary.MaxVarintLen64]byte
	if _, err := w.Write(n[:binary.PutUvarint(n[:], uint64(len(key)))]); err != nil {
		return err
	}
	_, err := w.WriteString(key)
	return err
}

// runReader reads a run's keys in order.
type runReader struct {
	r    *bufio.Reader
	f    *os.File
	path string
	key  string // the current key
}

// next reads the next key; ok is false at the run's end.
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
		_, err = io.ReadFull(r.r, buf)
		r.key = string(buf)
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

// mergeRuns reads the runs' keys in ascending order, handing each to out
// (when not nil), and stops at the first key read twice.
func mergeRuns(paths []string, out func(string)) (dup string, found bool, err error) {
	h := make(runHeap, 0, len(paths))
	defer func() {
		for _, r := range h {
			r.f.Close()
		}
	}()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return "", false, fmt.Errorf("reading spilled keys: %w", err)
		}
		r := &runReader{r: bufio.NewReaderSize(f, runBuffer), f: f, path: path}
		ok, err := r.next()
		if !ok {
			f.Close()
			if err != nil {
				return "", false, err
			}
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	var last string
	began := false
	for len(h) > 0 {
		r := h[0]
		key := r.key
		if began && key == last {
			return key, true, nil
		}
		last, began = key, true
		if out != nil {
			out(key)
		}
		ok, err := r.next()
		if err != nil {
			return "", false, err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
			r.f.Close()
		}
	}
	return "", false, nil
}
