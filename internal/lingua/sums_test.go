package lingua

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/transforms"
)

// referenceSums is trigramSums as it was written before the compact keys,
// over the models' probabilities read afresh (a map, not the table): the
// text's distinct trigrams in increasing order of pack's keys, each
// language adding math.Log of the trigram's probability, else its first
// two letters', else its first letter's.
func referenceSums(index map[uint64]uint32, probs [][numLanguages]float64, txt *text, set uint16) (sums [numLanguages]float64, count int) {
	var keys []uint64
	for _, w := range txt.words {
		for i := w.start; i+3 <= w.end; i++ {
			keys = append(keys, pack(txt.runes[i], txt.runes[i+1], txt.runes[i+2]))
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	prob := func(key uint64, l int) float64 {
		if at, ok := index[key]; ok {
			return probs[at][l]
		}
		return 0
	}
	for _, key := range keys {
		for m := set; m != 0; m &= m - 1 {
			l := bits.TrailingZeros16(m)
			for _, k := range []uint64{key, key & (1<<42 - 1), key & (1<<21 - 1)} {
				if p := prob(k, l); p > 0 {
					sums[l] += math.Log(p)
					break
				}
			}
		}
	}
	return sums, len(keys)
}

// TestTrigramSumsAsBefore compares trigramSums with referenceSums, to the
// bit, over every language set of one or several languages, on every
// segment of generated traces in each study language, the odd texts of the
// differential test, and words holding runes above U+1FFFF (no letter of
// a multi-letter word is, in Unicode 15: they are written here directly
// into the text, so the path of pack's keys is taken).
func TestTrigramSumsAsBefore(t *testing.T) {
	index, probs, err := readNgrams(modelFiles)
	if err != nil {
		t.Fatal(err)
	}
	table, err := newTable(index, probs)
	if err != nil {
		t.Fatal(err)
	}
	bmpOnce.Do(buildBMP)
	var texts []string
	english := testenv.DemoQuestions(t, "en")
	for _, code := range codes {
		text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(t, code), English: english, Bytes: 20_000, Answer: "42", Seed: 2})
		texts = append(texts, transforms.Segments(transforms.StripMath(text), 200, 1000)...)
	}
	texts = append(texts, oddTexts(t)...)
	rng := rand.New(rand.NewPCG(9, 10))
	var keys, spare []uint64
	var touched uint64
	compare := func(txt *text) {
		t.Helper()
		set := uint16(rng.Uint32N(1 << numLanguages))
		if rng.IntN(2) == 0 {
			set = 1<<numLanguages - 1
		}
		var got [numLanguages]float64
		var count int
		got, count, keys, spare = trigramSums(table, txt, set, keys, spare, &touched)
		want, wantCount := referenceSums(index, probs, txt, set)
		if count != wantCount {
			t.Fatalf("%q: %d trigrams, want %d", string(txt.runes), count, wantCount)
		}
		for l := range got {
			if math.Float64bits(got[l]) != math.Float64bits(want[l]) {
				t.Fatalf("%q (languages %012b): %s's sum %v, want %v", string(txt.runes), set, codes[l], got[l], want[l])
			}
		}
	}
	var txt text
	for _, s := range texts {
		txt.split(s)
		compare(&txt)
	}
	// Words of runes above U+1FFFF among Latin and Cyrillic letters.
	alphabet := []rune("abcdefghijklmnopqrstuvwxyzéèжзи\U00020000\U0002A6D6\U00030000\U0010FFFD\U0001FFFF")
	for range 3000 {
		txt = text{}
		for range 1 + rng.IntN(6) {
			start := int32(len(txt.runes))
			for range 1 + rng.IntN(8) {
				txt.runes = append(txt.runes, alphabet[rng.IntN(len(alphabet))])
			}
			txt.words = append(txt.words, word{start: start, end: int32(len(txt.runes))})
		}
		compare(&txt)
	}
}
