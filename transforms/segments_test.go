package transforms

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// oldSegments is Segments as it was (every piece built, then some kept):
// the oracle the one-pass version is checked against.
func oldSegments(text string, size, max int) []string {
	var segs []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			segs = append(segs, s)
		}
		cur.Reset()
	}
	for _, r := range text {
		cur.WriteRune(r)
		end := r == '\n' || r == '.' || r == '?' || r == '!' || r == '。' || r == '।' || r == '؟'
		if end && cur.Len() >= size || cur.Len() >= 2*size {
			flush()
		}
	}
	flush()
	if len(segs) <= max {
		return segs
	}
	out := make([]string, 0, max)
	for i := 0; i < max; i++ {
		out = append(out, segs[i*len(segs)/max])
	}
	return out
}

func TestSegmentsAreTheOldOnes(t *testing.T) {
	pieces := []string{"word ", "longer words here ", ". ", "\n", "\n\n\n", "。", "।", "؟", "?", "!", " ", "\u00a0", "\xff", "\xe2\x82", "数学", "\ufffd", "\t"}
	// Valid UTF-8 (read without decoding every character) needs pieces of
	// its own: most strings of the first list are not.
	valid := []string{"word ", "longer words here ", ". ", "\n", "\n\n\n", "。", "।", "؟", "?", "!", " ", "\u00a0", "数学", "\ufffd", "\t", "😀", "é", "ไทย", "\u2028", "\u0085"}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 40_000; n++ {
		from := pieces
		if n%2 == 1 {
			from = valid
		}
		var b strings.Builder
		for k := rng.IntN(300); k >= 0; k-- {
			b.WriteString(from[rng.IntN(len(from))])
		}
		s := b.String()
		size, max := 1+rng.IntN(60), 1+rng.IntN(30)
		if got, want := Segments(s, size, max), oldSegments(s, size, max); !slices.Equal(got, want) {
			t.Fatalf("Segments(%q, %d, %d) =\n%q\nthe old ones\n%q", s, size, max, got, want)
		}
	}
}

func FuzzSegments(f *testing.F) {
	f.Add("Hii ni sentensi. Na nyingine?\n\n数学。 \xff", 10, 3)
	f.Fuzz(func(t *testing.T, s string, size, max int) {
		size, max = 1+int(uint(size)%300), 1+int(uint(max)%30)
		if got, want := Segments(s, size, max), oldSegments(s, size, max); !slices.Equal(got, want) {
			t.Fatalf("Segments(%q, %d, %d) = %q, the old ones %q", s, size, max, got, want)
		}
	})
}
