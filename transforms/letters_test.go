package transforms

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestLettersIsUnicodeIsLetter compares Letters (ASCII and a bitmap of the
// Basic Multilingual Plane) with counting unicode.IsLetter, over every
// code point alone and random texts of every plane, invalid UTF-8 too.
func TestLettersIsUnicodeIsLetter(t *testing.T) {
	reference := func(s string) int {
		n := 0
		for _, r := range s {
			if unicode.IsLetter(r) {
				n++
			}
		}
		return n
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if s := string(r); Letters(s) != reference(s) {
			t.Fatalf("Letters(%q) = %d, want %d", s, Letters(s), reference(s))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20_000 {
		b := make([]byte, rng.IntN(64))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		s := string(b) + string(rune(rng.IntN(unicode.MaxRune+1))) + "a\u4e00"
		if Letters(s) != reference(s) {
			t.Fatalf("Letters(%q) = %d, want %d", s, Letters(s), reference(s))
		}
	}
}

// TestLettersAndLengthIsTheDefinition compares LettersAndLength (ASCII
// read directly, two- and three-byte characters decoded in place and
// classed from bmpClasses) with counting unicode.IsLetter and TextLength
// (range tables) and with utf8.ValidString, over every code point alone,
// every lead byte followed by every second byte (then a continuation byte,
// a byte that is not one, or the end), and random texts of every plane,
// invalid UTF-8 too.
func TestLettersAndLengthIsTheDefinition(t *testing.T) {
	reference := func(s string) (letters, length int) {
		for _, r := range s {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		return letters, TextLength(s)
	}
	check := func(s string) {
		t.Helper()
		l, n, valid := LettersAndLength(s)
		wl, wn := reference(s)
		if wv := utf8.ValidString(s); l != wl || n != wn || valid != wv {
			t.Fatalf("LettersAndLength(%q) = %d, %d, %v; want %d, %d, %v", s, l, n, valid, wl, wn, wv)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		check(string(r))
	}
	for c := range 128 { // every ASCII byte at every place of eight read at once
		for at := range 17 {
			b := []byte(strings.Repeat("Az", 9))
			b[at] = byte(c)
			check(string(b))
			check("é" + string(b))
		}
	}
	for c := range 256 {
		for c1 := range 256 {
			for _, rest := range []string{"", "\x80", "\xbf", "a", "\xc0", "\x80\x80", "\xbfa"} {
				check(string([]byte{byte(c), byte(c1)}) + rest)
				check("x" + string([]byte{byte(c), byte(c1)}) + rest + "é")
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20_000 {
		var b []byte
		for k := rng.IntN(24); k >= 0; k-- {
			switch rng.IntN(4) {
			case 0:
				b = append(b, byte(rng.IntN(256)))
			case 1:
				b = append(b, byte(rng.IntN(128)))
			case 2:
				b = utf8.AppendRune(b, rune(rng.IntN(1<<16)))
			default:
				b = utf8.AppendRune(b, rune(rng.IntN(unicode.MaxRune+1)))
			}
		}
		check(string(b))
	}
}
