package mathverify

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// extractionDump is every field of an extraction.
func extractionDump(ex extraction) string {
	var b strings.Builder
	dumpNode(&b, ex.value)
	fmt.Fprintf(&b, " %q %q %q %v %v", ex.valueStr, ex.where, ex.fallback, ex.hasFB, ex.aborted)
	return b.String()
}

// plainNumberSamples are plain numbers of every shape and length up to
// maxPlainNumber (signs, leading zeros, decimal points, zeros), and
// texts that are nearly plain numbers and must run the patterns.
func plainNumberSamples() []string {
	var out []string
	for i := range 3000 {
		out = append(out, fmt.Sprint(i), fmt.Sprint(-i), fmt.Sprintf("%d.%d", i/100, i%100), fmt.Sprintf("-%d.%02d", i/100, i%100))
	}
	rng := rand.New(rand.NewPCG(37, 41))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
			if rng.IntN(4) == 0 {
				b[i] = '0'
			}
		}
		return string(b)
	}
	for range 20000 {
		n := 1 + rng.IntN(maxPlainNumber)
		s := digits(n)
		if rng.IntN(3) == 0 && n > 1 {
			k := 1 + rng.IntN(n-1)
			s = s[:k] + "." + s[k+1:]
		}
		if rng.IntN(3) == 0 && len(s) < maxPlainNumber {
			s = "-" + s
		}
		out = append(out, s)
	}
	// Near misses: other characters, two points, signs inside, too long.
	for _, s := range []string{"", "-", ".", "-.", "1.", ".5", "-.5", "1..2", "1.2.3", "--1", "+1", "1-", "1-2", "1,234", "1 234", "1e5", "１２",
		"١٢", "1%", "$1$", "0x10", "1/2", "12.5 ", " 12", "12\n", strings.Repeat("9", maxPlainNumber+1), "-" + strings.Repeat("9", maxPlainNumber)} {
		out = append(out, s)
	}
	return out
}

// Plain numbers extract as the patterns extract them, every field alike;
// near misses are not taken as plain numbers.
func TestPlainNumbersExtractAsBefore(t *testing.T) {
	plain := 0
	for _, s := range plainNumberSamples() {
		fast, ok := extractPlainNumber(s)
		if !ok {
			continue
		}
		plain++
		if got, want := extractionDump(fast), extractionDump(extract(s)); got != want {
			t.Fatalf("%q: as a plain number %s, by the patterns %s", s, got, want)
		}
	}
	if plain < 30000 {
		t.Fatalf("only %d samples taken as plain numbers", plain)
	}
	for _, s := range []string{"", "-", ".", "1.", ".5", "1..2", "+1", "1-2", "1,234", "1e5", "１２", "12.5 ", strings.Repeat("9", maxPlainNumber+1)} {
		if _, ok := extractPlainNumber(s); ok {
			t.Errorf("%q taken as a plain number", s)
		}
	}
}

func FuzzPlainNumbersExtractAsBefore(f *testing.F) {
	for _, s := range []string{"140892", "-12", "0.25", "007", "-00.50", "1.", "12a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := extractPlainNumber(s)
		if !ok {
			return
		}
		if got, want := extractionDump(fast), extractionDump(extract(s)); got != want {
			t.Fatalf("%q: as a plain number %s, by the patterns %s", s, got, want)
		}
	})
}
