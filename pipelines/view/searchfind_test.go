package view

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFinderIsContains: the rare-byte finder says what bytes.Contains
// says, for texts and queries over alphabets of 1 to 4 bytes (so the
// rare byte recurs, matches overlap, and the turn to bytes.Index comes),
// whatever the counts say is rare (the sample can be wrong), queries cut
// from the text at its ends and inside, and longer than it.
func TestFinderIsContains(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		alphabet := "abcd"[:1+rng.IntN(4)]
		word := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			return b
		}
		s := word(rng.IntN(300))
		var q []byte
		switch rng.IntN(3) {
		case 0:
			q = word(1 + rng.IntN(12))
		case 1:
			if len(s) > 0 {
				i := rng.IntN(len(s))
				q = bytes.Clone(s[i : i+1+rng.IntN(min(len(s)-i, 40))])
			}
		default:
			q = word(1 + rng.IntN(400))
		}
		if len(q) == 0 {
			continue
		}
		var c byteCounts
		for i := range c {
			c[i] = rng.Uint32N(4)
		}
		f := newFinder(q, &c)
		if got, want := f.in(s), bytes.Contains(s, q); got != want {
			t.Fatalf("%q in %q (counts %v, rare at %d, alt at %d): %v, want %v", q, s, c['a':'e'], f.rare, f.alt, got, want)
		}
	}
	// The rare byte is every byte of the text: the turn to bytes.Index,
	// the match at the very end, after it and before.
	var c byteCounts
	c['x'] = 100
	for _, n := range []int{1, 7, 8, 100, 5000} {
		s := []byte(strings.Repeat("a", n) + "x")
		for _, q := range []string{"ax", "aax", strings.Repeat("a", n) + "x", "a", "xa", "x"} {
			f := newFinder([]byte(q), &c)
			if got, want := f.in(s), bytes.Contains(s, []byte(q)); got != want {
				t.Fatalf("%q in %d a's and x: %v, want %v", q, n, got, want)
			}
		}
	}
}

// TestFinderTakesTheRarestBytes: by the texts' counts, the rarest byte of
// the query (of equals, the later) and another place's second rarest.
func TestFinderTakesTheRarestBytes(t *testing.T) {
	var c byteCounts
	for i, b := range []byte("etaoinshrdlucmfwypvbgkqjxz") {
		c[b] = uint32(1000 - i)
	}
	c[' '] = 2000
	for _, tc := range []struct {
		q         string
		rare, alt int
	}{{"the answer", 7, 9}, {"let", 0, 2}, {"a", 0, 0}, {"zz", 1, 0}, {"quiz", 3, 0}} {
		f := newFinder([]byte(tc.q), &c)
		if f.rare != tc.rare || f.alt != tc.alt {
			t.Errorf("%q: rare at %d, alt at %d; want %d, %d", tc.q, f.rare, f.alt, tc.rare, tc.alt)
		}
	}
}
