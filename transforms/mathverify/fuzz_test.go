package mathverify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheck: any gold and prediction give a verdict with a known reason,
// without panicking, in work linear in their length (issue 19): the
// matcher's steps and the passes over what it matched.
func FuzzCheck(f *testing.F) {
	for _, s := range [][2]string{
		{"18", `\boxed{18}`},
		{`$\frac{1}{9}$`, `$x = \frac{1}{9}$`},
		{`$(3,2)$`, `\boxed{(p,q) = (3,2)}`},
		{`$k \geq 2$`, `$2 \le k$`},
		{`$[2,3)$`, `\boxed{[2,3)}`},
		{"0.65", "jawabannya 0,65"},
		{`$\begin{pmatrix}1 & 2\\3 & 4\end{pmatrix}$`, `$\left[\begin{array}{cc}1 & 2\\3 & 4\end{array}\right]$`},
		{"e", `\boxed{\boxed{\boxed{`},
		{"1", strings.Repeat("1 2 3 4 5 6 7 8 9 + ", 50)},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, gold, pred string) {
		if len(gold) > 2000 || len(pred) > 20000 {
			return
		}
		work := 0
		workUnits = &work
		v := Check(gold, pred)
		workUnits = nil
		if runes := utf8.RuneCountInString(gold + pred); work > maxWorkPerRune*runes+1_000_000 {
			t.Fatalf("work %d on %d runes", work, runes)
		}
		switch v.Reason {
		case ReasonMatch, ReasonMismatch, ReasonNoAnswer, ReasonGoldUnparsed:
		default:
			t.Fatalf("unknown reason %q", v.Reason)
		}
		if v.Correct != (v.Reason == ReasonMatch) {
			t.Fatalf("correct=%v with reason %s", v.Correct, v.Reason)
		}
	})
}
