// Package outdir replaces the files datg writes into a directory as one
// set: a reader of the directory sees every old file or every new one,
// never a mix, through an error or a kill at any instant.
//
// The new files are written into a sibling directory (.<name>.new-N)
// beside hard links to every other file of the directory (files users keep
// there, outputs not rewritten this time), and that sibling is exchanged
// with the directory in one rename (renameat2 with RENAME_EXCHANGE). Just
// before the exchange a marker (.datg-replaced, naming the outputs) is
// written into the directory, so that the previous directory, now at the
// sibling's name, is told from an unfinished new one. After the exchange,
// entries that cannot be linked (subdirectories, sockets...) are moved back
// into the directory, and the previous directory is deleted.
//
// Where the exchange is not supported, the directory is renamed aside
// (.<name>.old-N) and the new one renamed in its place: a kill between the
// two renames leaves no directory for that instant, never a mix.
//
// Each run first finishes what a killed one left (Recover): an unfinished
// new directory is deleted; a previous directory gives back what users
// keep (entries the directory lacks) and is deleted; a missing directory
// is the previous one put back. A lock file beside the directory
// (.<name>.lock) keeps two runs apart.
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/datg/datg/internal/atomicfile"
)

// marker names, in a previous directory, the outputs it holds; its presence
// says the directory was swapped out.
const marker = ".datg-replaced"

// Fault, when set (by tests), is called before each step of Replace and
// Recover with the step's name; an error stops there as a failure would.
var Fault func(step string) error

func step(name string) error {
	if Fault == nil {
		return nil
	}
	if err := Fault(name); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// link is os.Link; tests make it fail as some file systems do.
var link = os.Link

// exchange swaps two directories in one step; it returns
// errors.ErrUnsupported where the system or file system cannot.
var exchange = exchangeDirs

// Replace makes files (name -> content) the files of those names in dir,
// all at once, keeping every other entry of dir. dir and its parent are
// created when missing; a symbolic link to a directory is followed.
func Replace(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		if name == "" || name == "." || name == ".." || name == marker || strings.ContainsAny(name, "/\n\x00") {
			return fmt.Errorf("output %q: %w", name, ErrBadName)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	l, err := open(dir)
	if err != nil {
		return err
	}
	defer l.close()
	if err := l.recover(); err != nil {
		return err
	}
	return l.replace(names, files)
}

// Recover finishes what a killed Replace left beside dir, under the lock.
func Recover(dir string) error {
	l, err := open(dir)
	if err != nil {
		return err
	}
	defer l.close()
	return l.recover()
}

// locked is a directory whose files this process replaces.
type locked struct {
	dir, parent, base string
	lock              *os.File
}

// open resolves dir (absolute, a symbolic link followed), checks it can be
// swapped with a sibling, and takes its lock.
func open(dir string) (*locked, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if dir, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, err
		}
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if parent == dir {
		return nil, fmt.Errorf("%s: %w", dir, ErrMountPoint)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	switch fi, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !fi.IsDir():
		return nil, fmt.Errorf("%s is not a directory", dir)
	default:
		pi, err := os.Stat(parent)
		if err != nil {
			return nil, err
		}
		if fi.Sys().(*syscall.Stat_t).Dev != pi.Sys().(*syscall.Stat_t).Dev {
			return nil, fmt.Errorf("%s: %w", dir, ErrMountPoint)
		}
	}
	lockPath := filepath.Join(parent, "."+base+".lock")
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		// The new files are made beside the directory, in its parent.
		return nil, fmt.Errorf("%s: the directory holding it must be writable: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w (lock %s)", dir, ErrBusy, lockPath)
		}
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	return &locked{dir: dir, parent: parent, base: base, lock: f}, nil
}

func (l *locked) close() { l.lock.Close() }

// sibling is a fresh path beside the directory of a kind: new, old, trash.
func (l *locked) sibling(kind string) (string, error) {
	// MkdirTemp picks a free name; the caller renames onto it or fills it.
	p, err := os.MkdirTemp(l.parent, "."+l.base+"."+kind+"-*")
	if err != nil {
		return "", err
	}
	return p, nil
}

