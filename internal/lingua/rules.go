package lingua

import (
	"math/bits"
	"slices"
)

// languageByRules is lingua-go's detectLanguageWithRules: each word counts
// for the language its letters' scripts point to (Hangul: Korean; kana:
// Japanese; Han: Chinese, or Japanese when the word also holds kana; ...),
// or for unknown; the text is the most counted language when unknown words
// are fewer than half, or unknown (returned as -1) on a tie.
func languageByRules(t *text) int {
	words := t.words
	var total [numLanguages + 1]uint32
	for _, w := range words {
		seen := w.rules // noted by the split
		switch {
		case seen == 0:
			total[unknown]++
		case bits.OnesCount16(seen) == 1:
			total[bits.TrailingZeros16(seen)]++
		case seen&(1<<chinese) != 0 && seen&(1<<japanese) != 0:
			total[japanese]++
		default:
			// Several languages, seldom: the word's letters are counted.
			var counts [numLanguages]uint32
			for _, a := range t.scripts[w.start:w.end] {
				if l := ruleLanguage[a]; l >= 0 {
					counts[l]++
				}
			}
			best, first, second := mostCounted(counts[:], seen)
			if first > second {
				total[best]++
			} else {
				total[unknown]++
			}
		}
	}
	present := uint32(0) // bit per entry of total, unknown included
	for l, c := range total {
		if c > 0 {
			present |= 1 << l
		}
	}
	if float64(total[unknown]) < float64(len(words))*0.5 {
		present &^= 1 << unknown
	}
	switch bits.OnesCount32(present) {
	case 0:
		return -1
	case 1:
		if l := bits.TrailingZeros32(present); l != unknown {
			return l
		}
		return -1
	case 2:
		if present == 1<<chinese|1<<japanese {
			return japanese
		}
	}
	best, first, second := mostCounted(total[:], uint16(present))
	if first == second || best == unknown {
		return -1
	}
	return best
}

// mostCounted returns the entry of counts (among those in set) counted
// most, its count and the largest count among the others.
func mostCounted(counts []uint32, set uint16) (best int, first, second uint32) {
	best = -1
	for l, c := range counts {
		if set&(1<<l) == 0 {
			continue
		}
		if best < 0 || c > first {
			best, first, second = l, c, first
		} else if c > second {
			second = c
		}
	}
	return best, first, second
}

// frenchLetters are the letters of lingua-go's charsToLanguagesMapping that
// point to French: a word holding some counts once for each it holds.
// French is the only study language there that shares its alphabet
// (Russian is there too, but alone in Cyrillic among the study's languages,
// so narrowing cannot change its filter's answer).
var frenchLetters = []rune("ÎîÛûËëÈèÙùÊêÔôÀàÂâÇçÉé")

// languagesByFilter is lingua-go's filterLanguagesByRules: the languages of
// the words' most frequent alphabet (all languages when no word is in one
// alphabet or every alphabet is as frequent), narrowed to French when its
// telling letters appear at least once per two words. When alphabets tie
// for the largest count behind a less frequent one, lingua-go picks one at
// random (map order); this picks the pick-th of them (modulo their number;
// detect picks the first, in lingua-go's alphabet order), and ties is their
// number (1 without a tie).
func languagesByFilter(t *text, pick int) (set uint16, ties int) {
	var counts [numAlphabets]uint32
	for _, w := range t.words {
		// A word wholly in one alphabet (mixed: noted by the split).
		if a := t.scripts[w.start]; a != noAlphabet && !w.mixed {
			counts[a]++
		}
	}
	// kinds counts the alphabets found, distinct their different counts.
	best, bestCount, kinds, distinct := noAlphabet, uint32(0), 0, 0
	for a, c := range counts {
		if c == 0 {
			continue
		}
		kinds++
		if !slices.Contains(counts[:a], c) {
			distinct++
		}
		if c > bestCount {
			best, bestCount = alphabet(a), c
		}
	}
	if kinds == 0 || kinds > 1 && distinct == 1 {
		return allLanguages, 1
	}
	var tied []alphabet
	for a, c := range counts {
		if c == bestCount {
			tied = append(tied, alphabet(a))
		}
	}
	best = tied[pick%len(tied)]
	set = alphabetLanguages[best]
	if set&(1<<french) != 0 {
		count := 0
		for _, w := range t.words {
			var seen uint32 // bit per French letter
			for _, r := range t.runes[w.start:w.end] {
				if r < 0xc0 {
					continue // below every French letter
				}
				if i := slices.Index(frenchLetters, r); i >= 0 {
					seen |= 1 << i
				}
			}
			count += bits.OnesCount32(seen)
		}
		if count > 0 && float64(count) >= float64(len(t.words))*0.5 {
			return 1 << french, len(tied)
		}
	}
	return set, len(tied)
}
