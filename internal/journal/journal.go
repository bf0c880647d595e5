package journal

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/datg/datg/internal/atomicfile"
)

// Key identifies a record: the SHA-256 of whatever the record answers.
type Key [32]byte

// KeyOf hashes b.
func KeyOf(b []byte) Key { return sha256.Sum256(b) }

// String is the key in hex.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// A record line is `{"k":"<64 hex>","v":<json>}` + "\n"; the fixed prefix lets
// Open index a segment without decoding values.
const (
	linePrefix = `{"k":"`
	keyEnd     = len(linePrefix) + 64
	valueStart = keyEnd + len(`","v":`)
)

type location struct {
	seg    int32
	length int32
	off    int64
}

// Journal is an open journal. It is safe for concurrent use.
type Journal struct {
	dir  string
	lock *os.File

	mu       sync.Mutex
	segs     []*os.File // read handles, the last one is also appended to
	index    map[Key]location
	off      int64 // end of the current segment
	dirty    bool
	syncing  bool
	lastSync time.Time
	closed   bool

	// SyncEvery bounds how long an appended record may stay unsynced (a
	// killed process loses nothing either way; this covers power loss).
	SyncEvery time.Duration
	// TornLines counts torn final lines found when opening (killed writers).
	TornLines int

	readOnly bool // OpenReadOnly: Put refuses, Close removes nothing
}

// Open opens (creating) the journal in dir, indexes its segments and starts a
// new segment for this process's appends.
func Open(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := atomicfile.TryLock(filepath.Join(dir, "LOCK"))
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, fmt.Errorf("%s: %w", dir, ErrLocked)
	}
	if err != nil {
		return nil, err
	}
	j := &Journal{dir: dir, lock: lock, index: map[Key]location{}, SyncEvery: 200 * time.Millisecond}
	names, err := segments(dir)
	if err != nil {
		j.Close()
		return nil, err
	}
	if err := j.loadAll(names); err != nil {
		j.Close()
		return nil, err
	}
	name := filepath.Join(dir, fmt.Sprintf("seg-%020d-%d.jsonl", time.Now().UnixNano(), os.Getpid()))
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		j.Close()
		return nil, err
	}
	j.segs = append(j.segs, f)
	atomicfile.SyncDir(dir)
	return j, nil
}

// loadAll indexes the segments; its error names every damaged line.
func (j *Journal) loadAll(names []string) error {
	var damaged corruptLines
	for _, name := range names {
		if err := j.load(name, &damaged); err != nil {
			return err
		}
	}
	return damaged.err()
}

// load indexes one segment. A complete line that is not a record is noted
// in damaged and skipped, so one error names every damaged line.
func (j *Journal) load(name string, damaged *corruptLines) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	seg := int32(len(j.segs))
	j.segs = append(j.segs, f)
	r := bufio.NewReaderSize(f, 1<<20)
	var off int64
	for line := 1; ; line++ {
		b, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A record longer than the buffer: copy before reading on, as
			// ReadSlice reuses its buffer.
			long := append([]byte(nil), b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = r.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if errors.Is(err, io.EOF) {
			if len(b) > 0 {
				j.TornLines++ // the writer was killed mid-append; never acknowledged
			}
			return nil
		}
		if err != nil {
			return err
		}
		key, ok := parseKey(b)
		if !ok {
			damaged.add(name, line)
			off += int64(len(b))
			continue
		}
		if _, seen := j.index[key]; !seen {
			j.index[key] = location{seg: seg, off: off, length: int32(len(b))}
		}
		off += int64(len(b))
	}
}

func parseKey(line []byte) (Key, bool) {
	var k Key
	if len(line) < valueStart+2 || !bytes.HasPrefix(line, []byte(linePrefix)) ||
		string(line[keyEnd:valueStart]) != `","v":` || !bytes.HasSuffix(line, []byte("}\n")) {
		return k, false
	}
	if _, err := hex.Decode(k[:], line[len(linePrefix):keyEnd]); err != nil {
		return k, false
	}
	return k, true
}

