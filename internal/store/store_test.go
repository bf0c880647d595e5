package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

func problems(ids ...string) []schema.Problem {
	var rows []schema.Problem
	for _, id := range ids {
		rows = append(rows, schema.Problem{ProblemID: id, Level: "low", Lang: "en", Question: "q " + id, Answer: "1"})
	}
	return rows
}

func ids(t *testing.T, dir string) []string {
	t.Helper()
	rows, err := ReadAll(dir, schema.Problems)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.ProblemID+"="+r.Question)
	}
	return out
}

func TestWriteReadMetadata(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadAll(dir, schema.Problems); !errors.Is(err, ErrNoTable) {
		t.Fatalf("unwritten table: got %v, want ErrNoTable", err)
	}
	meta := Meta{Stage: "ingest", ConfigHash: HashConfig(map[string]int{"a": 1})}
	if err := WriteAll(dir, schema.Problems, meta, problems("low-0", "low-1")); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids(t, dir), ","); got != "low-0=q low-0,low-1=q low-1" {
		t.Fatalf("rows = %s", got)
	}
	md, err := FileMeta(FilePath(dir, schema.Problems.Table))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{MetaStage: "ingest", MetaConfigHash: meta.ConfigHash, MetaTable: "problems", MetaVersion: Version} {
		if md[k] != want {
			t.Errorf("metadata %s = %q, want %q", k, md[k], want)
		}
	}
	if md[MetaCreated] == "" {
		t.Error("no creation time in metadata")
	}
}

