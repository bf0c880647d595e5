package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// FilePath is where a notebook reads the table: DIR/<name>.parquet (in a
// run with generations, a symlink to the committed file).
func FilePath(dir string, t *schema.Table) string {
	return filepath.Join(dir, t.Name+".parquet")
}

// FolderPath is the folder form of the table: DIR/<name>/.
func FolderPath(dir string, t *schema.Table) string {
	return filepath.Join(dir, t.Name)
}

// Paths returns the Parquet files holding the table's committed version:
// the single file, or the folder's *.parquet files in name order. It
// returns ErrNoTable when neither exists. In a run with generations every
// file is checked against the generation's manifest (ErrTableChanged) and
// the run directory's entry for the table against the notebook link
// (ErrStrayTable).
func Paths(dir string, t *schema.Table) ([]string, error) {
	for {
		loc, err := locate(dir)
		if err != nil {
			return nil, err
		}
		if loc.gen == 0 {
			return tablePaths(loc.tables, t)
		}
		paths, err := committedPaths(loc.tables, t)
		if errors.Is(err, ErrNoTable) && !samePlace(dir, loc) {
			// The generation may have been collected between reading
			// current and looking in it (two commits later): a table that
			// exists must not read as absent.
			continue
		}
		if err == nil || errors.Is(err, ErrNoTable) {
			if serr := checkNoStray(loc.run, loc.tables, t); serr != nil {
				return nil, serr
			}
		}
		return paths, err
	}
}

// samePlace reports whether dir still resolves to loc (false when current
// moved on since loc was resolved).
func samePlace(dir string, loc location) bool {
	now, err := locate(dir)
	return err != nil || now.tables == loc.tables
}

// committedPaths returns the table's files in generation gen, each checked
// against the generation's manifest. A generation from before manifests is
// checked for links only.
func committedPaths(gen string, t *schema.Table) ([]string, error) {
	m, err := ReadManifest(gen)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(gen); err != nil {
		return nil, fmt.Errorf("%s: %w", FilePath(gen, t), ErrNoTable)
	}
	present, err := filesOfTable(gen, t.Name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		if len(present) == 0 {
			return nil, fmt.Errorf("%s: %w", FilePath(gen, t), ErrNoTable)
		}
		var paths []string
		for _, rel := range present {
			path, err := regularFileOf(gen, rel)
			if err != nil {
				return nil, err
			}
			paths = append(paths, path)
		}
		return paths, nil
	}
	files := m.table(t.Name)
	listed := map[string]bool{}
	var paths []string
	for _, f := range files {
		if err := f.verify(gen, false); err != nil {
			return nil, err
		}
		listed[f.Path] = true
		paths = append(paths, filepath.Join(gen, filepath.FromSlash(f.Path)))
	}
	for _, rel := range present {
		if !listed[rel] {
			return nil, fmt.Errorf("%s: %w: the generation's manifest does not list it (put there by hand?); %s",
				filepath.Join(gen, filepath.FromSlash(rel)), ErrTableChanged, repairHint(filepath.Dir(filepath.Dir(gen))))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: %w", FilePath(gen, t), ErrNoTable)
	}
	return paths, nil
}

// regularFileOf is the path of a file of generation gen (rel to it), or
// ErrTableChanged when it is not a regular file: a generation made before
// manifests is checked for links put in by hand only.
func regularFileOf(gen, rel string) (string, error) {
	path := filepath.Join(gen, filepath.FromSlash(rel))
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w: it is %s, not a file datg wrote; %s", path, ErrTableChanged, kind(fi), repairHint(filepath.Dir(filepath.Dir(gen))))
	}
	return path, nil
}

// filesOfTable lists what generation gen holds under the table's names,
// relative and slash-separated: <name>.parquet (of whatever kind: a link is
// listed, to be refused), or the *.parquet entries of the folder <name>/.
func filesOfTable(gen, name string) ([]string, error) {
	var out []string
	if _, err := os.Lstat(filepath.Join(gen, name+".parquet")); err == nil {
		out = append(out, name+".parquet")
	}
	folder := filepath.Join(gen, name)
	fi, err := os.Lstat(folder)
	switch {
	case err != nil:
		return out, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return append(out, name), nil
	case !fi.IsDir():
		return out, nil
	}
	entries, err := os.ReadDir(folder) // in name order
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".parquet") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, name+"/"+e.Name())
		}
	}
	return out, nil
}

func tablePaths(base string, t *schema.Table) ([]string, error) {
	file := FilePath(base, t)
	_, fileErr := os.Stat(file)
	folder := FolderPath(base, t)
	hasFolder := isTableFolder(folder)
	switch {
	case fileErr == nil && hasFolder:
		return nil, fmt.Errorf("%s and %s/: %w", file, folder, ErrAmbiguousTable)
	case fileErr == nil:
		return []string{file}, nil
	case hasFolder:
		return folderParts(folder)
	case !errors.Is(fileErr, os.ErrNotExist):
		return nil, fileErr
	}
	return nil, fmt.Errorf("%s: %w", file, ErrNoTable)
}

// folderParts lists a folder table's *.parquet parts in name order.
func folderParts(folder string) ([]string, error) {
	entries, err := os.ReadDir(folder) // in name order
	if err != nil {
		return nil, err
	}
	var parts []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".parquet") && !strings.HasPrefix(e.Name(), ".") {
			parts = append(parts, filepath.Join(folder, e.Name()))
		}
	}
	return parts, nil
}

