package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSegment writes one segment of the given lines (each ending in a
// newline) and returns its path.
func writeSegment(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func recordLine(key string, n int) string {
	return fmt.Sprintf(`{"k":"%s","v":{"text":"x","n":%d}}`+"\n", KeyOf([]byte(key)), n)
}

// deleteLine removes line n (1-based) of path, as the error's sed command
// does.
func deleteLine(t *testing.T, path string, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	b = bytes.Join(append(lines[:n-1:n-1], lines[n:]...), nil)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A damaged line in the middle of a segment (a complete line that is not
// a record: a kill leaves only a torn last line) stops the journal with an
// error naming every damaged line and the command that removes them; once
// they are removed the journal opens with every other record.
func TestCorruptLinesAreNamedWithTheirRecovery(t *testing.T) {
	dir := t.TempDir()
	a := writeSegment(t, dir, "seg-1.jsonl", recordLine("a", 1), "{\"k\":\"\x00\x00garbage\n", recordLine("b", 2), "not a record\n", recordLine("c", 3))
	b := writeSegment(t, dir, "seg-2.jsonl", recordLine("d", 4), "}\n")
	_, err := Open(dir)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt", err)
	}
	for _, want := range []string{a + ":2 (and 2 more: seg-1.jsonl:4, seg-2.jsonl:2)", "sed -i '2d;4d' " + a, "sed -i '2d' " + b, "sent again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	deleteLine(t, a, 4)
	deleteLine(t, a, 2)
	deleteLine(t, b, 2)
	j, err := Open(dir)
	if err != nil {
		t.Fatalf("after deleting the lines named: %v", err)
	}
	defer j.Close()
	for n, k := range []string{"a", "b", "c", "d"} {
		if r := get(t, j, KeyOf([]byte(k))); r.N != n+1 {
			t.Errorf("record %s: N %d, want %d", k, r.N, n+1)
		}
	}
}

// A record whose value cannot be read back (its line looks whole) fails
// when it is read, naming its line and how to remove it.
func TestCorruptValueNamesItsLine(t *testing.T) {
	dir := t.TempDir()
	key := KeyOf([]byte("b"))
	seg := writeSegment(t, dir, "seg-1.jsonl", recordLine("a", 1), recordLine("x", 0), `{"k":"`+key.String()+`","v":{"text":"x",,}}`+"\n")
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var r rec
	_, err = j.Get(key, &r)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("got %v, want ErrCorrupt", err)
	}
	for _, want := range []string{seg + ":3", "sed -i '3d' " + seg} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}

// More damaged lines than one error names: the first are named, and the
// count says how many there are.
func TestManyCorruptLines(t *testing.T) {
	dir := t.TempDir()
	lines := make([]string, 25)
	for i := range lines {
		lines[i] = "junk\n"
	}
	writeSegment(t, dir, "seg-1.jsonl", lines...)
	_, err := Open(dir)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "(and 24 more: ") || !strings.Contains(err.Error(), "sed -i '1d;2d;3d;4d;5d;6d;7d;8d;9d;10d'") {
		t.Fatalf("got %v", err)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/data/run/journal/llm/seg-1.jsonl": "/data/run/journal/llm/seg-1.jsonl",
		"/data/my run/seg.jsonl":            "'/data/my run/seg.jsonl'",
		"/data/it's/seg.jsonl":              `'/data/it'\''s/seg.jsonl'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
