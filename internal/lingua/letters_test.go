package lingua

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/transforms"
)

// checkDetectLetters fails unless DetectLetters counts text's letters as
// transforms.Letters does and detects it as Detect does when it holds
// minLetters letters or more (and not otherwise).
func checkDetectLetters(t testing.TB, d *Detector, text string, minLetters int) {
	t.Helper()
	code, ok, letters := d.DetectLetters(text, minLetters)
	if want := transforms.Letters(text); letters != want {
		t.Fatalf("%q: %d letters, transforms.Letters %d", text, letters, want)
	}
	wantCode, wantOK := "", false
	if letters >= minLetters {
		wantCode, wantOK = d.Detect(text)
	}
	if code != wantCode || ok != wantOK {
		t.Fatalf("%q (at least %d letters): %q %v, want %q %v", text, minLetters, code, ok, wantCode, wantOK)
	}
}

// TestDetectLettersIsLettersThenDetect compares DetectLetters with
// transforms.Letters and Detect on every segment of generated traces in
// each study language, the odd texts of the differential test (mixed
// scripts, capitals, invalid UTF-8), and random texts drawn from letters
// and non-letters of every kind: ASCII, Latin-1 (ª, º, µ, ×), other BMP
// letters whose lower case changes, Han, kana, Hangul, marks, and
// characters beyond the BMP (letters, emoji).
func TestDetectLettersIsLettersThenDetect(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	english := testenv.DemoQuestions(t, "en")
	for _, code := range codes {
		text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(t, code), English: english, Bytes: 20_000, Answer: "42", Seed: 1})
		texts = append(texts, transforms.Segments(text, 200, 1000)...)
	}
	texts = append(texts, oddTexts(t)...)
	pieces := []string{"a", "Z", " ", "1", "$", "ª", "º", "µ", "×", "÷", "À", "ǅ", "İ", "Ω", "ж", "Ж", "中", "か", "カ", "한", "ా", "\u0301",
		"ⅰ", "Ⅻ", "〇", "々", "𝐀", "𠀀", "𐐀", "😀", "\xff", "\xe4\xb8", "\xf0\x9f", "\xed\xa0\x80", "ﬁ", "ß"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		for _, minLetters := range []int{0, 3, 10} {
			checkDetectLetters(t, d, text, minLetters)
		}
	}
}

// FuzzDetectLetters compares DetectLetters with transforms.Letters and
// Detect on any text.
//
//	go test ./internal/lingua -run '^$' -fuzz FuzzDetectLetters -fuzztime 1m
func FuzzDetectLetters(f *testing.F) {
	for _, s := range oddTexts(f)[:200] {
		f.Add(s, 3)
	}
	d, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, minLetters int) {
		checkDetectLetters(t, d, text, minLetters%16)
	})
}

// The split reads a character's kind for its lower case's: lowering keeps
// a character of the Basic Multilingual Plane in its alphabet, a letter or
// not.
func TestLoweringKeepsTheKind(t *testing.T) {
	bmpOnce.Do(buildBMP)
	for r := range rune(1 << 16) {
		lower := bmp[r].lower
		var kind uint8
		if lower < 1<<16 {
			kind = bmp[lower].kind
		} else {
			kind = kindOf(lower)
		}
		if kind != bmp[r].kind {
			t.Errorf("%U (kind %#x) lowers to %U (kind %#x)", r, bmp[r].kind, lower, kind)
		}
	}
}
