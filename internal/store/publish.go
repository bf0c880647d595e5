package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/datg/datg/internal/atomicfile"
)

// publish turns a staging directory holding the tables in written into the
// run's next generation: under the run's commit lock it checks and links in
// every other table of the current generation, writes the manifest, renames
// the directory to the next number and points current at it. The rename of
// current is the commit; everything after it (notebook links, collecting
// old generations) only tidies and never fails the commit.
func publish(dir, staging string, head Manifest, written []ManifestFile) (int, error) {
	unlock, err := lockCommits(dir)
	if err != nil {
		return 0, err
	}
	defer unlock()
	gens := filepath.Join(dir, genDir)
	if err := realDir(gens); err != nil {
		return 0, err
	}
	cur, err := readCurrent(dir)
	if err != nil {
		return 0, err
	}
	var base string
	if cur > 0 {
		if err := checkGenerationDir(dir, cur); err != nil {
			return 0, err
		}
		base = filepath.Join(gens, genName(cur))
		// Finish what a killed commit may have left: links still to be made
		// while the run's files are the base generation's.
		linkForNotebooks(dir, base)
	} else if hasLegacyTables(dir) {
		if base, err = migrate(dir, gens); err != nil {
			return 0, fmt.Errorf("moving the run's tables into %s: %w", gens, err)
		}
	}
	if err := fault("link"); err != nil {
		return 0, err
	}
	writtenTables := map[string]bool{}
	for _, f := range written {
		writtenTables[f.Table] = true
	}
	var carried []ManifestFile
	if base != "" { // "" for a new run: nothing to carry
		if carried, err = carryOver(base, staging, writtenTables); err != nil {
			return 0, fmt.Errorf("carrying over the run's other tables: %w", err)
		}
	}
	head.Files = append(append([]ManifestFile(nil), written...), carried...)
	if err := writeManifest(staging, &head); err != nil {
		return 0, err
	}
	n, err := swapIn(dir, gens, staging)
	if err != nil {
		return 0, err
	}
	fault("after swap")
	linkForNotebooks(dir, filepath.Join(gens, genName(n)))
	collect(dir, gens, n, filepath.Base(base)) // base "" keeps only the new one
	return n, nil
}

// migrate makes a run from before generations one: its tables (files and
// folders of parts directly in dir) become generation 1 and dir's table
// files become links to it. Files in dir are hard-linked (nothing's content
// changes, so a reader sees the same tables before, during and after); a
// table that is a link to a file elsewhere is copied, so the generation
// never shares a file datg did not write. It returns the new generation.
func migrate(dir, gens string) (string, error) {
	staging, err := os.MkdirTemp(gens, txPrefix)
	if err != nil {
		return "", err
	}
	files, err := migrateTables(dir, staging)
	if err == nil {
		err = writeManifest(staging, &Manifest{Commit: migratedCommit, Stage: "migrate", CreatedAt: now(), Files: files})
	}
	var n int
	if err == nil {
		n, err = swapIn(dir, gens, staging)
	}
	if err != nil {
		os.RemoveAll(staging)
		return "", err
	}
	first := filepath.Join(gens, genName(n))
	fault("migrated")
	linkForNotebooks(dir, first)
	return first, nil
}