func TestAbortKeepsPreviousVersion(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0")); err != nil {
		t.Fatal(err)
	}
	w, err := Create(dir, schema.Problems, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(problems("low-5", "low-6")...); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if got := strings.Join(ids(t, dir), ","); got != "low-0=q low-0" {
		t.Fatalf("after abort rows = %s", got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestDuplicateKeyRefused(t *testing.T) {
	dir := t.TempDir()
	err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0", "low-0"))
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("got %v, want ErrDuplicateKey", err)
	}
	if Exists(dir, schema.Problems.Table) {
		t.Fatal("a failed write left a table")
	}
}

func TestMergeReplacesByKey(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0", "low-1")); err != nil {
		t.Fatal(err)
	}
	m, err := NewMerger(dir, schema.Problems, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	p := problems("low-1", "low-2")
	p[0].Question = "new"
	if err := m.Write(p...); err != nil {
		t.Fatal(err)
	}
	if err := m.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids(t, dir), ","); got != "low-1=new,low-2=q low-2,low-0=q low-0" {
		t.Fatalf("rows = %s", got)
	}
	if m.Replaced != 1 || m.Kept != 1 {
		t.Fatalf("replaced %d kept %d, want 1 1", m.Replaced, m.Kept)
	}
}

func TestFolderForm(t *testing.T) {
	dir := t.TempDir()
	folder := FolderPath(dir, schema.Problems.Table)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"low-0", "low-1"} {
		f, err := os.Create(filepath.Join(folder, "part-"+string(rune('a'+i))+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := parquet.Write(f, problems(id)); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if got := strings.Join(ids(t, dir), ","); got != "low-0=q low-0,low-1=q low-1" {
		t.Fatalf("folder rows = %s", got)
	}
	m, err := NewMerger(dir, schema.Problems, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(problems("low-2")...); err != nil {
		t.Fatal(err)
	}
	if err := m.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(folder); err == nil && fi.IsDir() {
		t.Fatal("folder form not superseded")
	}
	if got := len(ids(t, dir)); got != 3 {
		t.Fatalf("rows after merge = %d, want 3", got)
	}
}

// In a directory of tables written by hand (no generations), a table both
// as a file and as a folder is ambiguous.
func TestAmbiguousTable(t *testing.T) {
	dir := t.TempDir()
	writeParquet(t, FilePath(dir, schema.Problems.Table), problems("low-0"))
	os.MkdirAll(FolderPath(dir, schema.Problems.Table), 0o755)
	// A folder that holds no Parquet is no table (a user's notes).
	if _, err := ReadAll(dir, schema.Problems); err != nil {
		t.Fatalf("a file beside a folder without parts: %v", err)
	}
	writeParquet(t, filepath.Join(FolderPath(dir, schema.Problems.Table), "part-0.parquet"), problems("low-1"))
	if _, err := ReadAll(dir, schema.Problems); !errors.Is(err, ErrAmbiguousTable) {
		t.Fatalf("got %v, want ErrAmbiguousTable", err)
	}
}

func writeParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(f, rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A hidden file named like a temporary file of an old writer is not
// provably datg's: a commit leaves it alone.
func TestHiddenFilesLeftAlone(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".problems.parquet.tmp-999999999-123")
	os.WriteFile(stale, []byte("junk"), 0o644)
	if err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(stale); err != nil || string(b) != "junk" {
		t.Fatalf("hidden file: %q, %v", b, err)
	}
}

func TestScanProjection(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0", "low-1")); err != nil {
		t.Fatal(err)
	}
	type idOnly struct {
		ProblemID string `parquet:"problem_id"`
	}
	var got []string
	err := ScanProjection(dir, schema.Problems.Table, func(r *idOnly) error {
		got = append(got, r.ProblemID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"low-0", "low-1"}, got); diff != "" {
		t.Fatalf("problem ids (-want +got):\n%s", diff)
	}
}

func TestOneWriterPerTable(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, schema.Problems, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, schema.Problems, Meta{}); !errors.Is(err, ErrTableBusy) {
		t.Fatalf("second writer: %v, want ErrTableBusy", err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(FilePath(dir, schema.Problems.Table))
	if err != nil {
		t.Fatal(err)
	}
	// Read-only: a generation never changes, and its files are shared
	// with older generations by hard links.
	if got := fi.Mode().Perm(); got != 0o444 {
		t.Fatalf("table mode %v, want 0444", got)
	}
	if err := WriteAll(dir, schema.Problems, Meta{}, problems("low-0")); err != nil {
		t.Fatalf("writer after commit: %v", err)
	}
}

func TestMergeReplacesGroups(t *testing.T) {
	dir := t.TempDir()
	nodes := []schema.Node{{DagID: "d1", NodeID: "n1"}, {DagID: "d1", NodeID: "n2"}, {DagID: "d1", NodeID: "n3"}, {DagID: "d2", NodeID: "n1"}}
	if err := WriteAll(dir, schema.Nodes, Meta{}, nodes); err != nil {
		t.Fatal(err)
	}
	m, _ := NewMerger(dir, schema.Nodes, Meta{})
	m.Group = func(n *schema.Node) string { return n.DagID }
	m.Write(schema.Node{DagID: "d1", NodeID: "n1", Anchor: "new"})
	m.ReplaceGroup("d2")
	if err := m.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, _ := ReadAll(dir, schema.Nodes)
	if diff := cmp.Diff([]schema.Node{{DagID: "d1", NodeID: "n1", Anchor: "new"}}, rows); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
	if m.Replaced != 4 {
		t.Fatalf("replaced %d rows, want d1's 3 and d2's 1", m.Replaced)
	}
}

// Rows kept from one batch must not change when later batches are read.
func TestScannedRowsOwnTheirStrings(t *testing.T) {
	dir := t.TempDir()
	var rows []schema.Trace
	for i := 0; i < 700; i++ {
		rows = append(rows, schema.Trace{TraceID: fmt.Sprintf("t%04d", i), Text: strings.Repeat(fmt.Sprintf("trace %d ", i), 50)})
	}
	if err := WriteAll(dir, schema.Traces, Meta{}, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.TraceID != rows[i].TraceID || r.Text != rows[i].Text {
			t.Fatalf("row %d changed after later reads: %q", i, r.TraceID)
		}
	}
}

// A long text is stored once, compressed: not also as page statistics in
// the page headers (one 50 MB trace made a 200 MB file).
func TestLongTextsStoredOnce(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("Nitaanza kutafakari kwa Kiswahili. ", 150_000) // 5 MB
	if err := WriteAll(dir, schema.Traces, Meta{}, []schema.Trace{{TraceID: "a", Text: text}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(FilePath(dir, schema.Traces.Table))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > int64(len(text))/10 {
		t.Fatalf("traces.parquet is %d bytes for a %d-byte text that compresses well", fi.Size(), len(text))
	}
	rows, err := ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	if rows[0].Text != text {
		t.Fatalf("text did not read back whole: %d bytes, want %d", len(rows[0].Text), len(text))
	}
}
