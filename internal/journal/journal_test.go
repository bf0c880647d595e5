package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rec struct {
	Text string `json:"text"`
	N    int    `json:"n"`
}

func TestPutGetReopen(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("ü", 1<<20) // longer than the read buffer
	keys := []Key{KeyOf([]byte("a")), KeyOf([]byte("b")), KeyOf([]byte("c"))}
	for i, k := range keys {
		text := "x"
		if i == 1 {
			text = long
		}
		if err := j.Put(k, rec{Text: text, N: i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Put(keys[0], rec{Text: "replaced?", N: 99}); err != nil {
		t.Fatal(err)
	}
	if r := get(t, j, keys[0]); r.N != 0 {
		t.Fatalf("the record has N %d after a second Put, want the first's 0: a second Put must not replace a record", r.N)
	}
	j.Close()

	j, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.Len() != 3 {
		t.Fatalf("Len = %d, want 3", j.Len())
	}
	if r := get(t, j, keys[1]); r.Text != long || r.N != 1 {
		t.Fatalf("long record did not survive reopening: N %d, want 1; text of %d bytes, want %d (same %v)", r.N, len(r.Text), len(long), r.Text == long)
	}
	var r rec
	if ok, _ := j.Get(KeyOf([]byte("absent")), &r); ok {
		t.Fatal("absent key found")
	}
}

func TestTornTailIgnored(t *testing.T) {
	dir := t.TempDir()
	j, _ := Open(dir)
	k := KeyOf([]byte("done"))
	j.Put(k, rec{N: 1})
	j.Close()
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*"))
	f, _ := os.OpenFile(segs[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"k":"` + KeyOf([]byte("torn")).String() + `","v":{"text":"half`)
	f.Close()

	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.TornLines != 1 || !j.Has(k) || j.Has(KeyOf([]byte("torn"))) || j.Len() != 1 {
		t.Fatalf("torn=%d len=%d", j.TornLines, j.Len())
	}
}

func TestCorruptRecordIsAnError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "seg-1.jsonl"), []byte("not a record\n"), 0o644)
	_, err := Open(dir)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "seg-1.jsonl:1") {
		t.Fatalf("got %v, want ErrCorrupt naming seg-1.jsonl:1", err)
	}
}

func TestLocked(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	j.Close()
	j2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	j2.Close()
	if segs, _ := filepath.Glob(filepath.Join(dir, "seg-*")); len(segs) != 0 {
		t.Fatalf("empty segments left behind: %v", segs)
	}
}

func BenchmarkPut(b *testing.B) {
	j, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	v := rec{Text: strings.Repeat("reasoning ", 2000)}
	b.SetBytes(int64(len(v.Text)))
	for i := 0; b.Loop(); i++ {
		v.N = i
		if err := j.Put(KeyOf([]byte{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)}), v); err != nil {
			b.Fatal(err)
		}
	}
}

// A run directory whose path holds glob characters finds its own journal:
// a resumed run must not pay again for the calls it had finished.
func TestGlobCharactersInThePath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run[1]*?")
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	k := KeyOf([]byte("paid for"))
	if err := j.Put(k, rec{N: 7}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	j, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if r := get(t, j, k); r.N != 7 {
		t.Fatalf("after reopening %s: N %d, want 7", dir, r.N)
	}
}

// get is the record of key k, which must be there.
func get(t *testing.T, j *Journal, k Key) rec {
	t.Helper()
	var r rec
	ok, err := j.Get(k, &r)
	if err != nil {
		t.Fatalf("Get(%v): %v", k, err)
	}
	if !ok {
		t.Fatalf("Get(%v): not found", k)
	}
	return r
}
