package journal

import "errors"

// ErrLocked means another process holds the journal.
var ErrLocked = errors.New("journal is in use by another datg process")

// ErrCorrupt means a complete line of a segment is not a record that can
// be read back; the error names the file and line and how to remove it.
var ErrCorrupt = errors.New("journal record is corrupt")

// ErrClosed means the journal was used after Close.
var ErrClosed = errors.New("journal is closed")
