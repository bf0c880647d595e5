package transforms

import (
	"math/rand/v2"
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
// read directly, the Basic Multilingual Plane from bmpClasses) with
// counting unicode.IsLetter and TextLength (range tables), over every code
// point alone and random texts of every plane, invalid UTF-8 too.
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
		l, n := LettersAndLength(s)
		if wl, wn := reference(s); l != wl || n != wn {
			t.Fatalf("LettersAndLength(%q) = %d, %d; want %d, %d", s, l, n, wl, wn)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		check(string(r))
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
