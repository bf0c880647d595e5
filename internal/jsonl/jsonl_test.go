package jsonl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// mapInputs are inputs of lines short and longer than Map's buffer,
// empty, with \r\n, with and without a last newline.
func mapInputs() []string {
	long := strings.Repeat("x", 70_000)
	return []string{"", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\r\nb\r\n",
		long, long + "\n", "a\n" + long + "\nb", long + "\n" + long + long + "\n" + "c",
		strings.Repeat("line\n", 1000), strings.Repeat(long[:65_535]+"\n", 3)}
}

// Map hands fn each line as bufio.Reader.ReadBytes('\n') reads it, with
// its number, and writes what fn returns.
func TestMapReadsLinesAsReadBytes(t *testing.T) {
	for _, in := range mapInputs() {
		var want []string
		br := bufio.NewReader(strings.NewReader(in))
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				want = append(want, string(line))
			}
			if err != nil {
				break
			}
		}
		var got []string
		var out bytes.Buffer
		n, err := Map(context.Background(), strings.NewReader(in), &out, func(n int, line []byte) (any, bool) {
			if n != len(got)+1 {
				t.Fatalf("line number %d after %d lines", n, len(got))
			}
			got = append(got, string(line))
			return n, n%2 == 0
		})
		if err != nil || n != len(want) {
			t.Fatalf("%.40q: %d lines, %v; want %d", in, n, err, len(want))
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("%.40q: line %d is %.40q, want %.40q", in, k+1, got[k], want[k])
			}
		}
		var wantOut strings.Builder
		for k := 1; k <= n; k += 2 {
			wantOut.WriteString(strconv.Itoa(k) + "\n")
		}
		if out.String() != wantOut.String() {
			t.Fatalf("%.40q: wrote %q, want %q", in, out.String(), wantOut.String())
		}
	}
}

// Map reads every line into one buffer: the allocations of reading many
// long lines do not grow with their number (a copy of each line was most
// of answers check's garbage on long traces).
func TestMapReusesItsLineBuffer(t *testing.T) {
	in := strings.Repeat(strings.Repeat("x", 100_000)+"\n", 100)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := Map(context.Background(), strings.NewReader(in), io.Discard, func(int, []byte) (any, bool) { return nil, true }); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 30 {
		t.Fatalf("%v allocations for 100 lines of 100 KB", allocs)
	}
}

// A reader's error stops Map and is returned.
func TestMapReturnsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("a\nb"), errReader{boom})
	n, err := Map(context.Background(), r, io.Discard, func(int, []byte) (any, bool) { return nil, true })
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("%d lines, %v; want 1, boom", n, err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
