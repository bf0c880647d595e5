package view

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

// groupFiles are the Parquet files of one generation the trace page reads
// by row group, each table's opened at its first read and kept until the
// generation closes: a page reads its trace's rows from the row groups
// whose key statistics and key filter (keyfilter.go) can hold it, never
// asking DuckDB, which visits the statistics of every row group of a table
// for each query (hundreds at 382,500 traces) and decompresses a text's
// whole row group.
//
// The files are the ones DuckDB's views read (store.Inspect over the same
// pinned generation), so the page reads the same rows either way. Nothing
// is recorded per trace: a row group's range of keys comes from its footer
// and its filter from its key column, so there is no location to go stale
// when a commit changes a table (a new generation opens its own files).
type groupFiles struct {
	dir     string // the pinned generation's directory (duck.DB.SnapshotDir)
	mu      sync.Mutex
	tables  map[string]*groupTable
	filters map[string]*tableFilters // by table and key column, whatever the columns read
	// groupsRead counts the row groups whose key column a read scanned.
	groupsRead atomic.Int64
}

// tableFilters are a table's row groups' key filters, built at the first
// read that asks for them (or by warmFilters).
type tableFilters struct {
	once    sync.Once
	filters *keyFilters
	err     error
}

// groupTable is one table's files, or why they cannot be read.
type groupTable struct {
	once  sync.Once
	files []*groupFile // none when the run has not written the table
	err   error
}

// groupFile is one Parquet file of a table: for each row group, the range
// of its key column and what reading it needs, never the file's decoded
// footer (parquet-go's metadata of every row group's column chunks, about
// 20 KB a group: 12.5 MB held for a 382,500-trace run's five tables, a
// slope in the traces).
type groupFile struct {
	path   string
	file   *os.File
	size   int64
	key    int         // the key column's index, -1 when the file has none
	ranges []keyBounds // by row group
	// footers are, by row group, the file's footer as if the file held
	// only that group (groupFooter): a few hundred bytes a group.
	footers [][]byte
}

// keyBounds is a row group's key statistics: the least and greatest key.
type keyBounds struct {
	min, max []byte
	ok       bool // the file recorded them
}

// holds reports whether the row group may hold key: a writer that records
// no statistics, or truncates them, leaves the group a candidate. A
// truncated least key is a prefix of the true one, so never greater; a
// greatest key truncated to a prefix is less than keys it begins.
func (k keyBounds) holds(key []byte) bool {
	if !k.ok {
		return true
	}
	return bytes.Compare(k.min, key) <= 0 && (bytes.Compare(key, k.max) <= 0 || bytes.HasPrefix(key, k.max))
}

func newGroupFiles(dir string) *groupFiles {
	return &groupFiles{dir: dir, tables: map[string]*groupTable{}, filters: map[string]*tableFilters{}}
}

// filtered is t's files, opened once for reads of columns by keyColumn
// (their footers, no page index: the text's offset index is read for the
// one row group a page reads), with their row groups' key filters
// (keyfilter.go).
func (g *groupFiles) filtered(t *schema.Table, keyColumn string, columns []string) ([]*groupFile, *keyFilters, error) {
	gt := g.opened(t, keyColumn, columns)
	if gt.err != nil {
		return nil, nil, gt.err
	}
	tf := entry(&g.mu, g.filters, t.Name+"\x00"+keyColumn)
	// Every projection of a table opens the same files, whose row groups
	// hold the same keys: the first one read builds the filters.
	tf.once.Do(func() { tf.filters, tf.err = buildKeyFilters(gt.files) })
	return gt.files, tf.filters, tf.err
}

// opened is t's files opened once for reads of columns by keyColumn.
func (g *groupFiles) opened(t *schema.Table, keyColumn string, columns []string) *groupTable {
	gt := entry(&g.mu, g.tables, t.Name+"\x00"+keyColumn+"\x00"+strings.Join(columns, "\x00"))
	gt.once.Do(func() { gt.files, gt.err = openGroupFiles(g.dir, t, keyColumn, columns) })
	return gt
}

