package view

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rowFileOf is the one row file in cache.
func rowFileOf(t testing.TB, cache string) string {
	t.Helper()
	des, err := os.ReadDir(filepath.Join(cache, "view", "rows"))
	if err != nil || len(des) != 1 || !isKey(des[0].Name()) {
		t.Fatalf("the row files in %s: %v, %v; want one", cache, des, err)
	}
	return filepath.Join(cache, "view", "rows", des[0].Name())
}

// TestDamagedRowFileIsRebuilt: a row file in the cache that is damaged
// (a byte flipped in its columns, its meta or its trailer; cut; empty;
// grown) or that is another generation's under this key is refused when
// opened, and the viewer builds it again and answers as the old index.
func TestDamagedRowFileIsRebuilt(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	ctx := context.Background()
	dir := writeIndexRun(t, 400, 5)
	other := writeIndexRun(t, 300, 6)
	l := openLegacy(t, dir)
	cache, otherCache := t.TempDir(), t.TempDir()
	for _, c := range []struct{ dir, cache string }{{dir, cache}, {other, otherCache}} {
		r, err := openRunDB(ctx, c.dir, c.cache)
		if err != nil {
			t.Fatal(err)
		}
		r.close()
	}
	path, otherPath := rowFileOf(t, cache), rowFileOf(t, otherCache)
	key := filepath.Base(path)
	at := func(frac float64) func() {
		return func() {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[int(frac*float64(len(b)-1))] ^= 0x10
			os.WriteFile(path, b, 0o600)
		}
	}
	damages := map[string]func(){
		"a byte of the columns": at(0.3),
		"a byte of the meta":    at(0.97),
		"a byte of the trailer": at(1),
		"cut":                   func() { os.Truncate(path, 100) },
		"empty":                 func() { os.WriteFile(path, nil, 0o600) },
		"grown": func() {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte("more"))
			f.Close()
		},
		"another run's": func() {
			b, _ := os.ReadFile(otherPath)
			os.WriteFile(path, b, 0o600)
		},
	}
	for _, name := range slices.Sorted(maps.Keys(damages)) {
		damages[name]()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if rf, err := openRowFile(f, key); !errors.Is(err, errBadRows) {
			if rf != nil {
				rf.close()
			}
			t.Errorf("%s: opened: %v, want errBadRows", name, err)
		}
		f.Close()
		r, err := openRunDB(ctx, dir, cache)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		compareIndexes(t, name, r, l, 100)
		r.close()
		// Rebuilt whole: it opens again.
		f, _ = os.Open(path)
		if rf, err := openRowFile(f, key); err != nil {
			t.Errorf("%s: the rebuilt file: %v", name, err)
		} else {
			rf.close()
		}
		f.Close()
	}
}

// TestRowFilesLeaveWhatIsNotTheirOwn: the row files kept are the ones used
// last; files datg did not name, and a build a killed process left (a
// .build- file, until it is a day old), stay; without a cache the file
// built in the temporary directory is gone once mapped.
func TestRowFilesLeaveWhatIsNotTheirOwn(t *testing.T) {
	ctx := context.Background()
	dir := writeIndexRun(t, 50, 8)
	cache := t.TempDir()
	root := filepath.Join(cache, "view", "rows")
	os.MkdirAll(root, 0o700)
	for i := range keepSearchIndexes + 2 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("%064x", i+1)), []byte("old"), 0o600)
	}
	for _, name := range []string{"notes", ".build-killed"} {
		os.WriteFile(filepath.Join(root, name), []byte("x"), 0o600)
	}
	r, err := openRunDB(ctx, dir, cache)
	if err != nil {
		t.Fatal(err)
	}
	r.close()
	des, _ := os.ReadDir(root)
	var keys []string
	for _, de := range des {
		if isKey(de.Name()) {
			keys = append(keys, de.Name())
		}
	}
	if len(keys) != keepSearchIndexes {
		t.Errorf("%d row files kept (%v), want %d", len(keys), keys, keepSearchIndexes)
	}
	for _, name := range []string{"notes", ".build-killed"} {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r, err = openRunDB(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.rows.N == 0 {
		t.Errorf("%d rows", r.rows.N)
	}
	// Unlinked while mapped (DuckDB's own spill directory may be there).
	if left, _ := filepath.Glob(filepath.Join(tmp, "datg-view-rows-*")); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
	r.close()
}

// TestNoWritableDirIsSaid: without a writable temporary directory the
// viewer does not open, and says why and what to set (TMPDIR); with
// neither a writable cache nor a writable temporary directory, the row
// file's build names both and what to set; with a cache it cannot write
// but a temporary directory, it opens (the row file built there).
func TestNoWritableDirIsSaid(t *testing.T) {
	ctx := context.Background()
	dir := writeIndexRun(t, 50, 4)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	badCache, badTemp := filepath.Join(file, "cache"), filepath.Join(file, "tmp") // under a file: never writable, even by root
	r, err := openRunDB(ctx, dir, badCache)
	if err != nil {
		t.Fatalf("a cache it cannot write: %v", err)
	}
	db := r.db
	defer r.close()
	t.Setenv("TMPDIR", badTemp)
	_, err = loadRowFile(ctx, db, dir, badCache)
	if !errors.Is(err, ErrNoWritableDir) || !strings.Contains(err.Error(), badCache) || !strings.Contains(err.Error(), badTemp) ||
		!strings.Contains(err.Error(), "--cache-dir") || !strings.Contains(err.Error(), "TMPDIR") {
		t.Errorf("the row file without a writable directory: %v", err)
	}
	_, err = newServer(ctx, dir, badCache, nil)
	if !errors.Is(err, ErrNoWritableDir) || !strings.Contains(err.Error(), badTemp) || !strings.Contains(err.Error(), "TMPDIR") {
		t.Errorf("the viewer without a writable temporary directory: %v", err)
	}
}
