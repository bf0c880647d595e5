package loop

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzMathProgress checks, besides not panicking:
//   - without a digit, an operator or a backslash there is no math span, so
//     no progress;
//   - a verbatim loop is never progress: a text made of copies of one
//     newline-terminated block, long enough that the first copy lies in the
//     prefix, repeats in its tail only spans that the first copy holds.
//
// Seeds live in testdata/fuzz/FuzzMathProgress. They are kept short (a few
// hundred bytes): the repetition check builds the long, prefix-and-tail
// texts itself, and a large seed makes the fuzzer spend its time minimizing.
func FuzzMathProgress(f *testing.F) {
	f.Add("Mayai yaliyobaki ni 9. Mayai yaliyobaki ni 9.\nMayai yali")
	f.Add("16 - 3 - 4 = 9.\nKwa siku 7:\n9 \\times 7 = 63.\n")
	f.Add("x = 5 na y = 6.\n")
	f.Fuzz(func(t *testing.T, text string) {
		got := MathProgress(text)
		if got && !strings.ContainsFunc(text, func(r rune) bool {
			return unicode.IsDigit(r) || isOperator(r) || r == '\\'
		}) {
			t.Errorf("progress without digit, operator or backslash in %q", text)
		}
		if len(text) > 4096 {
			return // keep the repeated text small
		}
		block := text + "\n"
		copies := ProgressChars/utf8.RuneCountInString(block) + 2
		if MathProgress(strings.Repeat(block, copies)) {
			t.Errorf("%d copies of %q count as progress", copies, block)
		}
	})
}

// FuzzDetect compares Detect with the naive reference on arbitrary token
// sequences (bytes folded onto a small alphabet so loops are common) and
// checks the ranges of the statistics.
func FuzzDetect(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabc"), "Mayai yaliyobaki ni 9. Mayai yali", 100)
	f.Add([]byte{}, "", 0)
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), `\boxed{1}`, -5)
	f.Fuzz(func(t *testing.T, data []byte, text string, budget int) {
		tokens := make([]int, len(data))
		for i, b := range data {
			tokens[i] = int(b % 7)
		}
		got := Detect(tokens, text, budget)
		want := refDetect(tokens, text, budget, MathProgress(text))
		want.Reason = got.Reason
		if got != want {
			t.Fatalf("\n got %+v\nwant %+v", got, want)
		}
		for _, v := range []float64{got.Rep16, got.Rep32, got.TTR256} {
			if v < 0 || v > 1 {
				t.Errorf("statistic %v outside [0,1]: %+v", v, got)
			}
		}
		if got.Motif != (got.MotifLen != 0) || got.MotifLen != 0 && (got.MotifLen < MinMotif || got.MotifLen > MaxMotif) {
			t.Errorf("motif %v of length %d", got.Motif, got.MotifLen)
		}
		if got.Reason == "" {
			t.Error("empty reason")
		}
	})
}
