package view

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/datg/datg/internal/duck"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/pipelines/tables"
	datgsql "github.com/datg/datg/sql"
)

// A generation's paper tables, as their queries answered (not their
// links, made when the page is read), are kept in datg's cache beside the
// row files: CACHE/view/tables/<key>, the key being the generation's
// manifest (every file's SHA-256), the SQL that computes them and the datg
// build that ran it. A header (format, key, length, CRC-32C) and the
// results, gob-encoded; an entry that does not check is removed and the
// tables computed again. Without a usable cache (none, one inside the run,
// a generation without a manifest) they are computed at each start.

// tablesFormat is the entry's format (2: a table says why it is empty;
// 3: a table whose inputs are missing says what makes them, and has no
// rows).
const tablesFormat = 3

// tablesCache is where a generation's tables are kept ("" path: nowhere).
type tablesCache struct {
	path, key string
}

// tablesCacheOf is the cache entry of db's generation's tables.
func tablesCacheOf(ctx context.Context, db *duck.DB, runDir, cache string) tablesCache {
	if cache == "" || cacheInRun(cache, runDir) {
		return tablesCache{}
	}
	key, err := tablesKey(ctx, db)
	if err != nil || key == "" {
		return tablesCache{}
	}
	return tablesCache{path: filepath.Join(cache, "view", "tables", key), key: key}
}

// tablesKey is the identity of what a generation's tables are computed
// from: every file of its manifest, the tables' SQL and the macros and
// views it reads, the reference tables and the direction probe's seed
// (datg_probe: datg view --probe-seed, set when the generation opened),
// and the datg executable (its size and modification time: a rebuilt
// datg may check the tables' inputs differently); "" for a generation
// without a manifest.
func tablesKey(ctx context.Context, db *duck.DB) (string, error) {
	m, err := store.ReadManifest(db.SnapshotDir())
	if m == nil || err != nil {
		return "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "datg view tables %d\n%s %d %d\n", tablesFormat, exe, st.Size(), st.ModTime().UnixNano())
	for _, l := range tables.Listings() {
		f, _ := datgsql.Table(l.Name)
		fmt.Fprintf(h, "table %s %s\n%s\n", l.Name, l.Scope, f.Text)
	}
	for _, f := range append(datgsql.Macros(), datgsql.Staging()...) {
		fmt.Fprintf(h, "sql %s\n%s\n", f.Name, f.Text)
	}
	var ref string
	err = db.QueryRowContext(ctx, `SELECT concat_ws(' | ',
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_levels x),
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_directions x),
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_languages x),
		(SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY CAST(x AS VARCHAR)) FROM datg_probe x))`).Scan(&ref)
	if err != nil {
		return "", fmt.Errorf("the paper tables' cache key: %w", err)
	}
	fmt.Fprintf(h, "%s\n", ref)
	for _, f := range m.Files {
		fmt.Fprintf(h, "%s %s %d %s\n", f.Table, f.Path, f.Size, f.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// tablesHeader starts an entry: format, key, the payload's length and
// CRC-32C.
const tablesHeader = "datg view tables %d %s %d %08x\n"

// read is the kept tables; an error when there are none, or the entry
// does not check (it is then removed: it is datg's).
func (c tablesCache) read() ([]tableResult, error) {
	if c.path == "" {
		return nil, errTablesNotKept
	}
	b, err := os.ReadFile(c.path)
	if err != nil {
		return nil, err
	}
	results, err := c.decode(b)
	if err != nil {
		os.Remove(c.path)
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	touch(c.path)
	return results, nil
}

func (c tablesCache) decode(b []byte) ([]tableResult, error) {
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("%w: no header", errBadTables)
	}
	var format, n int
	var key string
	var sum uint32
	if _, err := fmt.Sscanf(string(b[:nl+1]), tablesHeader, &format, &key, &n, &sum); err != nil {
		return nil, fmt.Errorf("%w: header %q: %v", errBadTables, b[:nl], err)
	}
	payload := b[nl+1:]
	switch {
	case format != tablesFormat || key != c.key:
		return nil, fmt.Errorf("%w: format %d, key %s", errBadTables, format, key)
	case n != len(payload):
		return nil, fmt.Errorf("%w: %d bytes of %d", errBadTables, len(payload), n)
	case crc32.Checksum(payload, castagnoli) != sum:
		return nil, fmt.Errorf("%w: checksum", errBadTables)
	}
	var results []tableResult
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&results); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadTables, err)
	}
	listings := tables.Listings()
	if len(results) != len(listings) {
		return nil, fmt.Errorf("%w: %d tables, want %d", errBadTables, len(results), len(listings))
	}
	for i, l := range listings {
		if results[i].Name != l.Name {
			return nil, fmt.Errorf("%w: table %d is %s, want %s", errBadTables, i, results[i].Name, l.Name)
		}
	}
	return results, nil
}

// write keeps the tables: written to a temporary file and renamed, so a
// reader never sees half an entry; the entries used last are kept, older
// ones removed.
func (c tablesCache) write(results []tableResult) error {
	if c.path == "" {
		return nil
	}
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(results); err != nil {
		return err
	}
	root := filepath.Dir(c.path)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(root, ".build-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone already when renamed
	_, err = fmt.Fprintf(tmp, tablesHeader, tablesFormat, c.key, payload.Len(), crc32.Checksum(payload.Bytes(), castagnoli))
	if err == nil {
		_, err = tmp.Write(payload.Bytes())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path)
	}
	if err != nil {
		return err
	}
	syncDir(root)
	pruneCache(root, c.key, false, ".build-")
	return nil
}