func (l *locked) replace(names []string, files map[string][]byte) (err error) {
	info, err := os.Stat(l.dir)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if existed {
		if err := l.checkOutputsAreFiles(names); err != nil {
			return err
		}
	}
	if err := step("stage"); err != nil {
		return err
	}
	stage, err := l.sibling("new")
	if err != nil {
		return err
	}
	swapped := false
	defer func() {
		if err != nil && !swapped {
			err = errors.Join(err, os.RemoveAll(stage), removeIfExists(filepath.Join(l.dir, marker)))
		}
	}()
	for _, name := range names {
		if err := step("write " + name); err != nil {
			return err
		}
		if err := atomicfile.WriteNew(filepath.Join(stage, name), files[name], 0o644); err != nil {
			return err
		}
	}
	if !existed {
		if err := os.Chmod(stage, 0o755); err != nil {
			return err
		}
		if err := atomicfile.SyncDir(stage); err != nil {
			return err
		}
		if err := step("publish"); err != nil {
			return err
		}
		if err := os.Rename(stage, l.dir); err != nil {
			return err
		}
		swapped = true
		return atomicfile.SyncDir(l.parent)
	}
	if err := os.Chmod(stage, info.Mode().Perm()); err != nil {
		return err
	}
	if err := l.carryOver(stage, files); err != nil {
		return err
	}
	if err := step("sync"); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(stage); err != nil {
		return err
	}
	if err := step("mark"); err != nil {
		return err
	}
	if err := atomicfile.WriteNew(filepath.Join(l.dir, marker), []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(l.dir); err != nil {
		return err
	}
	old, err := l.swap(stage)
	if err != nil {
		return err
	}
	swapped = true
	return errors.Join(atomicfile.SyncDir(l.parent), l.restore(old, true))
}

// checkOutputsAreFiles refuses to replace anything but a file or a
// symbolic link by an output: a directory of that name is a user's.
func (l *locked) checkOutputsAreFiles(names []string) error {
	for _, name := range names {
		fi, err := os.Lstat(filepath.Join(l.dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
			return fmt.Errorf("%s: %w", filepath.Join(l.dir, name), ErrNotFile)
		}
	}
	return nil
}

// carryOver puts into stage every file of the directory that is not an
// output: a hard link (a copy where the file system refuses links), a
// symbolic link recreated. Other entries are moved after the swap.
func (l *locked) carryOver(stage string, files map[string][]byte) error {
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if _, ours := files[name]; ours || name == marker {
			continue
		}
		src, dst := filepath.Join(l.dir, name), filepath.Join(stage, name)
		switch {
		case e.Type().IsRegular():
			if err := step("carry " + name); err != nil {
				return err
			}
			if err := link(src, dst); err != nil {
				err = atomicfile.CopyFile(src, dst)
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) { // removed meanwhile
				return err
			}
		case e.Type()&fs.ModeSymlink != 0:
			if err := step("carry " + name); err != nil {
				return err
			}
			target, err := os.Readlink(src)
			if err == nil {
				err = os.Symlink(target, dst)
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// swap puts stage in the directory's place and returns where the previous
// directory is now; on an error, nothing was swapped.
func (l *locked) swap(stage string) (string, error) {
	if err := step("swap"); err != nil {
		return "", err
	}
	err := exchange(stage, l.dir)
	if err == nil {
		return stage, nil
	}
	if !errors.Is(err, errors.ErrUnsupported) {
		return "", err
	}
	// Two renames: the directory aside, then the new one in its place.
	old, err := l.sibling("old")
	if err != nil {
		return "", err
	}
	if err := os.Remove(old); err != nil {
		return "", err
	}
	if err := os.Rename(l.dir, old); err != nil {
		return "", err
	}
	err = step("swap-in")
	if err == nil {
		err = os.Rename(stage, l.dir)
	}
	if err != nil {
		return "", errors.Join(err, os.Rename(old, l.dir))
	}
	return old, nil
}

// restore gives back to the directory what users keep in a previous
// directory old, then deletes old. Its outputs (named by its marker) are
// superseded. Another entry is moved back when the directory lacks it;
// when the directory has another file of that name, live says which is
// newer: old's, during a run (it was in place until the swap, its link
// was taken before), the directory's, when finishing a killed run (users
// may have changed it since).
func (l *locked) restore(old string, live bool) error {
	list, err := os.ReadFile(filepath.Join(old, marker))
	if err != nil {
		return err
	}
	outputs := strings.Split(strings.TrimSpace(string(list)), "\n")
	entries, err := os.ReadDir(old)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if name == marker || slices.Contains(outputs, name) {
			continue
		}
		src, dst := filepath.Join(old, name), filepath.Join(l.dir, name)
		have, err := os.Lstat(dst)
		if err == nil {
			kept, err := os.Lstat(src)
			if err != nil {
				return err
			}
			if os.SameFile(have, kept) || !live {
				continue
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := step("restore " + name); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err != nil {
			return fmt.Errorf("moving back %s: %w (it stays in %s)", name, err, old)
		}
	}
	if err := atomicfile.SyncDir(l.dir); err != nil {
		return err
	}
	if err := step("trash"); err != nil {
		return err
	}
	return l.trash(old)
}

// trash deletes a leftover directory: renamed first, so that a kill while
// deleting leaves a name that says it is rubbish.
func (l *locked) trash(path string) error {
	if !strings.HasPrefix(filepath.Base(path), "."+l.base+".trash-") {
		trash, err := l.sibling("trash")
		if err != nil {
			return err
		}
		if err := os.Remove(trash); err != nil {
			return err
		}
		if err := os.Rename(path, trash); err != nil {
			return err
		}
		if err := atomicfile.SyncDir(l.parent); err != nil {
			return err
		}
		path = trash
	}
	if err := step("clean"); err != nil {
		return err
	}
	return os.RemoveAll(path)
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
