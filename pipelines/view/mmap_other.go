//go:build !unix

package view

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f (no mmap here: they are in the
// Go heap).
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(io.NewSectionReader(f, 0, int64(size)), b)
	return b, err
}

func unmapFile([]byte) error { return nil }
