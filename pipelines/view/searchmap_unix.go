//go:build unix

package view

import (
	"math"
	"os"
	"syscall"
)

// textsMapped says mapRegion maps (tests).
const textsMapped = true

var pageSize = int64(os.Getpagesize())

// mapRegion maps size bytes of a search index's texts file from off (a
// multiple of pageSize) read-only, for one batch of candidates: they are
// checked in place, no system call or copy a window, and the region is
// unmapped after the batch (unmapRegion), so the pages a search touched
// stay the OS page cache's (shared, reclaimable) and never count in the
// viewer's resident set beyond a batch's. nil (read instead) when size
// is 0 or too large for this platform's address space.
func mapRegion(f *os.File, off, size int64) ([]byte, error) {
	if size <= 0 || size > math.MaxInt {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), off, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapRegion(b []byte) error {
	if b == nil {
		return nil
	}
	return syscall.Munmap(b)
}
