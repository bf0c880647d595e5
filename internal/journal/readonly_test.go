package journal

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// OpenReadOnly creates nothing: a journal that does not exist reads as
// empty and its directory stays absent.
func TestOpenReadOnlyMissingCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal", "llm")
	j, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != 0 {
		t.Fatalf("%d records, want none", j.Len())
	}
	if err := j.Put(KeyOf([]byte("a")), rec{}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Put: %v, want ErrReadOnly", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the journal's parent exists after a read-only open: %v", err)
	}
}

// Over a journal in use (its writer holds the lock, with an empty
// segment of its own), OpenReadOnly reads every record, writes nothing,
// and removes nothing when closed.
func TestOpenReadOnlyReadsAndLeavesTheDirectoryAlone(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	k := KeyOf([]byte("a"))
	if err := w.Put(k, rec{Text: "x", N: 1}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w, err = Open(dir) // holds the lock; its new segment is empty
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before := names(t, dir)

	j, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := get(t, j, k); r.N != 1 {
		t.Fatalf("read N %d, want 1", r.N)
	}
	if err := j.Put(KeyOf([]byte("b")), rec{}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Put: %v, want ErrReadOnly", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if after := names(t, dir); !slices.Equal(before, after) {
		t.Fatalf("files before %v, after %v", before, after)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, _ := e.Info()
		out = append(out, e.Name()+" "+info.ModTime().String())
	}
	return out
}
