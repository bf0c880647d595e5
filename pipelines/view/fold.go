package view

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The search index matches a query as RE2's (?i) matches a literal (the
// scan it replaces: regexp_matches(text, '(?i)' || quoted q)): rune by
// rune, two runes equal when they are in one orbit of Unicode simple case
// folding (k, K and the Kelvin sign K; s, S and the long s ſ). Mapping
// every rune to one member of its orbit (the smallest) turns that into
// byte equality: a text holds q case-insensitively exactly when its folded
// bytes hold q's folded bytes (valid UTF-8 only matches at rune starts).

// foldBMP is each rune's orbit's smallest member, for the Basic
// Multilingual Plane (runes above it are folded as they come: few fold).
// Built on first use: every datg command links the viewer, few search.
var foldBMP = sync.OnceValue(func() []uint16 {
	t := make([]uint16, 0x10000)
	for r := range rune(0x10000) {
		t[r] = uint16(orbitMin(r))
	}
	return t
})

// orbitMin is the smallest rune of r's simple case folding orbit.
func orbitMin(r rune) rune {
	lowest := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		lowest = min(lowest, f)
	}
	return lowest
}

// foldRune is r's orbit's smallest member.
func foldRune(r rune) rune {
	if r < 0x10000 {
		return rune(foldBMP()[r])
	}
	return orbitMin(r)
}

// appendFolded appends s with every rune folded to dst. A byte that is not
// UTF-8 is kept as it is (a text never has one: DuckDB's strings are
// UTF-8, and a query that is not UTF-8 is searched by the scan).
func appendFolded(dst []byte, s string) []byte {
	fold := foldBMP()
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, byte(fold[c]))
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, c)
			i++
			continue
		}
		f := r
		if r < 0x10000 {
			f = rune(fold[r])
		} else {
			f = orbitMin(r)
		}
		if f == r {
			dst = append(dst, s[i:i+n]...)
		} else {
			dst = utf8.AppendRune(dst, f)
		}
		i += n
	}
	return dst
}

// indexable reports whether the index answers a search for q: q is UTF-8
// without NUL. Any other q is searched by the scan (searchscan.go), which
// refuses what is not UTF-8 and searches for a NUL as any other byte.
func indexable(q string) bool {
	return utf8.ValidString(q) && !strings.ContainsRune(q, 0)
}
