package duck

import "errors"

// ErrNotAQuery means a statement given to datg sql would do something
// other than read: COPY, ATTACH, INSTALL, SET, CREATE and the like. datg sql
// runs queries only, so an analyst can run anything over a run safely.
var ErrNotAQuery = errors.New("datg sql runs queries only (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE, and PIVOT with an IN list)")

// ErrInterrupted means a query was stopped before it finished, because its
// context was cancelled (Ctrl-C, SIGTERM).
var ErrInterrupted = errors.New("query interrupted")

// ErrTimeout means a query ran past Limits.Timeout and was stopped.
var ErrTimeout = errors.New("query stopped at its time limit")

// ErrOutOfMemory means a query needed more memory than Limits.MemoryLimit
// and could not spill what it needed to disk.
var ErrOutOfMemory = errors.New("out of memory")

// ErrTempFull means a query's spill files would have passed
// Limits.MaxTemp.
var ErrTempFull = errors.New("out of temporary disk space")

// ErrDiskFull means a query's spill files filled the file system of the
// temporary directory before they reached Limits.MaxTemp.
var ErrDiskFull = errors.New("out of disk space")
