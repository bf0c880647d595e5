//go:build unix

package view

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only: its pages sit in the
// OS page cache (shared, reclaimable), not in the Go heap.
func mapFile(f *os.File, size int) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile releases what mapFile mapped.
func unmapFile(b []byte) error {
	if b == nil {
		return nil
	}
	return syscall.Munmap(b)
}