// entry is m's entry for name, made (a zero V) if m has none, under mu.
func entry[V any](mu *sync.Mutex, m map[string]*V, name string) *V {
	mu.Lock()
	defer mu.Unlock()
	v := m[name]
	if v == nil {
		v = new(V)
		m[name] = v
	}
	return v
}

func openGroupFiles(dir string, t *schema.Table, keyColumn string, columns []string) ([]*groupFile, error) {
	found, err := store.Inspect(dir, t)
	if errors.Is(err, store.ErrNoTable) {
		return nil, nil // DuckDB's view of a table not written: no rows
	}
	if err != nil {
		return nil, err
	}
	var files []*groupFile
	for _, path := range found.Paths {
		gf, err := openGroupFile(path, keyColumn, columns)
		if err != nil {
			closeGroupFiles(files)
			return nil, err
		}
		files = append(files, gf)
	}
	return files, nil
}

// openGroupFile reads path's footer and keeps, for each row group, its key
// range and its one-group footer of keyColumn and columns (all of the
// file's columns when its schema is not flat); the decoded footer is
// dropped.
func openGroupFile(path, keyColumn string, columns []string) (*groupFile, error) {
	pf, f, err := store.OpenFile(path, true)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	gf := &groupFile{path: path, file: f, size: st.Size(), key: -1}
	md := pf.Metadata()
	key := -1 // the key's column in the file
	if leaf, ok := pf.Schema().Lookup(keyColumn); ok {
		key = leaf.ColumnIndex
	}
	keep := footerColumns(md, append([]string{keyColumn}, columns...))
	if key >= 0 {
		gf.key = key
		if keep != nil {
			gf.key = slices.Index(keep, key)
		}
	}
	for _, rg := range md.RowGroups {
		var b keyBounds
		if key >= 0 && key < len(rg.Columns) {
			s := rg.Columns[key].MetaData.Statistics
			if s.MinValue != nil && s.MaxValue != nil {
				// Copies: the decoded footer they point into is dropped.
				b = keyBounds{min: bytes.Clone(s.MinValue), max: bytes.Clone(s.MaxValue), ok: true}
			}
		}
		gf.ranges = append(gf.ranges, b)
		footer, err := groupFooter(md, rg, keep)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		gf.footers = append(gf.footers, footer)
	}
	return gf, nil
}

func closeGroupFiles(files []*groupFile) error {
	var errs []error
	for _, f := range files {
		errs = append(errs, f.file.Close())
	}
	return errors.Join(errs...)
}

// close closes every file opened.
func (g *groupFiles) close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var errs []error
	for _, gt := range g.tables {
		gt.once.Do(func() {}) // one being opened now finishes first
		errs = append(errs, closeGroupFiles(gt.files))
	}
	g.tables = map[string]*groupTable{}
	g.filters = map[string]*tableFilters{}
	return errors.Join(errs...)
}

// groupRowsOf reads the rows of t whose key column is key into P (a projection
// of t's columns by parquet tag, pointers where the column may be NULL in
// a file), in file order: each row group whose statistics and key filter
// may hold the key has its key column read to find the rows, then only
// those rows of P's columns, from the page that holds the first (the
// offset index, where the file has one). A file that cannot be read is an
// error naming it, as is a row check refuses (a NULL where DuckDB's scan
// into a Go value refuses one).
//
// The statistics alone say little of tables written in the order their
// stage made them (at 382,500 traces every one of alignment_events' 200
// groups spanned t000... to tfff..., so a page read 4 million ids of it:
// 220 of a trace page's 400 ms), nor of a writer that writes a level's
// problems by number (keyfilter.go).
func groupRowsOf[P any](g *groupFiles, t *schema.Table, keyColumn, key string, check func(*P) error) ([]P, error) {
	return groupRowsOfAny(g, t, keyColumn, []string{key}, check)
}

// groupRowsOfAny is groupRowsOf for the rows whose key is any of keys (a
// problem's DAGs' nodes), each row group read once for all of them.
func groupRowsOfAny[P any](g *groupFiles, t *schema.Table, keyColumn string, keys []string, check func(*P) error) ([]P, error) {
	rows, _, err := groupRowsKeyed(g, t, keyColumn, keys, check)
	return rows, err
}

