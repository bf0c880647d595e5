package atomicfile

import (
	"os"
	"syscall"
)

// TryLock opens (creating) the lock file at path and takes an exclusive
// lock on it, so that a second writer in another process stays out;
// closing the file releases it. A lock held elsewhere fails at once, with
// an error that errors.Is matches to syscall.EWOULDBLOCK.
func TryLock(path string) (*os.File, error) {
	return lock(path, syscall.LOCK_EX|syscall.LOCK_NB)
}

// Lock is TryLock that waits for a lock held elsewhere.
func Lock(path string) (*os.File, error) {
	return lock(path, syscall.LOCK_EX)
}

func lock(path string, how int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
