package view

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// The search index of a generation lives in datg's cache directory, never
// in the run (a run directory belongs to its user): CACHE/view/<key>, with
// CACHE $DATG_CACHE_DIR, else os.UserCacheDir()/datg. The key is the
// identity of the generation's texts (the traces files' SHA-256s from its
// manifest) and of the index's format, so a commit that does not touch
// the traces reuses the entry, and any other gets its own.

// CacheDirEnv names the environment variable that moves datg's cache.
const CacheDirEnv = "DATG_CACHE_DIR"

// DefaultCacheDir is where datg keeps caches: $DATG_CACHE_DIR, else
// os.UserCacheDir()/datg; "" when neither is known.
func DefaultCacheDir() string {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "datg")
	}
	return ""
}

// keepSearchIndexes is how many entries the view cache keeps: the ones
// used last (a 38,250-trace run of real texts makes an entry of 1.3 GB).
const keepSearchIndexes = 4

// searchKey is the identity of a pinned generation's texts, from its
// manifest; "" for a generation without one (a run from before
// manifests: it is searched by the scan).
func searchKey(snapDir string) (string, error) {
	m, err := store.ReadManifest(snapDir)
	if m == nil || err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "datg view search %d unicode %s sig %d/%d rows %d\n", searchFormat, unicode.Version, sigBits, sigSegment, rowFormat)
	files := 0
	for _, f := range m.Files {
		if f.Table == schema.Traces.Table.Name {
			fmt.Fprintf(h, "%s %d %s\n", f.Path, f.Size, f.SHA256)
			files++
		}
	}
	if files == 0 {
		fmt.Fprintf(h, "no traces\n")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cacheInRun reports whether the cache directory is the run directory or
// inside it (the cache is then not used).
func cacheInRun(cache, run string) bool {
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		if e, err := filepath.EvalSymlinks(p); err == nil {
			p = e
		}
		return p
	}
	rel, err := filepath.Rel(abs(run), abs(cache))
	if err != nil {
		return false
	}
	outside := rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
	return !outside
}

// loadSearchIndex opens the generation's entry under cache, building it
// when it is missing or damaged (a damaged one is removed: it is datg's).
func loadSearchIndex(ctx context.Context, snapDir, key, cache string, rf *rowFile) (*searchIndex, error) {
	root := filepath.Join(cache, "view")
	entry := filepath.Join(root, key)
	x, err := openSearchIndex(ctx, entry, key, rf)
	if err == nil {
		touch(entry)
		return x, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if _, serr := os.Lstat(entry); serr == nil {
		// Damaged, or of another format: set aside, then removed.
		if tmp, terr := os.MkdirTemp(root, ".old-"); terr == nil {
			if os.Rename(entry, filepath.Join(tmp, "entry")) == nil {
				os.RemoveAll(tmp)
			} else {
				os.Remove(tmp)
			}
		}
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // after the rename, nothing is left in it
	if err := buildSearchIndex(ctx, snapDir, tmp, key, rf); err != nil {
		return nil, err
	}
	// Atomic: an entry is whole or absent. Another process may have built
	// it meanwhile (the rename then fails): its entry is used if whole.
	renameErr := os.Rename(tmp, entry)
	syncDir(root)
	x, err = openSearchIndex(ctx, entry, key, rf)
	if err != nil {
		return nil, errors.Join(renameErr, err)
	}
	pruneCache(root, key, true, ".build-", ".old-")
	return x, nil
}

// buildSearchIndex writes the index of the generation's texts into dir,
// reading the traces' ids and texts only, a page of texts at a time
// (scanTexts); each trace's row is found in the row file rf. add keeps
// none of the text it is given (it folds a copy).
func buildSearchIndex(ctx context.Context, snapDir, dir, key string, rf *rowFile) error {
	return buildSearchIndexFrom(ctx, dir, key, rf, func(fn func(id string, text []byte) error) error {
		return scanTexts(ctx, snapDir, fn)
	})
}

// buildSearchIndexFrom is buildSearchIndex over the texts scan gives.
func buildSearchIndexFrom(ctx context.Context, dir, key string, rf *rowFile, scan func(func(id string, text []byte) error) error) error {
	w, err := newIndexWriter(dir, rf.find)
	if err != nil {
		return err
	}
	err = scan(func(id string, text []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return w.add(id, unsafeString(text), true)
	})
	if err != nil {
		w.abort()
		return fmt.Errorf("building the search index: %w", err)
	}
	return w.finish(key, rf.idsSum())
}

// touch marks an entry used now (pruning keeps the ones used last).
func touch(entry string) {
	now := time.Now()
	os.Chtimes(entry, now, now)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// pruneCache removes, from one of datg's own cache directories, the
// entries (directories when dirs, else regular files) beyond the
// keepSearchIndexes used last (keep, the one in use, counts), and builds a
// killed process left behind a day ago or more (names with one of
// tempPrefixes). Only names this code makes are touched.
func pruneCache(root, keep string, dirs bool, tempPrefixes ...string) {
	des, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type entry struct {
		name string
		mod  time.Time
	}
	var entries []entry
	for _, de := range des {
		info, err := de.Info()
		if err != nil || (dirs && !de.IsDir()) || (!dirs && !info.Mode().IsRegular()) {
			continue
		}
		name := de.Name()
		switch {
		case isKey(name) && name != keep:
			entries = append(entries, entry{name, info.ModTime()})
		case slices.ContainsFunc(tempPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) &&
			time.Since(info.ModTime()) > 24*time.Hour:
			os.RemoveAll(filepath.Join(root, name))
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return b.mod.Compare(a.mod) })
	for i, e := range entries {
		if i+1 >= keepSearchIndexes {
			os.RemoveAll(filepath.Join(root, e.name))
		}
	}
}

// isKey reports whether name is a key searchKey makes.
func isKey(name string) bool {
	if len(name) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}
