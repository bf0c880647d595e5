package mathverify

import (
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// appendRunes decodes as []rune(s) does, invalid bytes included, after
// whatever the buffer held.
func TestAppendRunesDecodesAsConversion(t *testing.T) {
	for _, s := range []string{"", "abc", "Jibu ni $\\boxed{7}$", "答案是 $7$", "\xff\xfe a \xe2\x82", "٣১৮é€\U0001F600", "\xed\xa0\x80"} {
		if got := appendRunes(nil, s); !slices.Equal(got, []rune(s)) {
			t.Errorf("%q: %q, want %q", s, got, []rune(s))
		}
		if got := appendRunes([]rune("ab"), s); !slices.Equal(got, []rune("ab"+s)) {
			t.Errorf("after ab, %q: %q", s, got)
		}
	}
}

func FuzzAppendRunes(f *testing.F) {
	f.Add("答案 \xff $x$")
	f.Fuzz(func(t *testing.T, s string) {
		if got := appendRunes(nil, s); !slices.Equal(got, []rune(s)) {
			t.Fatalf("%q: %q, want %q", s, got, []rune(s))
		}
		rs := borrowRunes(s)
		if !slices.Equal(rs, []rune(s)) {
			t.Fatalf("borrowed %q: %q", s, rs)
		}
		returnRunes(rs)
	})
}

// The buffers kept from text to text (the runes, the notable index, the
// matcher's sets) have room for longer texts: grading traces each a
// little longer than the one before allocates less than five texts' runes
// in all, where growing each buffer to fit reallocated them for every
// text (11 MB for these eleven, 2 to 12% longer than the first; what
// remains is about 40 KB of small allocations a text, and the sets of
// patterns the first text did not need). The collector is off, so that
// no pool is emptied meanwhile.
func TestBuffersOutgrowLongerTexts(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	trace := strings.Join(demoTraces(t, 30_000)[:4], "\n")
	texts := make([]string, 12)
	for k := range texts {
		texts[k] = trace[:len(trace)*(100+k)/112] + ` The final answer is $\boxed{7}$.`
	}
	g := NewGold("7")
	g.Grade(texts[0])
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, text := range texts[1:] {
		g.Grade(text)
	}
	runtime.ReadMemStats(&after)
	if grown, runes := after.TotalAlloc-before.TotalAlloc, uint64(4*len(trace)); grown > 5*runes {
		t.Fatalf("%d bytes allocated grading %d texts of %d to %d bytes, more than five texts' runes (%d)", grown, len(texts)-1, len(texts[1]), len(texts[len(texts)-1]), runes)
	}
}
