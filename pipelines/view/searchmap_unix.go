//go:build unix

package view

import (
	"math"
	"os"
	"syscall"
)

// textsMapped says mapTexts maps (tests).
const textsMapped = true

// mapTexts maps a search index's texts file (size bytes) read-only: a
// search checks its candidates' texts in place, no system call or copy a
// window, and the pages stay the OS page cache's (shared, reclaimable,
// file-backed), never the Go heap. nil (read instead) when it is empty
// or too large for this platform's address space.
func mapTexts(f *os.File, size int64) ([]byte, error) {
	if size == 0 || size > math.MaxInt {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapTexts(b []byte) error {
	if b == nil {
		return nil
	}
	return syscall.Munmap(b)
}
