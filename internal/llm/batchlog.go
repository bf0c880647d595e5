package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// BatchLogName is the file in the journal directory that records every
// batch datg submitted, so that a rerun after a kill resumes the batches
// already created instead of paying for their requests twice.
const BatchLogName = "batches.jsonl"

// Batch log events, in the order a submission goes through them.
const (
	// batchUploaded: an input file is uploaded, holding these keys. Written
	// before the batch is created, so a kill between the creation and its
	// record is recovered by finding the batch of this file.
	batchUploaded = "uploaded"
	// batchCreated: the batch of an input file exists.
	batchCreated = "created"
	// batchEnded: the batch reached a final status and every answer in it
	// is journaled; its requests still unanswered are submitted again.
	batchEnded = "ended"
	// batchAbandoned: an uploaded file has no batch (the run was killed
	// before creating one), or its batch answers 404 (expired, deleted,
	// or not visible to this key's project): its requests not journaled
	// are submitted again.
	batchAbandoned = "abandoned"
)

// batchEntry is one line of the batch log.
type batchEntry struct {
	Event       string   `json:"event"`
	InputFileID string   `json:"input_file_id"`
	BatchID     string   `json:"batch_id,omitempty"`
	Keys        []string `json:"keys,omitempty"`
	// FileCreatedAt is the uploaded file's created_at, by the server's
	// clock: no batch of the file is older (findBatch stops there).
	FileCreatedAt int64  `json:"file_created_at,omitempty"`
	Status        string `json:"status,omitempty"`
	Time          int64  `json:"time"`
}

// submission is what the log says of one uploaded input file.
type submission struct {
	InputFileID   string
	Keys          []string
	FileCreatedAt int64
	BatchID       string // "" until created
	Ended         string // the final status, "" while the batch runs
	Abandoned     bool
}

// open reports whether the submission may still answer its requests.
func (s *submission) open() bool { return !s.Abandoned && s.Ended == "" }

// batchLog appends to the batch log, each line synced before it counts.
type batchLog struct {
	f    *os.File
	subs []*submission // in upload order
}

// openBatchLog reads the journal directory's batch log and opens it for
// appending. A final line cut off by a kill is ignored (the step it would
// have recorded is recovered); any other unreadable line is ErrBatchLog.
func openBatchLog(dir string) (*batchLog, error) {
	path := filepath.Join(dir, BatchLogName)
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	l := &batchLog{}
	byFile := map[string]*submission{}
	lines := bytes.Split(b, []byte("\n"))
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e batchEntry
		if err := json.Unmarshal(line, &e); err != nil || e.InputFileID == "" {
			if i == len(lines)-1 {
				break // torn by a kill: it never counted
			}
			return nil, fmt.Errorf("%s:%d: %w: not a batch log entry", path, i+1, ErrBatchLog)
		}
		s := byFile[e.InputFileID]
		if s == nil && e.Event != batchUploaded {
			return nil, fmt.Errorf("%s:%d: %w: %s event for file %s, which was never uploaded", path, i+1, ErrBatchLog, e.Event, e.InputFileID)
		}
		switch e.Event {
		case batchUploaded:
			s = &submission{InputFileID: e.InputFileID, Keys: e.Keys, FileCreatedAt: e.FileCreatedAt}
			byFile[e.InputFileID] = s
			l.subs = append(l.subs, s)
		case batchCreated:
			s.BatchID = e.BatchID
		case batchEnded:
			s.Ended = e.Status
		case batchAbandoned:
			s.Abandoned = true
		default:
			return nil, fmt.Errorf("%s:%d: %w: unknown event %q", path, i+1, ErrBatchLog, e.Event)
		}
	}
	_, statErr := os.Stat(path)
	l.f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if os.IsNotExist(statErr) {
		syncDirOf(path)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		// End the torn line, so the next entry starts a line of its own.
		if err := l.write([]byte("\n")); err != nil {
			l.f.Close()
			return nil, err
		}
	}
	return l, nil
}

// record appends an entry and syncs it: when record returns, the entry
// survives a kill or a crash.
func (l *batchLog) record(e batchEntry) error {
	e.Time = time.Now().Unix()
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return l.write(append(b, '\n'))
}

func (l *batchLog) write(b []byte) error {
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("writing %s: %w", l.f.Name(), err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", l.f.Name(), err)
	}
	return nil
}

func (l *batchLog) close() error { return l.f.Close() }

// syncDirOf syncs the directory holding path, so a new file's name
// survives a crash.
func syncDirOf(path string) {
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
}
