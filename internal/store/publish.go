package store

import (
	"errors"
	"fmt"
	"github.com/datg/datg/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// publish turns a staging directory holding the tables in written into the
// run's next generation: under the run's commit lock it links in every
// other table of the current generation, renames the directory to the next
// number and points current at it. The rename of current is the commit;
// everything after it (notebook links, collecting old generations) only
// tidies and never fails the commit.
func publish(dir, staging string, written map[string]bool) (int, error) {
	unlock, err := lockCommits(dir)
	if err != nil {
		return 0, err
	}
	defer unlock()
	base, gen, err := tablesDir(dir)
	if err != nil {
		return 0, err
	}
	gens := filepath.Join(dir, genDir)
	if gen {
		// Finish what a killed commit may have left: links still to be made
		// while the run's files are the base generation's.
		linkForNotebooks(dir, base)
	} else if base, err = migrate(dir, gens); err != nil {
		return 0, fmt.Errorf("moving the run's tables into %s: %w", gens, err)
	}
	if err := fault("link"); err != nil {
		return 0, err
	}
	if err := carryOver(base, staging, written); err != nil {
		return 0, fmt.Errorf("carrying over the run's other tables: %w", err)
	}
	n, err := swapIn(dir, gens, staging)
	if err != nil {
		return 0, err
	}
	fault("after swap")
	linkForNotebooks(dir, filepath.Join(gens, genName(n)))
	collect(dir, gens, n, filepath.Base(base))
	return n, nil
}

// migrate makes a run from before generations one: its tables (files and
// folders directly in dir) become generation 1, by hard links, and dir's
// table files become links to it. Nothing's content changes, so a reader
// sees the same tables before, during and after. It returns generation 1.
func migrate(dir, gens string) (string, error) {
	staging, err := os.MkdirTemp(gens, txPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		os.RemoveAll(staging)
		return "", err
	}
	declared := tableNames()
	for _, e := range entries {
		name := e.Name()
		table, isFile := strings.CutSuffix(name, ".parquet")
		if !declared[table] {
			continue // not a table: the journal, tables/, explain/, a user's file
		}
		// A table may be a link to a file or folder elsewhere: what it
		// points at is the table.
		src, err := filepath.EvalSymlinks(filepath.Join(dir, name))
		if err != nil {
			os.RemoveAll(staging)
			return "", fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		fi, err := os.Stat(src)
		if err != nil || isFile == fi.IsDir() {
			continue // x.parquet as a folder, x as a file: not datg's layout
		}
		if err := linkEntry(src, filepath.Join(staging, name), fi.IsDir()); err != nil {
			os.RemoveAll(staging)
			return "", err
		}
	}
	n, err := swapIn(dir, gens, staging)
	if err != nil {
		os.RemoveAll(staging)
		return "", err
	}
	first := filepath.Join(gens, genName(n))
	fault("migrated")
	linkForNotebooks(dir, first)
	return first, nil
}

// swapIn makes the staging directory the run's next generation: it syncs
// it, renames it to the next number and points current at it. The rename
// of current is the commit; on error before it the staging directory is
// where it was.
func swapIn(dir, gens, staging string) (int, error) {
	if err := fault("sync generation"); err != nil {
		return 0, err
	}
	if err := atomicfile.SyncDir(staging); err != nil {
		return 0, fmt.Errorf("syncing %s: %w", staging, err)
	}
	n, err := nextGeneration(gens)
	if err != nil {
		return 0, err
	}
	target := filepath.Join(gens, genName(n))
	if err := fault("rename generation"); err != nil {
		return 0, err
	}
	if err := os.Rename(staging, target); err != nil {
		return 0, err
	}
	undo := func(err error) (int, error) {
		os.Rename(target, staging)
		return 0, err
	}
	if err := fault("sync generations"); err != nil {
		return undo(err)
	}
	if err := atomicfile.SyncDir(gens); err != nil {
		return undo(fmt.Errorf("syncing %s: %w", gens, err))
	}
	if err := fault("swap current"); err != nil {
		return undo(err)
	}
	if err := replaceWithSymlink(filepath.Join(dir, currentLink), filepath.Join(genDir, genName(n))); err != nil {
		return undo(fmt.Errorf("pointing %s at generation %d: %w", filepath.Join(dir, currentLink), n, err))
	}
	// Committed. A failed directory sync now may lose the commit in a power
	// cut (the previous generation is then current again, whole), but
	// nothing a reader sees can be torn, so it does not fail the commit.
	atomicfile.SyncDir(dir)
	return n, nil
}

// lockCommits takes the run's commit lock; commits are short, so a second
// committer waits rather than fails.
func lockCommits(dir string) (func(), error) {
	f, err := atomicfile.Lock(filepath.Join(dir, ".commit.lock"))
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// carryOver hard-links into staging every table of the base generation
// that the commit does not write.
func carryOver(base, staging string, written map[string]bool) error {
	entries, err := os.ReadDir(base)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		table, folder := tableEntry(e)
		if table == "" || written[table] {
			continue // not a table, or replaced by this commit in either form
		}
		if err := linkEntry(filepath.Join(base, name), filepath.Join(staging, name), folder); err != nil {
			return err
		}
	}
	return nil
}

// tableEntry says which table a directory entry of a generation holds: a
// regular <name>.parquet file (any name: a table of a newer datg is carried
// too), or a folder named after a declared table. Anything else (a link, a
// stray directory) is no table and is never linked, moved or removed.
func tableEntry(e fs.DirEntry) (table string, folder bool) {
	name := e.Name()
	switch {
	case strings.HasPrefix(name, "."):
		return "", false
	case e.Type().IsRegular() && strings.HasSuffix(name, ".parquet"):
		return strings.TrimSuffix(name, ".parquet"), false
	case e.IsDir() && tableNames()[name]:
		return name, true
	}
	return "", false
}

func linkEntry(src, dst string, folder bool) error {
	if folder {
		return linkTree(src, dst)
	}
	return linkOrCopy(src, dst)
}

// linkTree links a folder-form table (its *.parquet parts) into dst.
func linkTree(src, dst string) error {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	parts, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if p.IsDir() || !strings.HasSuffix(p.Name(), ".parquet") {
			continue
		}
		if err := linkOrCopy(filepath.Join(src, p.Name()), filepath.Join(dst, p.Name())); err != nil {
			return err
		}
	}
	return atomicfile.SyncDir(dst)
}

// link is os.Link; tests refuse it as some file systems do.
var link = os.Link

// linkOrCopy hard-links src to dst, or copies it where the file system has
// no hard links. Table files are never changed after they are written, so a
// link is as good as a copy.
func linkOrCopy(src, dst string) error {
	err := link(src, dst)
	if err == nil {
		return nil
	}
	var le *os.LinkError
	if !errors.As(err, &le) || !(errors.Is(le.Err, syscall.EPERM) || errors.Is(le.Err, syscall.EXDEV) ||
		errors.Is(le.Err, syscall.EOPNOTSUPP) || errors.Is(le.Err, syscall.EMLINK)) {
		return err
	}
	return atomicfile.CopyFile(src, dst)
}

// nextGeneration is one more than the highest generation present, so a
// number is never reused, even by a generation a killed commit left behind.
func nextGeneration(gens string) (int, error) {
	entries, err := os.ReadDir(gens)
	if err != nil {
		return 0, err
	}
	top := 0
	for _, e := range entries {
		if n, ok := genNumber(e.Name()); ok && n > top {
			top = n
		}
	}
	return top + 1, nil
}

// replaceWithSymlink makes path a symlink to target in one rename.
func replaceWithSymlink(path, target string) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"+strconv.Itoa(os.Getpid()))
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// linkForNotebooks keeps DIR/<table>.parquet a symlink to
// current/<table>.parquet for every table file of the new generation (so
// notebooks read the committed table), replaces a legacy run's table files
// by such links, removes a legacy folder table once the generation holds
// the table as a file, and removes links to tables the generation no longer
// has. A legacy folder the generation still holds as a folder stays where
// it is (its parts are the generation's, hard-linked), so a reader that
// began before the run had generations keeps reading it.
func linkForNotebooks(dir, gen string) {
	entries, err := os.ReadDir(gen)
	if err != nil {
		return
	}
	has := map[string]bool{}
	for _, e := range entries {
		table, folder := tableEntry(e)
		if table == "" {
			continue
		}
		name := e.Name()
		has[name] = true
		path := filepath.Join(dir, name)
		if folder {
			if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
				replaceWithSymlink(path, filepath.Join(currentLink, name))
			}
			continue
		}
		if got, err := os.Readlink(path); err != nil || got != filepath.Join(currentLink, name) {
			replaceWithSymlink(path, filepath.Join(currentLink, name))
		}
		// The table is a file now: a legacy folder of it is superseded.
		legacy := filepath.Join(dir, table)
		if fi, err := os.Lstat(legacy); err == nil && fi.IsDir() && tableNames()[table] {
			old := filepath.Join(dir, "."+table+".legacy-"+strconv.Itoa(os.Getpid()))
			if os.Rename(legacy, old) == nil {
				os.RemoveAll(old)
			}
		}
	}
	all, _ := os.ReadDir(dir)
	for _, e := range all {
		if e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if got, err := os.Readlink(path); err == nil && strings.HasPrefix(got, currentLink+"/") && !has[strings.TrimPrefix(got, currentLink+"/")] {
			os.Remove(path)
		}
	}
	atomicfile.SyncDir(dir)
}

