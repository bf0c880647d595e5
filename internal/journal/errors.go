package journal

import "errors"

// ErrLocked means another process holds the journal.
var ErrLocked = errors.New("journal is in use by another datg process")

// ErrCorrupt means a complete record in a segment cannot be read back.
var ErrCorrupt = errors.New("journal record is corrupt")

// ErrClosed means the journal was used after Close.
var ErrClosed = errors.New("journal is closed")
