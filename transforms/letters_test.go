package transforms

import (
	"math/rand/v2"
	"testing"
	"unicode"
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