// isTableFolder reports whether path is a folder holding a table the way
// datg and other Parquet writers keep one: *.parquet parts. A folder of
// anything else (a user's notes in DIR/annotations/) is no table.
func isTableFolder(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	parts, err := folderParts(path)
	return err == nil && len(parts) > 0
}

// checkNoStray refuses a table file or folder in the run directory that is
// not the link to the committed table (nor the same file, as a legacy file
// is until its first commit replaces it by the link): something wrote it
// outside datg, and reading the generation would silently ignore it.
func checkNoStray(dir, gen string, t *schema.Table) error {
	for _, name := range []string{t.Name + ".parquet", t.Name} {
		path := filepath.Join(dir, name)
		li, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if target, err := os.Readlink(path); err == nil && target == filepath.Join(currentLink, name) {
			continue
		}
		fi, err := os.Stat(path) // what a link elsewhere points at
		if err != nil && li.Mode()&fs.ModeSymlink != 0 {
			continue // a dangling link reads as nothing, to datg and to notebooks
		}
		if name == t.Name && fi != nil && fi.IsDir() {
			if !isTableFolder(path) {
				continue // a folder of the user's that holds no Parquet
			}
			if same, _ := sameTree(path, filepath.Join(gen, name)); same {
				continue
			}
		}
		if name != t.Name {
			if committed, err := os.Lstat(filepath.Join(gen, name)); err == nil && fi != nil && committed.Mode().IsRegular() && os.SameFile(fi, committed) {
				continue
			}
		}
		return fmt.Errorf("%s: %w (the run's tables are committed under %s; add rows with datg import, or move the file away)",
			path, ErrStrayTable, filepath.Join(dir, currentLink))
	}
	return nil
}

// sameTree reports whether folder a is a legacy folder table whose parts
// are all b's (hard links), as after migration: every entry but hidden
// ones is a *.parquet file that is the same file as b's part of that name.
func sameTree(a, b string) (bool, error) {
	if fi, err := os.Lstat(b); err != nil || !fi.IsDir() {
		return false, err
	}
	pa, err := os.ReadDir(a)
	if err != nil {
		return false, err
	}
	for _, p := range pa {
		if strings.HasPrefix(p.Name(), ".") {
			continue
		}
		if !strings.HasSuffix(p.Name(), ".parquet") {
			return false, nil
		}
		fa, err1 := os.Lstat(filepath.Join(a, p.Name()))
		fb, err2 := os.Lstat(filepath.Join(b, p.Name()))
		if err1 != nil || err2 != nil || !fa.Mode().IsRegular() || !os.SameFile(fa, fb) {
			return false, nil
		}
	}
	return true, nil
}

// Exists reports whether the run directory holds the table.
func Exists(dir string, t *schema.Table) bool {
	_, err := Paths(dir, t)
	return err == nil
}

// Scan calls fn for every row of the table, in file order, reading a batch at
// a time so memory stays bounded by the batch, not the table. It returns
// ErrNoTable (wrapped) when the table has not been written.
func Scan[T any](dir string, def schema.Def[T], fn func(*T) error) error {
	return ScanProjection(dir, def.Table, fn)
}

// OpenFile opens a Parquet file for reading; close the returned file when
// done. footerOnly skips the page indexes and bloom filters: metadata and a
// scan of every row in order use neither, and a file's page indexes are
// held in memory for as long as it is open (one entry per page of every
// column: tens of MB for a traces table at 10x the paper's scale).
func OpenFile(path string, footerOnly bool) (*parquet.File, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	var opts []parquet.FileOption
	if footerOnly {
		opts = append(opts, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	}
	pf, err := parquet.OpenFile(f, st.Size(), opts...)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, f, nil
}

// ScanProjection is Scan into a struct P holding some of the table's
// columns (by parquet tag); only those columns are decoded, so reading the
// ids of a table of long texts does not read the texts.
func ScanProjection[P any](dir string, t *schema.Table, fn func(*P) error) error {
	paths, err := Paths(dir, t)
	if err != nil {
		return err
	}
	want := parquet.SchemaOf(new(P))
	for _, p := range paths {
		if err := scanFile(p, t, want, fn); err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
	}
	return nil
}

func scanFile[T any](path string, t *schema.Table, want *parquet.Schema, fn func(*T) error) error {
	pf, f, err := OpenFile(path, true)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := checkColumns(pf, t, want); err != nil {
		return err
	}
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	buf := make([]T, 64)
	for {
		n, err := r.Read(buf)
		for i := 0; i < n; i++ {
			if ferr := fn(&buf[i]); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ReadAll returns every row of the table; an unwritten table gives no rows
// and ErrNoTable.
func ReadAll[T any](dir string, def schema.Def[T]) ([]T, error) {
	var rows []T
	err := Scan(dir, def, func(r *T) error {
		rows = append(rows, *r)
		return nil
	})
	return rows, err
}

// FileMeta returns the key/value metadata of one Parquet file.
func FileMeta(path string) (map[string]string, error) {
	pf, f, err := OpenFile(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		out[kv.Key] = kv.Value
	}
	return out, nil
}

// NumRows counts the table's rows from the files' footers, without reading
// any data; an unwritten table has 0.
func NumRows(dir string, t *schema.Table) (int64, error) {
	paths, err := Paths(dir, t)
	if errors.Is(err, ErrNoTable) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var n int64
	for _, p := range paths {
		pf, f, err := OpenFile(p, true)
		if err != nil {
			return 0, err
		}
		n += pf.NumRows()
		f.Close()
	}
	return n, nil
}