// Len is the number of records.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.index)
}

// Keys is a snapshot of the journaled keys, in no particular order.
func (j *Journal) Keys() []Key {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Key, 0, len(j.index))
	for k := range j.index {
		out = append(out, k)
	}
	return out
}

// Has reports whether the key has a record.
func (j *Journal) Has(k Key) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	_, ok := j.index[k]
	return ok
}

// Get decodes the key's record into v; ok is false when there is none.
func (j *Journal) Get(k Key, v any) (ok bool, err error) {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return false, ErrClosed
	}
	loc, ok := j.index[k]
	var f *os.File
	if ok {
		f = j.segs[loc.seg]
	}
	j.mu.Unlock()
	if !ok {
		return false, nil
	}
	buf := make([]byte, loc.length)
	if _, err := f.ReadAt(buf, loc.off); err != nil {
		return true, fmt.Errorf("%s at byte %d: %w", f.Name(), loc.off, err)
	}
	if _, valid := parseKey(buf); !valid {
		return true, corruptAt(f, loc.off, "the line changed since the journal was opened")
	}
	if err := json.Unmarshal(buf[valueStart:len(buf)-2], v); err != nil {
		return true, corruptAt(f, loc.off, err.Error())
	}
	return true, nil
}

// Put appends a record for the key; a key that already has one keeps it.
// When Put returns, the record survives the process being killed.
func (j *Journal) Put(k Key, v any) error {
	val, err := json.Marshal(v)
	if err != nil {
		return err
	}
	line := make([]byte, 0, valueStart+len(val)+2)
	line = append(line, linePrefix...)
	line = hex.AppendEncode(line, k[:])
	line = append(line, `","v":`...)
	line = append(line, val...)
	line = append(line, "}\n"...)

	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	if j.readOnly {
		return j.refuseWrite()
	}
	if _, dup := j.index[k]; dup {
		return nil
	}
	cur := j.segs[len(j.segs)-1]
	if _, err := cur.Write(line); err != nil {
		return fmt.Errorf("appending to %s: %w", cur.Name(), err)
	}
	j.index[k] = location{seg: int32(len(j.segs) - 1), off: j.off, length: int32(len(line))}
	j.off += int64(len(line))
	j.dirty = true
	if j.syncing || time.Since(j.lastSync) < j.SyncEvery {
		return nil
	}
	// Sync outside the lock so appends from other goroutines do not wait
	// for the disk.
	j.syncing, j.dirty, j.lastSync = true, false, time.Now()
	j.mu.Unlock()
	err = cur.Sync()
	j.mu.Lock()
	j.syncing = false
	return err
}

func (j *Journal) syncLocked() error {
	if !j.dirty {
		return nil
	}
	j.dirty = false
	j.lastSync = time.Now()
	return j.segs[len(j.segs)-1].Sync()
}

// Sync forces appended records to stable storage.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	return j.syncLocked()
}

// Close syncs, removes this process's segment if it stayed empty, and
// releases the lock.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	var err error
	if len(j.segs) > 0 {
		err = j.syncLocked()
	}
	j.closed = true
	for i, f := range j.segs {
		f.Close()
		if i == len(j.segs)-1 && j.off == 0 && f != nil && !j.readOnly {
			if st, serr := os.Stat(f.Name()); serr == nil && st.Size() == 0 {
				os.Remove(f.Name())
			}
		}
	}
	if j.lock != nil {
		syscall.Flock(int(j.lock.Fd()), syscall.LOCK_UN)
		j.lock.Close()
	}
	return err
}

// Dir is the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// segments lists the journal's segment files in name (creation) order. It
// reads the directory rather than globbing, so a run directory whose path
// holds glob characters ("run[1]") finds its own segments.
func segments(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasPrefix(n, "seg-") && strings.HasSuffix(n, ".jsonl") {
			names = append(names, filepath.Join(dir, n))
		}
	}
	return names, nil
}
