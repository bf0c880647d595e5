// Package atomicfile holds the file operations durable writes are made of:
// WriteFile replaces a file so that readers see either its previous content
// or the new one, never a part (the data goes to a temporary file in the
// same directory, is synced, and is renamed over the target); SyncDir makes
// names survive a crash; CopyFile copies where a hard link is refused;
// TryLock and Lock keep a second writer out.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// WriteFile replaces path's content with data.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	err = writeSynced(tmp, data, 0o644)
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// SyncDir syncs a directory, so the names created, renamed or removed in it
// survive a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// CopyFile copies src to dst, which must not exist, with src's permissions,
// and syncs it: the fallback where a hard link is refused.
func CopyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteNew creates path, which must not exist, with data synced to disk
// and the mode perm whatever the umask; the caller renames it into place.
func WriteNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	return writeSynced(f, data, perm)
}

// writeSynced writes data to f, syncs and closes it, and sets its mode.
func writeSynced(f *os.File, data []byte, perm os.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	return err
}
