package langdetect

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// prepareWhole is prepare as it was, the passes run over the whole text:
// the oracle prepare's bounded reading is checked against.
func (m *model) prepareWhole(text string, maxTextLength int) []rune {
	return refFirstChars(m.spaceOutAndCompose([]rune(text)), maxTextLength)
}

// Texts around the length where prepare stops reading, full of what the
// passes replace (URLs and mail addresses up to their longest, runs of
// mail characters with and without an '@', Vietnamese vowels and marks)
// at every place, read with limits from a few characters to past the
// text: prepare gives what reading the whole text gives.
func TestPrepareReadsOnlyWhatItKeeps(t *testing.T) {
	m, err := loadModel()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	const mailChars = "abcXYZ019-_."
	pieces := []func() string{
		func() string { return "http://" + run("abz/?=#.-", 1+rng.IntN(2100)) },
		func() string { return "https://" + run("abz/?=#.-", 1+rng.IntN(3000)) },
		func() string {
			return run(mailChars, 1+rng.IntN(100)) + "@" + run("ab-_", 1+rng.IntN(300)) + run(mailChars, rng.IntN(300))
		},
		func() string { return run(mailChars, 1+rng.IntN(5000)) },
		func() string { return run(mailChars, 1+rng.IntN(5000)) + "@" },
		func() string { return "A\u0300e\u0301ơ\u0303ư\u0309y\u0323 " },
		func() string { return "Kiswahili ni lugha nzuri. " },
		func() string { return "数学是美丽的。" },
		func() string { return strings.Repeat(" ", 1+rng.IntN(50)) },
		func() string { return "\xff\xfe" },
	}
	for n := 0; n < 400; n++ {
		var b strings.Builder
		target := rng.IntN(40_000)
		for b.Len() < target {
			b.WriteString(pieces[rng.IntN(len(pieces))]())
		}
		text := b.String()
		for _, limit := range []int{1 + rng.IntN(50), 1 + rng.IntN(12_000), DefaultMaxTextLength} {
			if got, want := m.prepare(text, limit), m.prepareWhole(text, limit); !slices.Equal(got, want) {
				t.Fatalf("text %d (%d bytes), limit %d: prepare keeps %d characters, the whole text's preparation %d, first difference at %d",
					n, len(text), limit, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []rune) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// FuzzPrepareReadsOnlyWhatItKeeps: the same on any text, with a small
// limit (the margin still applies in full).
func FuzzPrepareReadsOnlyWhatItKeeps(f *testing.F) {
	fuzzSeeds(f)
	m, err := loadModel()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, limit := range []int{1, 50} {
			if got, want := m.prepare(text, limit), m.prepareWhole(text, limit); !slices.Equal(got, want) {
				t.Fatalf("prepare(%q, %d) = %q, the whole text's %q", text, limit, string(got), string(want))
			}
		}
	})
}

// TestPrepareDecodesAsRange: the characters prepare decodes from the text
// in place are those a range loop reads, for every lead byte followed by
// every second byte, then a continuation byte, another byte or the end
// (overlong forms, surrogates, truncated and four-byte sequences), in a
// Latin text and a Cyrillic one (which loses its Latin letters).
func TestPrepareDecodesAsRange(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for c := range 256 {
		for c1 := range 256 {
			for _, rest := range []string{"", "\x80", "\xbf", "a", "\xc0", "\x80\x80", "\xbfa"} {
				seq := string([]byte{byte(c), byte(c1)}) + rest
				for _, text := range []string{seq, "ab " + seq + " é", "мир мир " + seq + " ab"} {
					if got, want := d.m.prepare(text, 10_000), d.m.refPrepare(text, 10_000); !slices.Equal(got, want) {
						t.Fatalf("%q: prepared %q, the reference %q", text, string(got), string(want))
					}
				}
			}
		}
	}
}