// collect removes generations no reader holds, except the new one and the
// one it replaced (a reader that has just resolved current without pinning
// it may still be opening its files), and staging directories of killed
// commits. It runs under the commit lock.
func collect(dir, gens string, current int, previous string) {
	entries, err := os.ReadDir(gens)
	if err != nil {
		return
	}
	keep := map[string]bool{genName(current): true, previous: true}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(gens, name)
		if strings.HasPrefix(name, txPrefix) {
			pidStr, _, _ := strings.Cut(strings.TrimPrefix(name, txPrefix), "-")
			if pid, err := strconv.Atoi(pidStr); err == nil && !processAlive(pid) {
				os.RemoveAll(path)
			}
			continue
		}
		if _, ok := genNumber(name); !ok || keep[name] {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(path)
		}
		f.Close()
	}
	removeLeftovers(dir)
}

// removeLeftovers deletes what killed writers left in the run directory:
// temporary table files of writers from before generations, and legacy
// folders a migration had moved aside.
func removeLeftovers(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		var pidStr string
		switch {
		case strings.HasPrefix(name, ".") && strings.Contains(name, ".parquet.tmp-"):
			_, rest, _ := strings.Cut(name, ".parquet.tmp-")
			pidStr, _, _ = strings.Cut(rest, "-")
		case strings.HasPrefix(name, ".") && strings.Contains(name, ".legacy-"):
			_, pidStr, _ = strings.Cut(name, ".legacy-")
		default:
			continue
		}
		if pid, err := strconv.Atoi(pidStr); err != nil || !processAlive(pid) {
			os.RemoveAll(filepath.Join(dir, name))
		}
	}
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
