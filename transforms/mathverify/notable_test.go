package mathverify

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The notable index and the searches that jump along it (notable.go,
// decodeMarked) must find exactly what reading every rune finds. The
// oracle is the matcher with noIndex set: every search reads every rune,
// as before the index, and the lazy loops run step by step
// (withoutScans).

// plainMatcher reads every rune.
func plainMatcher(rs []rune) *matcher {
	m := newMatcher(rs)
	m.noIndex = true
	return m
}

// indexedMatcher uses an index built by reading the runes, whatever the
// text's length.
func indexedMatcher(rs []rune) *matcher {
	m := newMatcher(rs)
	m.marks = newNotableIndex(rs)
	return m
}

// notableEdgeTexts straddle the decoder's words and the index's: runes of
// every UTF-8 length, ill-formed and cut sequences, notable runes at
// word boundaries.
func notableEdgeTexts() []string {
	out := []string{"", "a", "$", "\\", "\n", "}", "A", "\xff", "\xe2\x82", "\xed\xa0\x80", "\xe0\x80\x80", "\xc0\xaf", "\xf0\x9f\x98\x80",
		"Answer: $\\boxed{7}$", "答案是 $\\boxed{7}$", "Ответ: $\\boxed{7}$ \U0001F600 ✓"}
	for n := 1; n <= 140; n++ {
		for _, c := range []string{"$", "\\", "a", "é", "答", "\xff"} {
			out = append(out, strings.Repeat("x", n)+c+strings.Repeat("y", 3)+"}[\n"+c)
		}
	}
	// Every kind of UTF-8 sequence, well-formed or not, at each byte of a
	// word, alone, before notable runes and cut by the text's end.
	for _, c := range utf8Pieces {
		for n := 0; n <= 17; n++ {
			pad := strings.Repeat("x", n)
			out = append(out, pad+c, pad+c+"$a\n"+c+"}]", pad+c+c+strings.Repeat("é", n%4)+"答A")
		}
	}
	return out
}

// utf8Pieces are one sequence of each kind: runes of one to four bytes
// (Latin, Cyrillic, Hangul, Thai, Devanagari, CJK, U+FFFD, an emoji,
// the last rune) and ill-formed ones (a lone continuation byte, cut
// sequences, overlong forms, a surrogate, a rune past U+10FFFF, bytes
// that never lead).
var utf8Pieces = []string{"a", "é", "ж", "한", "ไ", "क", "答", "\uFFFD", "😀", "\U0010FFFF", "\u0800", "\ud7ff", "\ue000",
	"\x80", "\xbf", "\xc3", "\xe4\xb8", "\xf0\x9f\x98", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf",
	"\xed\xa0\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xe4\x28\xa0", "\xd0\x28"}

// checkDecodeMarked: the runes are []rune(s)'s, and each plane marks
// exactly the runes it is for.
func checkDecodeMarked(t *testing.T, s string) {
	t.Helper()
	rs, x := borrowMarkedRunes(s)
	defer returnRunes(rs)
	defer x.release()
	want := []rune(s)
	if !slices.Equal(rs, want) {
		t.Fatalf("%q: decoded %q, want %q", s, rs, want)
	}
	if x.n != len(want) {
		t.Fatalf("%q: index of %d runes, want %d", s, x.n, len(want))
	}
	for p, plane := range x.planes {
		for k := 0; k < len(plane)*64; k++ {
			got := plane[k/64]&(1<<(k%64)) != 0
			mark := k < len(want) && want[k] < utf8RuneSelf && strings.ContainsRune(planeRunes[p], want[k])
			if got != mark {
				t.Fatalf("%q: plane %q at rune %d: %v, want %v", s, planeRunes[p], k, got, mark)
			}
		}
	}
}

func TestDecodeMarkedAsConversion(t *testing.T) {
	texts := append(notableEdgeTexts(), demoTraces(t, 3000)...)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		texts = append(texts, randomText(rng, 1+rng.IntN(300)))
	}
	for _, s := range texts {
		checkDecodeMarked(t, s)
	}
}

// sparseSets are the sets that searches may find along the index: the
// patterns' first and key runes and the stops of their lazy loops.
func sparseSets(patterns []*pattern) []*runeSet {
	var out []*runeSet
	add := func(s *runeSet) {
		if s != nil && s.sparse {
			out = append(out, s)
		}
	}
	for _, p := range patterns {
		add(p.first)
		add(p.key)
		for _, in := range p.prog.insts {
			if in.scan != nil {
				add(&in.scan.stop)
			}
		}
	}
	return out
}

