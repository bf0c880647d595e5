package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/datg/datg/internal/atomicfile"
)

// What a commit does after it has happened: keep the notebook links
// pointing at the committed tables, and remove what no one needs any more.
// It touches only what datg can prove it made: its own links, generations
// no reader holds (their listed files, then the directory when nothing
// else is in it), staging directories whose commit holds no lock, and a
// legacy folder table whose every part is a file of a generation. Anything
// else is left where it is, with a warning.

var (
	warnMu   sync.Mutex
	warnings io.Writer = os.Stderr
)

// SetWarnings sends the store's warnings (what a commit left alone, and
// why) to w instead of stderr, and returns a function that restores the
// previous writer.
func SetWarnings(w io.Writer) (restore func()) {
	warnMu.Lock()
	defer warnMu.Unlock()
	old := warnings
	warnings = w
	return func() {
		warnMu.Lock()
		warnings = old
		warnMu.Unlock()
	}
}

func warn(format string, args ...any) {
	warnMu.Lock()
	defer warnMu.Unlock()
	fmt.Fprintf(warnings, "datg: warning: "+format+"\n", args...)
}

// genTables lists the tables of a generation by form: <name>.parquet
// files, and folders of parts.
func genTables(gen string) (files, folders []string) {
	entries, err := os.ReadDir(gen)
	if err != nil {
		return nil, nil
	}
	declared := tableNames()
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if t, ok := strings.CutSuffix(name, ".parquet"); ok && e.Type().IsRegular() {
			files = append(files, t)
		} else if e.IsDir() && declared[name] {
			folders = append(folders, name)
		}
	}
	return files, folders
}

// ourLink reports whether path is datg's notebook link: a symlink to
// current/<its own name>.
func ourLink(path string) bool {
	target, err := os.Readlink(path)
	return err == nil && target == filepath.Join(currentLink, filepath.Base(path))
}

// linkForNotebooks keeps DIR/<table>.parquet a symlink to
// current/<table>.parquet for every table file of the generation (so
// notebooks read the committed table), replaces a legacy run's table files
// by such links once the generation holds them, removes a legacy folder
// table once the generation holds the table as a file, and removes its own
// links to tables the generation no longer has. What is not datg's (a
// user's file or folder in a table's place) stays, with a warning: readers
// refuse it until it is moved away.
func linkForNotebooks(dir, gen string) {
	files, folders := genTables(gen)
	m, _ := ReadManifest(gen)
	migrated := m != nil && m.Commit == migratedCommit
	has := map[string]bool{}
	for _, table := range files {
		name := table + ".parquet"
		has[name] = true
		path := filepath.Join(dir, name)
		if replaceableByLink(path, filepath.Join(gen, name), migrated) {
			replaceWithSymlink(path, filepath.Join(currentLink, name))
		} else if !ourLink(path) {
			warn("%s is not datg's link to the committed table; left in place (datg refuses to read it: move it away, and the next commit links the table there)", path)
		}
		removeLegacyFolder(dir, table)
	}
	for _, table := range folders {
		has[table] = true
		path := filepath.Join(dir, table)
		_, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			replaceWithSymlink(path, filepath.Join(currentLink, table))
		case ourLink(path):
		default:
			if same, _ := sameTree(path, filepath.Join(gen, table)); !same && isTableFolder(path) {
				warn("%s is not datg's link to the committed table; left in place", path)
			}
		}
	}
	all, _ := os.ReadDir(dir)
	for _, e := range all {
		path := filepath.Join(dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 && !has[e.Name()] && e.Name() != currentLink && ourLink(path) {
			os.Remove(path)
		}
	}
	atomicfile.SyncDir(dir)
}