// migrateTables links or copies the legacy tables of dir into staging and
// describes them for the manifest. Only what holds a table in the old
// layout moves: a declared table's <name>.parquet file, or its folder of
// *.parquet parts. Everything else (the journal, tables/, a user's notes
// in a folder named like a table) is left alone.
func migrateTables(dir, staging string) ([]ManifestFile, error) {
	var out []ManifestFile
	for table := range tableNames() {
		file := filepath.Join(dir, table+".parquet")
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			li, _ := os.Lstat(file)
			dst := filepath.Join(staging, table+".parquet")
			if err := moveInto(file, dst, li.Mode()&fs.ModeSymlink != 0); err != nil {
				return nil, err
			}
			e, err := describeFile(staging, table+".parquet", table, "")
			if err != nil {
				return nil, err
			}
			out = append(out, e)
			continue
		}
		folder := filepath.Join(dir, table)
		if !isTableFolder(folder) {
			continue
		}
		li, _ := os.Lstat(folder)
		linked := li.Mode()&fs.ModeSymlink != 0
		parts, err := folderParts(folder)
		if err != nil {
			return nil, err
		}
		if err := os.Mkdir(filepath.Join(staging, table), 0o755); err != nil {
			return nil, err
		}
		for _, p := range parts {
			rel := table + "/" + filepath.Base(p)
			if err := moveInto(p, filepath.Join(staging, table, filepath.Base(p)), linked); err != nil {
				return nil, err
			}
			e, err := describeFile(staging, rel, table, "")
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// moveInto puts a legacy table file into a new generation: a copy when it
// was reached through a link (the file elsewhere is not datg's to share or
// protect), else a hard link, made read-only.
func moveInto(src, dst string, viaLink bool) error {
	var err error
	if viaLink {
		err = atomicfile.CopyFile(src, dst)
	} else {
		err = linkOrCopy(src, dst)
	}
	if err != nil {
		return err
	}
	return os.Chmod(dst, readOnly)
}

// migratedCommit is the commit of the generation a legacy run's tables
// moved into.
const migratedCommit = "migrated"

// readOnly is the mode of every file of a generation: a generation never
// changes, and a write through DIR/<table>.parquet would reach the file
// every generation shares.
const readOnly = 0o444

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
// that the commit does not write, after checking each file against the
// base's manifest: a commit never carries a changed file into a new
// generation as if it were committed, and never drops one silently.
func carryOver(base, staging string, written map[string]bool) ([]ManifestFile, error) {
	m, err := ReadManifest(base)
	if err != nil {
		return nil, err
	}
	if m == nil {
		if m, err = describeGeneration(base); err != nil {
			return nil, err
		}
	}
	var out []ManifestFile
	for _, f := range m.Files {
		if written[f.Table] {
			continue // replaced by this commit
		}
		if err := f.verify(base, false); err != nil {
			return nil, err
		}
		linked, err := linkInto(staging, filepath.Join(base, filepath.FromSlash(f.Path)), f)
		if err != nil {
			return nil, err
		}
		out = append(out, linked)
	}
	return out, syncFolders(staging)
}

// linkInto links (or copies) src into staging as the file f describes,
// read-only, and returns f with the time of the file now in staging (a
// copy's own).
func linkInto(staging, src string, f ManifestFile) (ManifestFile, error) {
	dst := filepath.Join(staging, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return f, err
	}
	if err := linkOrCopy(src, dst); err != nil {
		return f, err
	}
	if err := os.Chmod(dst, readOnly); err != nil {
		return f, err
	}
	fi, err := os.Lstat(dst)
	if err != nil {
		return f, err
	}
	f.MtimeNs = fi.ModTime().UnixNano()
	return f, nil
}

// syncFolders syncs the folder tables of a staging directory.
func syncFolders(staging string) error {
	entries, err := os.ReadDir(staging)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := atomicfile.SyncDir(filepath.Join(staging, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// describeGeneration makes the manifest of a generation written before
// manifests, hashing its files: its <name>.parquet files and the parts of
// declared tables' folders. One of them that is not a regular file (a link
// put there by hand) is refused: carrying over regular files only would
// drop the table.
func describeGeneration(gen string) (*Manifest, error) {
	entries, err := os.ReadDir(gen)
	if err != nil {
		return nil, err
	}
	declared := tableNames()
	m := &Manifest{}
	for _, e := range entries {
		name := e.Name()
		var table string
		var rels []string
		if t, ok := strings.CutSuffix(name, ".parquet"); ok && !strings.HasPrefix(name, ".") {
			table, rels = t, []string{name}
		} else if declared[name] {
			table = name
			if e.IsDir() {
				parts, err := folderParts(filepath.Join(gen, name))
				if err != nil {
					return nil, err
				}
				for _, p := range parts {
					rels = append(rels, name+"/"+filepath.Base(p))
				}
			} else {
				rels = []string{name}
			}
		}
		for _, rel := range rels {
			if _, err := regularFileOf(gen, rel); err != nil {
				return nil, err
			}
			f, err := describeFile(gen, rel, table, "")
			if err != nil {
				return nil, err
			}
			m.Files = append(m.Files, f)
		}
	}
	return m, nil
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".link-")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	tmp.Close()
	os.Remove(tmpName)
	if err := os.Symlink(target, tmpName); err != nil {
		return err
	}
	if err := os.Rename(tmpName, path); err != nil {
		os.Remove(tmpName)
		return err
	}
	return nil
}
