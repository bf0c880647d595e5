package duck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DuckDB's private directory (its spill files, and the links to the run's
// files) is a directory of the temporary directory. Close removes it; a
// process killed before (kill -9, the OOM killer) cannot, so every live
// process holds an exclusive lock (flock) on its directory, and each Open
// first removes the directories whose lock it can take: their processes
// are gone, since the kernel releases a lock when its process dies.

// privateDirPrefix begins the name of every private directory.
const privateDirPrefix = "datg-duckdb-"

// ownerFile is written in a private directory once it is locked. A
// directory without it may be one another process has just made and not
// locked yet, so it is only collected once older than unownedAge (its
// process died between the two).
const ownerFile = "owner"

const unownedAge = time.Hour

// globChars are what DuckDB reads as a pattern in a path.
const globChars = "[]*?{}\\"

// privateDir is a locked private directory.
type privateDir struct {
	path string
	lock *os.File // holds the flock; closing it releases the directory
}

// newPrivateDir collects the private directories of dead processes and
// makes this process's. Its path must hold no glob character ($TMPDIR
// might): /tmp is tried then.
func newPrivateDir() (*privateDir, error) {
	base := os.TempDir()
	if strings.ContainsAny(base, globChars) {
		base = "/tmp"
	}
	if strings.ContainsAny(base, globChars) {
		return nil, fmt.Errorf("no temporary directory without glob characters for DuckDB (%s); set TMPDIR", base)
	}
	collectPrivateDirs(base)
	path, err := os.MkdirTemp(base, privateDirPrefix)
	if err != nil {
		return nil, err
	}
	d, err := lockPrivateDir(path)
	if err != nil {
		os.RemoveAll(path)
		return nil, err
	}
	return d, nil
}

func lockPrivateDir(path string) (*privateDir, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking DuckDB's directory %s: %w", path, err)
	}
	owner := fmt.Sprintf("datg process %d, since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(path, ownerFile), []byte(owner), 0o600); err != nil {
		f.Close()
		return nil, err
	}
	return &privateDir{path: path, lock: f}, nil
}

// remove deletes the directory, then releases it.
func (d *privateDir) remove() {
	os.RemoveAll(d.path)
	d.lock.Close()
}

// collectPrivateDirs removes the private directories in base whose process
// is gone. Another user's, which this one cannot open, are left alone.
func collectPrivateDirs(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), privateDirPrefix) {
			continue // a link or file of that name is not one of ours
		}
		path := filepath.Join(base, e.Name())
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil && abandoned(path) {
			os.RemoveAll(path)
		}
		f.Close()
	}
}

// abandoned tells a directory whose lock is free and whose process is
// gone from one just made: see ownerFile.
func abandoned(path string) bool {
	if _, err := os.Lstat(filepath.Join(path, ownerFile)); err == nil {
		return true
	}
	info, err := os.Lstat(path)
	return err == nil && time.Since(info.ModTime()) > unownedAge
}

// linkFile links name in dir to the file at target and returns the link.
func linkFile(dir, name, target string) (string, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	link := filepath.Join(dir, name)
	return link, os.Symlink(abs, link)
}