// replaceableByLink reports whether the notebook path of a table may be
// made datg's link: nothing is there, or the legacy table file that the
// generation holds (the same file, hard-linked), or, in the generation a
// legacy run migrated into, a legacy table link to a file elsewhere whose
// content the generation holds (the file it points at stays where it is).
func replaceableByLink(path, committed string, migrated bool) bool {
	li, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || ourLink(path) {
		return false
	}
	ci, err := os.Lstat(committed)
	if err != nil {
		return false
	}
	if li.Mode().IsRegular() {
		return os.SameFile(li, ci)
	}
	if li.Mode()&fs.ModeSymlink == 0 || !migrated {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != ci.Size() {
		return false
	}
	a, err1 := hashFile(path)
	b, err2 := hashFile(committed)
	return err1 == nil && err2 == nil && a == b
}

// removeLegacyFolder removes DIR/<table>/, a legacy folder table the
// generations superseded, when every entry but hidden ones is a part that
// is a file of one of the run's generations (so nothing is lost): the
// parts one by one, then the folder if nothing else is in it.
func removeLegacyFolder(dir, table string) {
	folder := filepath.Join(dir, table)
	fi, err := os.Lstat(folder)
	if err != nil || !fi.IsDir() || !isTableFolder(folder) {
		return
	}
	var proven bool
	for _, n := range generations(dir) {
		if same, _ := sameTree(folder, filepath.Join(dir, genDir, genName(n), table)); same {
			proven = true
			break
		}
	}
	if !proven {
		warn("%s holds Parquet files that are not the run's committed table %s; left in place (datg refuses to read the table while it is there)", folder, table)
		return
	}
	parts, _ := folderParts(folder)
	for _, p := range parts {
		os.Remove(p)
	}
	if err := os.Remove(folder); err != nil {
		warn("%s: the superseded table's parts are removed; the folder holds other files and is left in place", folder)
	}
}

// collect removes generations no reader holds, except the new one and the
// one it replaced (a reader that has just resolved current without pinning
// it may still be opening its files), and staging directories whose commit
// no longer holds their lock (killed). It runs under the commit lock, after
// the commit made current a valid generation.
func collect(dir, gens string, current int, previous string) {
	entries, err := os.ReadDir(gens)
	if err != nil {
		return
	}
	keep := map[string]bool{genName(current): true, previous: true}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(gens, name)
		if strings.HasPrefix(name, txPrefix) && e.IsDir() {
			if l, ok := tryLockDir(path); ok {
				os.RemoveAll(path)
				l.Close()
			}
			continue
		}
		if _, ok := genNumber(name); !ok || keep[name] || !e.IsDir() {
			continue
		}
		if l, ok := tryLockDir(path); ok {
			removeGeneration(path)
			l.Close()
		}
	}
}

// tryLockDir takes the exclusive lock of a directory if no one holds it: a
// pinned generation's readers and a staging directory's commit hold theirs
// for as long as they need it. flock works across PID namespaces and, on
// Linux, over NFS.
func tryLockDir(path string) (*os.File, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return f, true
}

// removeGeneration removes a generation's files, those its manifest lists
// and that are still as committed (or, for a generation made before
// manifests, its table files whose footer says datg wrote them for that
// table), then the directory. When anything else is left in it, the
// directory and its manifest stay, with a warning.
func removeGeneration(gen string) {
	m, err := ReadManifest(gen)
	if err != nil {
		warn("%s: %v; generation left in place", gen, err)
		return
	}
	var rels []string
	if m != nil {
		for _, f := range m.Files {
			// A file that is not what the manifest says may be a user's
			// put in its place: it stays.
			if f.verify(gen, false) == nil {
				rels = append(rels, f.Path)
			}
		}
	} else {
		files, folders := genTables(gen)
		for _, t := range files {
			rels = append(rels, t+".parquet")
		}
		for _, t := range folders {
			parts, _ := folderParts(filepath.Join(gen, t))
			for _, p := range parts {
				rels = append(rels, t+"/"+filepath.Base(p))
			}
		}
		rels = slices.DeleteFunc(rels, func(rel string) bool { return !writtenByDatg(gen, rel) })
	}
	folders := map[string]bool{}
	for _, rel := range rels {
		os.Remove(filepath.Join(gen, filepath.FromSlash(rel)))
		if d, _, ok := strings.Cut(rel, "/"); ok {
			folders[d] = true
		}
	}
	for d := range folders {
		os.Remove(filepath.Join(gen, d))
	}
	left, _ := os.ReadDir(gen)
	var names []string
	for _, e := range left {
		if e.Name() != manifestName {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		os.Remove(filepath.Join(gen, manifestName))
		if os.Remove(gen) == nil {
			return
		}
	}
	slices.Sort(names)
	warn("%s holds files datg did not write (%s); the old generation is left in place", gen, strings.Join(names, ", "))
}

// writtenByDatg reports whether a file of a generation made before
// manifests is a regular Parquet file whose footer says datg wrote it for
// its table.
func writtenByDatg(gen, rel string) bool {
	path := filepath.Join(gen, filepath.FromSlash(rel))
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	meta, err := FileMeta(path)
	table, _, _ := strings.Cut(strings.TrimSuffix(rel, ".parquet"), "/")
	return err == nil && meta[MetaTable] == table
}
