package mathverify

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/jsonstr"
)

// jsonStringPieces are what a JSON string's bytes can be: each byte the
// decoder must stop at (quote, every escape, a \u escape, a control
// byte), the notable runes, runes of one to four bytes, and ill-formed
// UTF-8 (a lone continuation byte, a cut sequence, an overlong form, a
// surrogate, a rune past U+10FFFF, the bytes 0xc0, 0xf5 and 0xff).
var jsonStringPieces = []string{
	"a", "A", "x", "12", " ", "~", "\x7f", "!#[]{}", "$", "$$", `\\boxed{`,
	`"`, `\\`, `\"`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\q`, `\`,
	"\x00", "\x1f", "\t", "\n",
	"é", "ж", "中", "ไ", "\uFFFD", "😀", "\U0010FFFF",
	"\x80", "\xbf", "\xc3", "\xe4\xb8", "\xf0\x9f\x98", "\xc0\xaf", "\xe0\x80\xaf",
	"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5", "\xff",
}

// randomJSONString is a quote and then n pieces, most of them runs of
// ASCII (notable runes among them) of every length up to a few words.
func randomJSONString(r *rand.Rand, n int) []byte {
	const ascii = "aaaaAbcde xyz 0123456789$[]}{()=+-.,"
	var sb strings.Builder
	sb.WriteByte('"')
	for k := 0; k < n; k++ {
		if r.IntN(3) > 0 {
			for m := r.IntN(20); m > 0; m-- {
				sb.WriteByte(ascii[r.IntN(len(ascii))])
			}
			continue
		}
		sb.WriteString(jsonStringPieces[r.IntN(len(jsonStringPieces))])
	}
	return []byte(sb.String())
}

// requireDecodedAsByByte fails unless t decodes the string at b[i] as the
// reference does: the same runes (and so the same string), the same end,
// the same refusals, its length in bytes, and a notable index that marks
// what newNotableIndex marks in those runes and nothing past them. A
// string it takes, encoding/json reads as the same text.
func requireDecodedAsByByte(t *testing.T, txt *Text, b []byte, i int) {
	t.Helper()
	next, ok := txt.DecodeJSONString(b, i)
	ws, wnext, wok := jsonstr.ByByte(b, i)
	if ok != wok || ok && next != wnext {
		t.Fatalf("%q from %d: decoded (%d, %v), byte by byte (%q, %d, %v)", b, i, next, ok, ws, wnext, wok)
	}
	if !ok {
		return
	}
	if got := txt.String(); got != ws || txt.size != len(ws) {
		t.Fatalf("%q from %d: decoded %q (%d bytes), byte by byte %q", b, i, got, txt.size, ws)
	}
	var js string
	if err := json.Unmarshal(b[i:next], &js); err != nil || js != ws {
		t.Fatalf("%q from %d: decoded %q, json reads %q (%v)", b, i, ws, js, err)
	}
	want := newNotableIndex([]rune(ws))
	defer want.release()
	if txt.marks.n != want.n {
		t.Fatalf("%q: index of %d runes, want %d", ws, txt.marks.n, want.n)
	}
	for p := range want.planes {
		for w, bits := range txt.marks.planes[p] {
			var wbits uint64
			if w < len(want.planes[p]) {
				wbits = want.planes[p][w]
			}
			if bits != wbits {
				t.Fatalf("%q: plane %d (%q), word %d: marks %064b, want %064b", ws, p, planeRunes[p], w, bits, wbits)
			}
		}
	}
}

// DecodeJSONString reads every string as the byte-at-a-time reference
// does: each piece at each offset from the opening quote (so at each byte
// of a word, and across a word of the index), and generated strings of
// every piece, whole and cut at every length. One Text for all, as
// answers check keeps one.
func TestDecodeJSONStringAsByByte(t *testing.T) {
	txt := new(Text)
	for _, p := range jsonStringPieces {
		for pad := 0; pad <= 70; pad++ {
			for _, tail := range []string{`"`, `x"`, `"rest`, ``, strings.Repeat("A$", 9) + `"`} {
				b := []byte(`"` + strings.Repeat("a", pad) + p + tail)
				requireDecodedAsByByte(t, txt, b, 0)
				requireDecodedAsByByte(t, txt, append([]byte(`{"pred": `), b...), 9)
			}
		}
	}
	r := rand.New(rand.NewPCG(29, 7))
	for k := 0; k < 20_000; k++ {
		b := append(randomJSONString(r, r.IntN(60)), '"')
		requireDecodedAsByByte(t, txt, b, 0)
		for cut := 0; cut < len(b) && k%20 == 0; cut++ {
			requireDecodedAsByByte(t, txt, b[:cut], 0)
		}
	}
}

