package view

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// searchRun is a run of texts made to trap the search: every hostile text
// (fold_test.go), each in upper and lower case, one with a NUL, empty
// ones, long ones of mixed scripts, and enough of them to fill two
// signature segments (sigSegment traces each).
func searchRun(t testing.TB, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	words := append(slices.Clone(hostileTexts), "apples", "Σίσυφος", "KELVIN", "straße", "数学", "উত্তর", "recompute the sum",
		"$\\frac{3}{4}$", "ıi İI", "e\u0301")
	var texts []string
	for _, s := range hostileTexts {
		texts = append(texts, s, strings.ToUpper(s), strings.ToLower(s))
	}
	texts = append(texts, "before\x00after NUL", "")
	// Long texts, a word straddling each place a window of the check ends
	// (counted from the text's start) or begins (counted from its end),
	// the text long enough that the other end's windows reach the word
	// later, and one a query longer than the first chunks is cut from.
	for _, at := range chunkEnds() {
		far := strings.Repeat(" ba", (2*at+4*firstChunk)/3)
		for _, k := range straddles {
			texts = append(texts, strings.Repeat("ab ", (at-k)/3)+strings.Repeat("b", (at-k)%3)+"Straddle"+far)
			// The windows from the end have covered the starts from
			// len-8+1-at on; this word starts k before.
			texts = append(texts, far+"Straddle"+strings.Repeat("b", at-1+k))
		}
	}
	var long strings.Builder
	for long.Len() < 8*firstChunk {
		long.WriteString(words[rng.IntN(len(words))])
		long.WriteByte(' ')
	}
	texts = append(texts, long.String())
	for len(texts) < n {
		var sb strings.Builder
		for range rng.IntN(200) {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(" \n"[rng.IntN(2)])
		}
		texts = append(texts, sb.String())
	}
	var traces []schema.Trace
	for i, text := range texts {
		traces = append(traces, schema.Trace{TraceID: fmt.Sprintf("t%05d", i), Model: "m", Direction: "en-en", InputLang: "en",
			ReasoningLang: "en", Level: "low", ProblemID: "low-1", Method: "base", Text: text})
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	return dir, texts
}

// openIndexed opens the run's current generation with its search index in
// cache, and waits for the index.
func openIndexed(t testing.TB, dir, cache string) *runDB {
	t.Helper()
	s, err := newServer(context.Background(), dir, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r := s.cur
	<-r.indexDone
	if r.textIndex.Load() == nil {
		t.Fatalf("no search index: %v", r.indexing.Load())
	}
	return r
}

// long is the text of searchRun longer than three chunks.
func long(texts []string) string {
	return texts[slices.IndexFunc(texts, func(s string) bool { return len(s) > 8*firstChunk && !strings.Contains(s, "Straddle") })]
}

// searchQueries are the hostile queries, pieces of the run's texts in
// random case (often across words and lines), and strings no text holds.
func searchQueries(texts []string) []string {
	rng := rand.New(rand.NewPCG(5, 6))
	qs := slices.Clone(hostileQueries)
	long := long(texts)
	qs = append(qs, strings.ToUpper(runeCut(long, 100, 100+firstChunk+500)), runeCut(long, len(long)-firstChunk-10, len(long))+"!",
		runeCut(long, len(long)-firstChunk-10, len(long)), "STRADDLE", "ab Straddle ba",
		"b", "bA", "\x00a")
	qs = append(qs, "recompute THE sum", "ΣΊΣΥΦΟΣ", "APPLES\nKELVIN", "zzz-nowhere", "ſtrasse", "K", "\x00", "after", "\xff",
		"a\xffb", "before\x00")
	for range 120 {
		text := texts[rng.IntN(len(texts))]
		if len(text) < 2 {
			continue
		}
		i := rng.IntN(len(text) - 1)
		j := min(len(text), i+1+rng.IntN(12))
		q := []rune(strings.ToValidUTF8(text[i:j], ""))
		for k := range q {
			if rng.IntN(2) == 0 {
				q[k] = []rune(strings.ToUpper(string(q[k])))[0]
			}
		}
		if len(q) > 0 {
			qs = append(qs, string(q))
		}
	}
	return qs
}

// chunkEnds are where the check's windows from a text's start end, and
// where those from its end start (counted from the end), up to 2 of the
// longest (scanWindows); straddles are how far before one a word of 8
// bytes starts.
func chunkEnds() []int {
	var out []int
	for at, c := firstChunk, firstChunk; at < 2*verifyChunk; at, c = at+min(2*c, verifyChunk), min(2*c, verifyChunk) {
		out = append(out, at)
	}
	return out
}

var straddles = []int{0, 3, 7}

// runeCut is s[i:j] with i and j moved back to the start of a rune.
func runeCut(s string, i, j int) string {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	for j < len(s) && !utf8.RuneStart(s[j]) {
		j--
	}
	return s[i:j]
}

// TestSearchIndexIsTheScan: over a run of hostile texts, the index and the
// scan (scanSearch, before the index is open) find exactly the traces
// DuckDB's RE2 (?i) finds (regexpScan), for every query:
// case variants, folds outside ASCII, 1-2 byte queries, metacharacters,
// and the queries the index leaves to the scan (a NUL, not UTF-8).
func TestSearchIndexIsTheScan(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	dir, texts := searchRun(t, sigSegment+300)
	r := openIndexed(t, dir, t.TempDir())
	x := r.textIndex.Load()
	if !x.mapBatches && textsMapped {
		t.Fatal("the texts are not mapped")
	}
	// The same index with its texts read, as where files are not mapped.
	read := &searchIndex{n: x.n, pos: x.pos, texts: x.texts, sig: x.sig, segEnd: x.segEnd}
	ctx := context.Background()
	matched := 0
	for _, q := range searchQueries(texts) {
		want, scanErr := regexpScan(ctx, r, q)
		got, err := r.searchRows(ctx, q)
		if scanErr != nil || err != nil {
			// The scan refuses some queries (DuckDB binds no parameter that
			// is not UTF-8): the search refuses them too.
			if (scanErr == nil) != (err == nil) {
				t.Errorf("%q: the search's error %v, the scan's %v", q, err, scanErr)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: the search finds %d traces, the scan %d", q, got.count(), want.count())
		}
		if scan, err := r.scanSearch(ctx, q); err != nil || !slices.Equal(scan, want) {
			t.Errorf("%q: the scan (before the index is open) finds %d traces, RE2 %d (%v)", q, scan.count(), want.count(), err)
		}
		if indexable(q) {
			if direct, err := r.textIndex.Load().searchRows(q, r.rows.N); err != nil || !slices.Equal(direct, want) {
				t.Errorf("%q: the index finds %d traces, the scan %d (%v)", q, direct.count(), want.count(), err)
			}
			if read, err := read.searchRows(q, r.rows.N); err != nil || !slices.Equal(read, want) {
				t.Errorf("%q: the index, its texts read (not mapped), finds %d traces, the scan %d (%v)", q, read.count(), want.count(), err)
			}
		}
		if n := want.count(); n > 0 && n < len(texts) {
			matched++
		}
	}
	for q, n := range map[string]int{"STRADDLE": 2 * len(chunkEnds()) * len(straddles), strings.Map(unicode.SimpleFold, runeCut(long(texts), 100, 100+firstChunk+500)): 1} {
		if ids, err := r.searchRows(ctx, q); err != nil || ids.count() != n {
			t.Errorf("%.20q: %d traces, want %d (%v)", q, ids.count(), n, err)
		}
	}
	if matched < 100 {
		t.Errorf("only %d queries match some traces but not all: the test proves little", matched)
	}
}

// TestSearchIndexIsKeptOutsideTheRun: the index is built in the cache
// directory, under the generation's key, and nothing is added to the run;
// a second viewer of the same generation reads it without building.
func TestSearchIndexIsKeptOutsideTheRun(t *testing.T) {
	dir, _ := searchRun(t, 50)
	before := filesUnder(t, dir)
	cache := t.TempDir()
	r := openIndexed(t, dir, cache)
	key, err := searchKey(r.db.SnapshotDir())
	if err != nil || key == "" {
		t.Fatalf("key %q: %v", key, err)
	}
	entry := filepath.Join(cache, "view", key)
	for _, f := range []string{"meta", "texts", "sig", "pos"} {
		if _, err := os.Stat(filepath.Join(entry, f)); err != nil {
			t.Errorf("the entry has no %s: %v", f, err)
		}
	}
	if after := filesUnder(t, dir); !slices.Equal(before, after) {
		t.Errorf("the run's files changed: %v -> %v", before, after)
	}
	des, _ := os.ReadDir(filepath.Join(cache, "view"))
	if len(des) != 2 || des[0].Name() != key || des[1].Name() != "rows" {
		t.Errorf("the cache holds %v, want the search index and the row files", des)
	}
	// The row file beside it: one, named by its key.
	rowFiles, _ := os.ReadDir(filepath.Join(cache, "view", "rows"))
	if len(rowFiles) != 1 || !isKey(rowFiles[0].Name()) {
		t.Fatalf("the row files: %v, want one", rowFiles)
	}
	rowPath := filepath.Join(cache, "view", "rows", rowFiles[0].Name())
	stamp := modTime(t, filepath.Join(entry, "meta"))
	rowFile, err := os.Stat(rowPath)
	if err != nil {
		t.Fatal(err)
	}
	openIndexed(t, dir, cache)
	if modTime(t, filepath.Join(entry, "meta")) != stamp {
		t.Errorf("the second viewer built the index again")
	}
	if fi, err := os.Stat(rowPath); err != nil || !os.SameFile(fi, rowFile) {
		t.Errorf("the second viewer built the row file again (%v)", err)
	}
	if rowFiles, _ := os.ReadDir(filepath.Join(cache, "view", "rows")); len(rowFiles) != 1 {
		t.Errorf("the row files after a second viewer: %v, want the one", rowFiles)
	}
}

func filesUnder(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func modTime(t testing.TB, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime().UnixNano()
}

// TestDamagedSearchIndexIsRebuilt: an entry with a changed byte, a cut
// file, a missing file or a foreign meta is rebuilt, never trusted, and
// the rebuilt index answers as the scan.
func TestDamagedSearchIndexIsRebuilt(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	dir, _ := searchRun(t, 50)
	cache := t.TempDir()
	r := openIndexed(t, dir, cache)
	key, _ := searchKey(r.db.SnapshotDir())
	entry := filepath.Join(cache, "view", key)
	ctx := context.Background()
	want, err := r.scanSearch(ctx, "apples")
	if err != nil || want.count() == 0 {
		t.Fatalf("scan: %d traces, %v", want.count(), err)
	}
	damages := map[string]func(){
		"a byte of texts": func() { flipByte(t, filepath.Join(entry, "texts")) },
		"a byte of sig":   func() { flipByte(t, filepath.Join(entry, "sig")) },
		"a byte of meta":  func() { flipByte(t, filepath.Join(entry, "meta")) },
		"a byte of pos":   func() { flipByte(t, filepath.Join(entry, "pos")) },
		"texts cut":       func() { os.Truncate(filepath.Join(entry, "texts"), 10) },
		"no sig":          func() { os.Remove(filepath.Join(entry, "sig")) },
		"empty meta":      func() { os.WriteFile(filepath.Join(entry, "meta"), nil, 0o600) },
	}
	for _, name := range slices.Sorted(maps.Keys(damages)) {
		damages[name]()
		// Opened as it is, the entry is refused.
		if x, err := openSearchIndex(ctx, entry, key, r.rows); err == nil {
			x.close()
			t.Fatalf("%s: the damaged entry was opened", name)
		}
		r := openIndexed(t, dir, cache)
		got, err := r.textIndex.Load().searchRows("APPLES", r.rows.N)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: the rebuilt index finds %d traces, the scan %d (%v)", name, got.count(), want.count(), err)
		}
	}
	// A key the entry was not built for is refused.
	if _, err := openSearchIndex(ctx, entry, strings.Repeat("0", 64), r.rows); !errors.Is(err, errBadIndex) {
		t.Errorf("another key: %v, want errBadIndex", err)
	}
}

func flipByte(t testing.TB, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil || len(b) == 0 {
		t.Fatalf("%s: %d bytes, %v", p, len(b), err)
	}
	b[len(b)/2] ^= 0x20
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSearchIndexLeavesWhatIsNotItsOwn: pruning removes only entries this
// code made beyond the ones used last, and a build a killed process left
// (a .build- directory) is neither read nor removed until it is old.
func TestSearchIndexLeavesWhatIsNotItsOwn(t *testing.T) {
	dir, _ := searchRun(t, 20)
	cache := t.TempDir()
	root := filepath.Join(cache, "view")
	var old []string
	for i := range keepSearchIndexes + 2 {
		name := fmt.Sprintf("%064x", i+1)
		old = append(old, name)
		os.MkdirAll(filepath.Join(root, name), 0o700)
	}
	for _, name := range []string{"notes", ".build-killed"} {
		os.MkdirAll(filepath.Join(root, name), 0o700)
		os.WriteFile(filepath.Join(root, name, "keep"), []byte("x"), 0o600)
	}
	openIndexed(t, dir, cache)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, de := range des {
		if isKey(de.Name()) {
			keys = append(keys, de.Name())
		}
	}
	if len(keys) != keepSearchIndexes {
		t.Errorf("%d entries kept (%v), want %d", len(keys), keys, keepSearchIndexes)
	}
	for _, name := range []string{"notes", ".build-killed"} {
		if _, err := os.Stat(filepath.Join(root, name, "keep")); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}

// TestCacheInsideTheRunIsRefused: the viewer never keeps its cache in the
// run: Validate refuses such a directory, and a server given one searches
// by the scan and writes nothing there.
func TestCacheInsideTheRunIsRefused(t *testing.T) {
	dir, _ := searchRun(t, 20)
	inside := filepath.Join(dir, "cache")
	cfg := DefaultConfig()
	cfg.Data, cfg.CacheDir = dir, inside
	if err := cfg.Validate(); !errors.Is(err, ErrCacheInRun) {
		t.Errorf("Validate: %v, want ErrCacheInRun", err)
	}
	for _, c := range []string{dir, inside} {
		before := filesUnder(t, dir)
		s, err := newServer(context.Background(), dir, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		<-s.cur.indexDone
		if s.cur.textIndex.Load() != nil {
			t.Errorf("%s: an index was built", c)
		}
		ids, err := s.cur.searchRows(context.Background(), "apples")
		if err != nil || ids.count() == 0 {
			t.Errorf("%s: the scan found %d, %v", c, ids.count(), err)
		}
		s.Close()
		if after := filesUnder(t, dir); !slices.Equal(before, after) {
			t.Errorf("%s: the run's files changed: %v -> %v", c, before, after)
		}
	}
}

// TestIndexPageSaysTheIndexIsBuilding: while the index is built, a search
// page says its search read every text; after, it does not.
func TestIndexPageSaysTheIndexIsBuilding(t *testing.T) {
	dir, _ := searchRun(t, 20)
	s, err := newServer(context.Background(), dir, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer func() { ts.Close(); s.Close() }()
	<-s.cur.indexDone
	if _, body, _ := get(t, ts, "/?q=apples"); strings.Contains(body, "being built") || !strings.Contains(body, "holding") {
		t.Errorf("the page says building once the index is ready")
	}
	s.cur.indexing.Store("building")
	if _, body, _ := get(t, ts, "/?q=apples"); !strings.Contains(body, "being built") {
		t.Errorf("the page does not say the index is being built")
	}
	if _, body, _ := get(t, ts, "/"); strings.Contains(body, "being built") {
		t.Errorf("a page without a search says the index is being built")
	}
}
