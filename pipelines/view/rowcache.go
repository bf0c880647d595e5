package view

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
)

// A generation's row file is kept in datg's cache directory beside the
// search indexes, CACHE/view/rows/<key>, so the next viewer of the same
// generation maps it instead of building it; without a usable cache (none,
// one inside the run, a generation without a manifest) it is built in the
// system's temporary directory and removed as soon as it is mapped.

// rowKey is the identity of what a generation's row file is made of:
// every file of its manifest, the SQL and the code's tables and macros
// it reads, and the format; "" for a generation without a manifest. The
// macros are their definitions as DuckDB holds them: datg_probe_seed's
// is the probe's seed (datg view --probe-seed), which decides which
// traces are the scope "probe" (probe_trace names the macro, not the
// seed).
func rowKey(ctx context.Context, db *duck.DB) (string, error) {
	m, err := store.ReadManifest(db.SnapshotDir())
	if m == nil || err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "datg view rows %d\n%s\n", rowFormat, indexViews)
	for _, f := range m.Files {
		fmt.Fprintf(h, "%s %s %d %s\n", f.Table, f.Path, f.Size, f.SHA256)
	}
	var code string
	err = db.QueryRowContext(ctx, `SELECT concat_ws(' | ',
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_levels x),
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_directions x),
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_languages x),
		(SELECT string_agg(function_name || coalesce(macro_definition, ''), ';' ORDER BY function_name, macro_definition)
			FROM duckdb_functions() WHERE function_name IN ('target_lang', 'probe_trace', 'datg_probe_seed')))`).Scan(&code)
	if err != nil {
		return "", fmt.Errorf("the viewer's index key: %w", err)
	}
	fmt.Fprintf(h, "%s\n", code)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// loadRowFile maps the generation's row file from the cache, or builds it
// (a damaged or mismatched one is removed, never read: it is datg's).
func loadRowFile(ctx context.Context, db *duck.DB, runDir, cache string) (*rowFile, error) {
	key, err := rowKey(ctx, db)
	if err != nil {
		return nil, err
	}
	root := ""
	if cache != "" && key != "" && !cacheInRun(cache, runDir) {
		root = filepath.Join(cache, "view", "rows")
	}
	path := filepath.Join(root, key)
	var cacheErr error // why the cache is not used
	switch {
	case cache == "":
		cacheErr = errors.New("no cache directory")
	case key == "":
		cacheErr = errors.New("the generation has no manifest")
	case root == "":
		cacheErr = fmt.Errorf("the cache directory %s is inside the run", cache)
	}
	if root != "" {
		if f, err := os.Open(path); err == nil {
			rf, err := openRowFile(f, key)
			f.Close()
			if err == nil {
				touch(path)
				return rf, nil
			}
			os.Remove(path)
		}
		if cacheErr = os.MkdirAll(root, 0o700); cacheErr != nil {
			root = ""
		}
	}
	var tmp *os.File
	if root != "" {
		if tmp, cacheErr = os.CreateTemp(root, ".build-"); cacheErr != nil {
			root = ""
		}
	}
	if root == "" {
		if tmp, err = os.CreateTemp("", "datg-view-rows-"); err != nil {
			return nil, fmt.Errorf("%w: the cache directory %q: %v; the temporary directory %q: %v: set --cache-dir or DATG_CACHE_DIR, or TMPDIR, to a writable directory",
				ErrNoWritableDir, cache, cacheErr, os.TempDir(), err)
		}
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name()) // gone already when renamed
	}()
	if err := buildRows(ctx, db, tmp, key); err != nil {
		return nil, err
	}
	// The build's queries left DuckDB holding C memory no setting returns
	// (its buffer pool's records of their blocks; duck.DB.Reopen): the
	// viewer serves, and builds its search index, from a fresh database.
	// At ten times the paper's design the index build's anonymous peak
	// fell from 132-145 MB to 117-118 (BENCHMARKS.md, "The viewer after
	// its row build: a fresh DuckDB").
	if err := db.Reopen(ctx); err != nil {
		return nil, fmt.Errorf("reopening DuckDB after the build: %w", err)
	}
	rf, err := openRowFile(tmp, key)
	if err != nil {
		return nil, err
	}
	if root != "" && os.Rename(tmp.Name(), path) == nil {
		syncDir(root)
		pruneCache(root, key, false, ".build-")
	}
	return rf, nil
}

// tempWritable says why the system's temporary directory cannot hold a
// directory of datg's (nil: it can).
func tempWritable() error {
	d, err := os.MkdirTemp("", "datg-view-probe-")
	if err != nil {
		return err
	}
	return os.Remove(d)
}