func FuzzDecodeJSONStringAsByByte(f *testing.F) {
	for _, p := range jsonStringPieces {
		f.Add([]byte(`"abcdefg` + p + `hijklmnop"`))
	}
	txt := new(Text)
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i < len(b) && i < 9; i++ {
			requireDecodedAsByByte(t, txt, b, i)
		}
	})
}

// GradeText grades the text decoded from its JSON string as Grade grades
// the string: the corpus's predictions, plain numbers, texts on either
// side of the length from which the notable index is used, and long demo
// traces; each verdict compared after the next text is decoded into the
// same Text (no verdict keeps a piece of its buffers).
func TestGradeTextAsGrade(t *testing.T) {
	cases := corpusCases(t)
	texts := []string{"", "7", "-12.50", "0012", strings.Repeat("9", maxPlainNumber), strings.Repeat("9", maxPlainNumber+1)}
	golds := []string{"", "7", "-12.5", "12", strings.Repeat("9", maxPlainNumber), strings.Repeat("9", maxPlainNumber+1)}
	for _, c := range cases {
		texts, golds = append(texts, c.Pred), append(golds, c.Gold)
	}
	for _, n := range []int{indexFrom - 40, indexFrom - 39, indexFrom - 38, indexFrom + 10} {
		answer := "So the answer is $\\boxed{\\frac{1}{4}}$.\n"
		texts = append(texts, strings.Repeat("é", (n-len(answer))/2)+answer, strings.Repeat("ab\n", n/3)+answer)
		golds = append(golds, "0.25", "1/4")
	}
	for k, tr := range demoTraces(t, 30_000) {
		texts, golds = append(texts, tr+` The final answer is $\boxed{42}$.`), append(golds, []string{"42", "43"}[k%2])
	}
	txt, decoded := new(Text), 0
	var prev struct {
		want Verdict
		got  Verdict
		text string
	}
	for k, text := range texts {
		var sb strings.Builder
		enc := json.NewEncoder(&sb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(text); err != nil {
			t.Fatal(err)
		}
		if _, ok := txt.DecodeJSONString([]byte(sb.String()), 0); !ok {
			continue // \u escapes (control characters) or invalid UTF-8: encoding/json's
		}
		if k > 0 && prev.got != prev.want {
			t.Fatalf("%.80q: graded from a Text %+v, want %+v", prev.text, prev.got, prev.want)
		}
		decoded++
		g := NewGold(golds[k])
		prev.want, prev.got, prev.text = g.Grade(text), g.GradeText(txt), text
	}
	if prev.got != prev.want {
		t.Fatalf("%.80q: graded from a Text %+v, want %+v", prev.text, prev.got, prev.want)
	}
	if decoded < len(texts)*9/10 {
		t.Fatalf("only %d of %d texts decoded", decoded, len(texts))
	}
}

// BenchmarkDecodeJSONString decodes demo traces of 120 KB in every demo
// language, as JSON strings, into one Text (MB/s of JSON).
func BenchmarkDecodeJSONString(b *testing.B) {
	var lits [][]byte
	size := 0
	for _, tr := range demoTraces(b, 120_000) {
		var sb strings.Builder
		enc := json.NewEncoder(&sb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tr); err != nil {
			b.Fatal(err)
		}
		lits = append(lits, []byte(sb.String()))
		size += sb.Len()
	}
	txt := new(Text)
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, lit := range lits {
			if _, ok := txt.DecodeJSONString(lit, 0); !ok {
				b.Fatalf("%.80q: not decoded", lit)
			}
		}
	}
}
