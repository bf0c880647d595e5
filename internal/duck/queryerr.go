package duck

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// queryError makes the error of a failed query say what happened in one
// line: interrupted or timed out (whatever DuckDB says then), or out of
// memory or temporary space, naming the limit hit. DuckDB's own advice on
// those (SET memory_limit = ..., PRAGMA max_temp_directory_size = ...) is
// dropped: the configuration is locked, so no query can follow it, and
// the limits are the caller's to raise (datg sql's flags).
func (db *DB) queryError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		if errors.Is(cause, ErrTimeout) {
			return cause
		}
		return fmt.Errorf("%w: %v", ErrInterrupted, cause)
	}
	// go-duckdb's prefix for any error of an Arrow query says nothing.
	msg := strings.TrimPrefix(err.Error(), "failed to execute the prepared arrow: ")
	said := firstLine(msg)
	switch {
	case strings.Contains(msg, "max_temp_directory_size"):
		return fmt.Errorf("%w: the query's spill files would pass their limit of %s (DuckDB: %s)", ErrTempFull, FormatSize(db.Limits.MaxTemp), said)
	case strings.Contains(msg, "No space left on device"):
		return fmt.Errorf("%w: the query's spill files filled the file system of %s (DuckDB: %s)", ErrDiskFull, db.tempDir.path, said)
	case IsOutOfMemory(err):
		return fmt.Errorf("%w: the query needs more than DuckDB's memory limit of %s (DuckDB: %s)", ErrOutOfMemory, FormatSize(db.Limits.MemoryLimit), said)
	}
	if msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// IsOutOfMemory says whether err is DuckDB's own out-of-memory error
// (which go-duckdb gives as text), raw or already classified
// (ErrOutOfMemory): callers that run DuckDB through database/sql, as the
// viewer's index build, test for it here rather than by its words.
func IsOutOfMemory(err error) bool {
	return err != nil && (errors.Is(err, ErrOutOfMemory) || strings.Contains(err.Error(), "Out of Memory Error"))
}

// firstLine is DuckDB's message without the advice it adds below it, and
// without the "Out of Memory Error: " its type adds before it.
func firstLine(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	msg = strings.TrimPrefix(msg, "Out of Memory Error: ")
	return strings.TrimSuffix(strings.TrimSpace(msg), ".")
}

// withTimeout bounds ctx by the database's Timeout, whose end is an
// ErrTimeout naming it.
func (db *DB) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if db.Limits.Timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, db.Limits.Timeout, fmt.Errorf("%w of %s", ErrTimeout, db.Limits.Timeout))
}
