package mathverify

import (
	"slices"
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
