package swar

import (
	"encoding/binary"
	"testing"
)

// words puts every byte value at every position of a word whose other
// bytes are each of a few fillers, so a carry or borrow that crosses into
// a neighbour shows.
func words(f func(w uint64, b [8]byte)) {
	for _, fill := range []byte{0x00, ' ', '"', '\\', 'a', 0x7f, 0x80, 0xff} {
		for pos := range 8 {
			for v := range 256 {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[pos] = byte(v)
				f(binary.LittleEndian.Uint64(b[:]), b)
			}
		}
	}
}

func TestJSONSpecialIsByteByByte(t *testing.T) {
	words(func(w uint64, b [8]byte) {
		got := JSONSpecial(w)
		for i, c := range b {
			want := c == '"' || c == '\\' || c < 0x20 || c >= 0x80
			if flagged := got>>(8*i+7)&1 == 1; flagged != want || got>>(8*i)&0x7f != 0 {
				t.Fatalf("JSONSpecial(% x): byte %d (%#x) flagged %v, want %v (%#x)", b, i, c, flagged, want, got)
			}
		}
	})
}

func TestEqualIsByteByByte(t *testing.T) {
	for _, c := range []byte{'$', 'a', '[', ']', '}', '\\', '\n', 0x00, 0x7f} {
		words(func(w uint64, b [8]byte) {
			if w&High != 0 {
				return // Equal is for ASCII words
			}
			got := Equal(w, c)
			flags := Flags(got)
			for i, x := range b {
				want := x == c
				if flagged := got>>(8*i+7)&1 == 1; flagged != want || got>>(8*i)&0x7f != 0 {
					t.Fatalf("Equal(% x, %q): byte %d flagged %v, want %v", b, c, i, flagged, want)
				}
				if flags>>i&1 == 1 != want {
					t.Fatalf("Flags(Equal(% x, %q)) = %08b: bit %d wrong", b, c, flags, i)
				}
			}
		})
	}
}