// checkIndexedSearches compares, on one text, every search that may use
// the index with the same search reading every rune: each sparse set's
// next rune from every position, the lazy loops' walks (with and
// without known failures), the words "answer" and "final answer", the
// boxed environments' start condition, and every pattern's matches,
// groups included.
func checkIndexedSearches(t *testing.T, text string, patterns []*pattern, plain []*pattern, rng *rand.Rand) {
	t.Helper()
	rs := []rune(text)
	m, pm := indexedMatcher(rs), plainMatcher(rs)
	defer m.release()
	defer pm.release()
	positions := []int{0, len(rs)}
	for i := range rs {
		if len(rs) < 400 || rs[i] < utf8RuneSelf && planeOf[rs[i]] != 0 && rng.IntN(4) == 0 || rng.IntN(100) == 0 {
			positions = append(positions, i, i+1)
		}
	}
	for _, s := range sparseSets(patterns) {
		for _, i := range positions {
			if got, want := s.nextIn(m, i), s.next(rs, i); got != want {
				t.Fatalf("set %v from %d of %q: %d, want %d", s.ascii, i, text, got, want)
			}
		}
	}
	failed := make([]uint64, len(rs)/64+1)
	for k := range failed {
		if rng.IntN(3) == 0 {
			failed[k] = rng.Uint64() & rng.Uint64() & rng.Uint64()
		}
	}
	for _, p := range patterns {
		for _, in := range p.prog.insts {
			if in.scan == nil || !in.scan.stop.sparse {
				continue
			}
			for _, i := range positions {
				for _, f := range [][]uint64{nil, failed} {
					if got, want := in.scan.walk(m, i, f), in.scan.walk(pm, i, f); got != want {
						t.Fatalf("walk from %d of %q (failures %v): %d, want %d", i, text, f != nil, got, want)
					}
				}
			}
		}
	}
	for _, w := range []string{"final answer", "answer"} {
		if got, want := m.wordAt([]rune(w)), pm.wordAt([]rune(w)); !slices.Equal(got, want) {
			t.Fatalf("%q in %q: at %v, want %v", w, text, got, want)
		}
	}
	may, plainMay := boxedEnvMayHoldBox(m), boxedEnvMayHoldBox(pm)
	for i := range rs {
		if got, want := may(i), plainMay(i); got != want {
			t.Fatalf("boxedEnvMayHoldBox(%d) of %q: %v, want %v", i, text, got, want)
		}
	}
	for pi, p := range patterns {
		got := p.findAll(m)
		want := plain[pi].findAll(pm)
		if !sameMatches(got, want) {
			t.Fatalf("pattern %d on %q:\n got %s\nwant %s", pi, text, showSpans(got), showSpans(want))
		}
	}
}

// sameExtraction compares two extractions by what parse() returned.
func sameExtraction(a, b extraction) bool {
	if (a.value == nil) != (b.value == nil) || a.value != nil && a.value.String() != b.value.String() {
		return false
	}
	return a.valueStr == b.valueStr && a.where == b.where && a.fallback == b.fallback && a.hasFB == b.hasFB && a.aborted == b.aborted
}

func TestIndexedSearchesAsReading(t *testing.T) {
	patterns := everyPattern()
	plain := make([]*pattern, len(patterns))
	for i, p := range patterns {
		plain[i] = withoutScans(p)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	texts := notableEdgeTexts()[:40]
	for i, tr := range demoTraces(t, 20_000) {
		if i%8 == 0 {
			texts = append(texts, tr)
		}
	}
	for range 100 {
		texts = append(texts, randomText(rng, 1+rng.IntN(600)))
	}
	for _, text := range texts {
		checkIndexedSearches(t, text, patterns, plain, rng)
		if got, want := extractWith(text, true), extractWith(text, false); !sameExtraction(got, want) {
			t.Fatalf("extract(%q): %+v, want %+v", text, got, want)
		}
	}
}

// Graded whole, long traces give the same extraction with the index as
// reading every rune: every demo language, 30 and 120 KB, each ending.
func TestLongExtractionsIndexedAsReading(t *testing.T) {
	if testing.Short() {
		t.Skip("long traces")
	}
	n := 0
	for _, size := range []int{30_000, 120_000} {
		for _, text := range demoTraces(t, size) {
			if got, want := extractWith(text, true), extractWith(text, false); !sameExtraction(got, want) {
				t.Fatalf("a %d-byte trace: %+v, want %+v", size, got, want)
			}
			n++
		}
	}
	t.Logf("%d traces", n)
}

// FuzzNotableIndex: on any text the decoder marks what it should, and
// every search along the index finds what reading every rune finds.
func FuzzNotableIndex(f *testing.F) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20 {
		f.Add(randomText(rng, 60))
	}
	for _, s := range notableEdgeTexts()[:30] {
		f.Add(s)
	}
	patterns := everyPattern()
	plain := make([]*pattern, len(patterns))
	for i, p := range patterns {
		plain[i] = withoutScans(p)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 3000 {
			return
		}
		checkDecodeMarked(t, text)
		checkIndexedSearches(t, text, patterns, plain, rand.New(rand.NewPCG(1, uint64(len(text)))))
		if got, want := extractWith(text, true), extractWith(text, false); !sameExtraction(got, want) {
			t.Fatalf("extract(%q): %+v, want %+v", text, got, want)
		}
	})
}