// groupRowsByKey is groupRowsOfAny with the rows by their key, each key's
// in file order (an export's batch of traces).
func groupRowsByKey[P any](g *groupFiles, t *schema.Table, keyColumn string, keys []string, check func(*P) error) (map[string][]P, error) {
	rows, rowKeys, err := groupRowsKeyed(g, t, keyColumn, keys, check)
	if err != nil {
		return nil, err
	}
	byKey := make(map[string][]P, len(keys))
	for i, k := range rowKeys {
		byKey[k] = append(byKey[k], rows[i])
	}
	return byKey, nil
}

// groupRowsKeyed reads the rows whose key is any of keys, in file order,
// and each one's key.
func groupRowsKeyed[P any](g *groupFiles, t *schema.Table, keyColumn string, keys []string, check func(*P) error) ([]P, []string, error) {
	if len(keys) == 0 {
		return nil, nil, nil
	}
	files, filters, err := g.filtered(t, keyColumn, projectionColumns[P]())
	if err != nil {
		return nil, nil, err
	}
	want := newKeySet(keys)
	var out []P
	var outKeys []string
	for fi, f := range files {
		if f.key < 0 {
			// checkColumns (store.Inspect) refuses a file without its key:
			// it never reaches here.
			return nil, nil, fmt.Errorf("%s: no column %s: %w", f.path, keyColumn, store.ErrSchemaMismatch)
		}
		for i, b := range f.ranges {
			if !want.mayBeIn(b) || !filters.mayHoldAny(fi, i, want) {
				continue
			}
			g.groupsRead.Add(1)
			got, gotKeys, err := readGroup[P](f, i, want)
			if err != nil {
				return nil, nil, fmt.Errorf("reading %s (row group %d): %w: %w", f.path, i, ErrUnreadableFile, err)
			}
			for j := range got {
				if err := check(&got[j]); err != nil {
					return nil, nil, fmt.Errorf("reading %s (row group %d): %w", f.path, i, err)
				}
			}
			out, outKeys = append(out, got...), append(outKeys, gotKeys...)
		}
	}
	return out, outKeys, nil
}

// groupKeys are the keys a group read looks for: one (a trace, a problem)
// compared directly, more (a problem's DAGs) by a set.
type groupKeys struct {
	keys [][]byte
	set  map[string]bool // more than one key
}

func newKeySet(keys []string) groupKeys {
	k := groupKeys{}
	for _, key := range keys {
		k.keys = append(k.keys, []byte(key))
	}
	if len(keys) > 1 {
		k.set = make(map[string]bool, len(keys))
		for _, key := range keys {
			k.set[key] = true
		}
	}
	return k
}

// mayBeIn reports whether a row group of bounds b may hold one of the keys.
func (k groupKeys) mayBeIn(b keyBounds) bool {
	return slices.ContainsFunc(k.keys, b.holds)
}

// has reports whether key is one of the keys.
func (k groupKeys) has(key []byte) bool {
	if k.set == nil {
		return bytes.Equal(key, k.keys[0])
	}
	return k.set[string(key)] // no copy: the compiler looks the bytes up
}

// readGroup reads the rows of row group i whose key is one of keys. A
// damaged page parquet-go's decoders panic on is an error, as the ones
// they report are.
func readGroup[P any](f *groupFile, i int, keys groupKeys) (got []P, gotKeys []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			got, gotKeys, err = nil, nil, fmt.Errorf("%v", p)
		}
	}()
	rg, err := f.rowGroup(i)
	if err != nil {
		return nil, nil, err
	}
	rows, gotKeys, err := rowsWithKey(rg.ColumnChunks()[f.key], keys)
	if err != nil || len(rows) == 0 {
		return nil, nil, err
	}
	got, err = readRowsAt[P](rg, rows)
	return got, gotKeys, err
}

