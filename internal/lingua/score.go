package lingua

import (
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
	keys = keys[:0]
	runes := txt.runes
	for _, w := range txt.words {
		for i := w.start; i+3 <= w.end; i++ {
			keys = append(keys, pack(runes[i], runes[i+1], runes[i+2]))
		}
	}
	keys, spare = sortKeys(keys, spare)
	keys = slices.Compact(keys)
	*touched = t.touch(keys)
	for _, key := range keys {
		tri := t.lookUp(key)
		for m := set & tri.languages; m != 0; m &= m - 1 {
			l := bits.TrailingZeros16(m)
			sums[l] += t.logOf(tri, l)
		}
		rest := set &^ tri.languages
		if rest == 0 {
			continue
		}
		bi := t.lookUp(key & (1<<42 - 1))
		for m := rest & bi.languages; m != 0; m &= m - 1 {
			l := bits.TrailingZeros16(m)
			sums[l] += t.logOf(bi, l)
		}
		rest &^= bi.languages
		if rest == 0 {
			continue
		}
		uni := t.lookUp(key & (1<<21 - 1))
		for m := rest & uni.languages; m != 0; m &= m - 1 {
			l := bits.TrailingZeros16(m)
			sums[l] += t.logOf(uni, l)
		}
	}
	return sums, len(keys), keys, spare
}
