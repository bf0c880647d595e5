package lingua

import (
	"math"
	"math/bits"
	"slices"
)

func popcount16(x uint16) int { return bits.OnesCount16(x) }

// trigramSums is lingua-go's low-accuracy computeSumOfNgramProbabilities for
// each language of set: over the text's distinct trigrams, the sum of the
// logarithm of the trigram's probability, or else of its first two
// letters', or else of its first letter's (nothing when none is known).
// Trigrams are summed in increasing key order (lingua-go: map order).
// keys and spare are scratch space, returned for the next call; count is
// the number of distinct trigrams; touched receives what touching the
// table read.
func trigramSums(t *ngramTable, txt *text, set uint16, keys, spare []uint64, touched *uint64) (sums [numLanguages]float64, count int, _, _ []uint64) {
	// The keys are the table's compact keys when every rune fits
	// (packCompact orders and tells apart such trigrams as pack does, so
	// the sums read them in the same order), else pack's, each look-up
	// then compacting its key: a rune from U+20000 up, which in Unicode
	// 15 no letter of a word of three letters or more is (the Han there
	// are one-letter words), so this is for safety.
	keys = keys[:0]
	runes := txt.runes
	var orRunes rune
	for _, w := range txt.words {
		for i := w.start; i+3 <= w.end; i++ {
			keys = append(keys, packCompact(runes[i], runes[i+1], runes[i+2]))
			orRunes |= runes[i] | runes[i+1] | runes[i+2]
		}
	}
	wide := orRunes >= 1<<tableRuneBits
	biMask, uniMask := uint64(1<<(2*tableRuneBits)-1), uint64(1<<tableRuneBits-1)
	if wide {
		keys = keys[:0]
		for _, w := range txt.words {
			for i := w.start; i+3 <= w.end; i++ {
				keys = append(keys, pack(runes[i], runes[i+1], runes[i+2]))
			}
		}
		biMask, uniMask = 1<<42-1, 1<<21-1
	}
	keys, spare = sortKeys(keys, spare)
	keys = slices.Compact(keys)
	*touched = t.touch(keys, wide)
	lookUp := func(key uint64) ngramEntry {
		if wide {
			return t.lookUp(key)
		}
		return t.lookUpCompact(key)
	}
	for _, key := range keys {
		tri := lookUp(key)
		t.add(&sums, tri, set&tri.languages)
		rest := set &^ tri.languages
		if rest == 0 {
			continue
		}
		bi := lookUp(key & biMask)
		t.add(&sums, bi, rest&bi.languages)
		rest &^= bi.languages
		if rest == 0 {
			continue
		}
		uni := lookUp(key & uniMask)
		t.add(&sums, uni, rest&uni.languages)
	}
	return sums, len(keys), keys, spare
}

// add adds e's logarithm of each language of m (languages e has) to sums.
// An n-gram of one language has its logarithm in its slot, and m is then
// that language or none.
func (t *ngramTable) add(sums *[numLanguages]float64, e ngramEntry, m uint16) {
	if e.languages&(e.languages-1) == 0 {
		if m != 0 {
			sums[bits.TrailingZeros16(m)] += math.Float64frombits(e.value)
		}
		return
	}
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros16(m)
		sums[l] += t.logOf(e, l)
	}
}