// rowsWithKey are the indexes, within chunk's row group, of the rows whose key is
// one of keys (a NULL key is no key's), in order, and their keys.
func rowsWithKey(chunk parquet.ColumnChunk, keys groupKeys) ([]int64, []string, error) {
	var rows []int64
	var rowKeys []string
	var row int64
	err := eachValue(chunk, make([]parquet.Value, 256), func(v parquet.Value) error {
		if !v.IsNull() && keys.has(v.ByteArray()) {
			rows = append(rows, row)
			rowKeys = append(rowKeys, string(v.ByteArray()))
		}
		row++
		return nil
	})
	return rows, rowKeys, err
}

// readRowsAt reads rows (ascending indexes in rg) into P, in runs: rows
// at most seekGap apart are read as one run, from its first to its last,
// keeping those asked for; each run starts with a seek. The columns'
// offset indexes are read first, so a seek lands on the page holding the
// run's first row rather than decoding the column from its start (a long
// text's row group is tens of MB of text). A page's trace reads one run;
// an export's batch, a few rows of each group far apart, a run each.
func readRowsAt[P any](rg parquet.RowGroup, rows []int64) ([]P, error) {
	for _, c := range rg.ColumnChunks() {
		if fc, ok := c.(*parquet.FileColumnChunk); ok {
			// A file without an offset index is read from the chunk's start.
			if _, err := fc.OffsetIndex(); err != nil && !errors.Is(err, parquet.ErrMissingOffsetIndex) {
				return nil, err
			}
		}
	}
	r := parquet.NewGenericRowGroupReader[P](rg)
	defer r.Close()
	out := make([]P, 0, len(rows))
	var buf []P
	for len(rows) > 0 {
		n := 1
		for n < len(rows) && rows[n]-rows[n-1] <= seekGap {
			n++
		}
		var err error
		if out, buf, err = readRun(r, rg, rows[:n], out, buf); err != nil {
			return nil, err
		}
		rows = rows[n:]
	}
	return out, nil
}

// seekGap is the most rows between two rows asked for that readRowsAt
// reads through rather than seeking: about a page of long texts.
const seekGap = 64

// readRun appends to out the rows (ascending, one run) of r's row group,
// read from the first to the last through buf.
func readRun[P any](r *parquet.GenericReader[P], rg parquet.RowGroup, rows []int64, out, buf []P) ([]P, []P, error) {
	first, last := rows[0], rows[len(rows)-1]
	if err := r.SeekToRow(first); err != nil {
		return nil, nil, err
	}
	if want := int(min(last-first+1, 256)); len(buf) < want {
		buf = make([]P, want)
	}
	at, next := first, 0
	for at <= last {
		// parquet-go decodes into the pointers a row already holds: a row
		// kept from an earlier read would be overwritten by this one.
		clear(buf)
		n, err := r.Read(buf[:min(int64(len(buf)), last-at+1)])
		for j := 0; j < n; j++ {
			if next < len(rows) && rows[next] == at+int64(j) {
				out = append(out, buf[j])
				next++
			}
		}
		at += int64(n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if next != len(rows) {
		return nil, nil, fmt.Errorf("row %d of %d rows: %w", rows[next], rg.NumRows(), io.ErrUnexpectedEOF)
	}
	return out, buf, nil
}

// errNullValue is the error a NULL gives where DuckDB's scan into a Go
// value refuses it: the file allowed a NULL its table does not (store's
// check found no NULL count in its statistics).
func errNullValue(column string) error {
	return fmt.Errorf("column %s holds a NULL where a value is required: %w", column, store.ErrSchemaMismatch)
}

// required is errNullValue for the first of columns (name, value) that is
// NULL.
func required(columns ...any) error {
	for i := 0; i+1 < len(columns); i += 2 {
		if v := columns[i+1]; isNil(v) {
			return errNullValue(columns[i].(string))
		}
	}
	return nil
}

// strOf is a column read as a pointer, "" for NULL (sql.NullString's).
func strOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// isNil is a NULL column read as a pointer of any type.
func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	return !rv.IsValid() || rv.Kind() == reflect.Pointer && rv.IsNil()
}
