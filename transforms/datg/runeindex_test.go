package datg

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkRuneIndex compares runeIndex with counting the characters from the
// start of the text, at every character boundary of its valid prefix.
func checkRuneIndex(t *testing.T, text string) {
	t.Helper()
	tr := NewTrace(text)
	for i := 0; i <= tr.validTo; i++ {
		if i < len(text) && !utf8.RuneStart(text[i]) {
			continue
		}
		if got, want := tr.runeIndex(i), utf8.RuneCountInString(text[:i]); got != want {
			t.Fatalf("runeIndex(%d) = %d, want %d (text of %d bytes, valid to %d)", i, got, want, len(text), tr.validTo)
		}
	}
}

// TestRuneIndexCountsCharacters checks the checkpointed count against
// utf8.RuneCountInString on texts of one- to four-byte characters crossing
// many checkpoints, some with invalid bytes past a valid prefix.
func TestRuneIndexCountsCharacters(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 9))
	pieces := []string{"a", "7 = 3 + 4. ", "é", "ß", "–", "नमस्ते", "你好", "𝑥", "😀", "\n\n", "Kwanza "}
	for trial := range 60 {
		var b strings.Builder
		for b.Len() < rnd.IntN(3*runeIndexStride*(trial%5+1))+1 {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		text := b.String()
		if trial%4 == 0 {
			cut := rnd.IntN(len(text) + 1)
			text = text[:cut] + "\xff" + text[cut:] // an invalid byte: the valid prefix ends there
		}
		if trial%7 == 0 && len(text) > 2 {
			text = text[:len(text)-1] // maybe a character cut short at the end
		}
		checkRuneIndex(t, text)
	}
	checkRuneIndex(t, "")
}

func FuzzRuneIndex(f *testing.F) {
	f.Add("7 = 3 + 4 donc", 3)
	f.Add("नमस्ते\xff你好", 40)
	f.Fuzz(func(t *testing.T, piece string, repeat int) {
		// Repeated so the text crosses checkpoints.
		checkRuneIndex(t, strings.Repeat(piece, 1+abs(repeat)%64))
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
