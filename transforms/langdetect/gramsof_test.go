package langdetect

import (
	"slices"
	"strings"
	"testing"
)

// TestGramsOfIsPrepareThenExtract: gramsOf, which reads a text straight
// into its characters' charInfo when nothing would be replaced, gives the
// grams (ids, in order) of extract over prepare's runes, on the study's
// traces, random texts (capitals, kana, Hangul, Kanji, Vietnamese marks,
// characters beyond the BMP, URLs, mail, invalid UTF-8) and the written
// sentences, with Latin runs added to texts in other scripts (kept, or
// dropped by cleaning_text), each memo kept from text to text.
func TestGramsOfIsPrepareThenExtract(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := append(studyTraces(t), randomTexts(3000, 11)...)
	for _, w := range written {
		texts = append(texts, w, strings.ToUpper(w), w+" x^2 + y = z  [a]  `b`  "+w, "abc  xyz "+w+"  Q  R")
	}
	var fused scratch
	var memo wordMemo
	dropped, read := 0, 0
	for _, max := range []int{DefaultMaxTextLength, 50} {
		for i, text := range texts {
			got := slices.Clone(d.m.gramsOf(&fused, text, max))
			prepared := d.m.prepare(text, max)
			want := d.m.grams.extract(prepared, nil, &memo)
			if !slices.Equal(got, want) {
				t.Fatalf("text %d %q (first %d): grams %v, want %v", i, short(text), max, got, want)
			}
			if !d.m.mayReplace(text, max+prepareMargin) {
				read++
				if first := appendFirstRunes(nil, []rune(text), max); len(cleanLatin(slices.Clone(first))) < len(first) {
					dropped++
				}
			}
		}
	}
	t.Logf("%d texts read at once, %d of them losing their Latin letters", read, dropped)
	if read < 500 || dropped < 100 {
		t.Fatalf("%d texts read at once, %d losing their Latin letters: the test should hold more of both", read, dropped)
	}
}
