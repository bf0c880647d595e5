package lingua

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/transforms"
	linguago "github.com/pemistahl/lingua-go"
)

// reference is lingua-go itself, built as langcheck built it before this
// package: the study's languages, models preloaded, low-accuracy mode.
func reference(t testing.TB) (linguago.LanguageDetector, map[linguago.Language]int) {
	t.Helper()
	var langs []linguago.Language
	index := map[linguago.Language]int{}
	for i, code := range codes {
		l := linguago.GetLanguageFromIsoCode639_1(linguago.GetIsoCode639_1FromValue(strings.ToUpper(code)))
		if l == linguago.Unknown {
			t.Fatalf("lingua-go does not know %q", code)
		}
		langs = append(langs, l)
		index[l] = i
	}
	return linguago.NewLanguageDetectorBuilder().FromLanguages(langs...).WithPreloadedLanguageModels().WithLowAccuracyMode().Build(), index
}

// comparison runs both detectors on texts and fails on any difference
// where lingua-go's answer does not depend on its map order.
type comparison struct {
	t         testing.TB
	fast      *Detector
	ref       linguago.LanguageDetector
	index     map[linguago.Language]int
	texts     int
	ambiguous int // lingua-go's sums too close to call
	tied      int // scripts tied in lingua-go's filter
	byLang    map[int]int
}

func newComparison(t testing.TB) *comparison {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ref, index := reference(t)
	return &comparison{t: t, fast: d, ref: ref, index: index, byLang: map[int]int{}}
}

func (c *comparison) check(text string) {
	c.t.Helper()
	want := -1
	if l, ok := c.ref.DetectLanguageOf(text); ok {
		want = c.index[l]
	}
	got, ties, ambiguous := c.fast.detectPicking(text, 0)
	c.texts++
	c.byLang[want]++
	if ambiguous {
		c.ambiguous++
		return
	}
	// Where scripts tie in lingua-go's filter, lingua-go picks one at
	// random: its answer must be the answer for one of them.
	answers := []int{got}
	for pick := 1; pick < ties; pick++ {
		l, _, ambiguous := c.fast.detectPicking(text, pick)
		if ambiguous {
			c.ambiguous++
			return
		}
		answers = append(answers, l)
	}
	if ties > 1 {
		c.tied++
	}
	if !slices.Contains(answers, want) {
		c.t.Fatalf("text %q: got %s, lingua-go %s", text, names(answers), name(want))
	}
}

func names(ls []int) string {
	var out []string
	for _, l := range ls {
		out = append(out, name(l))
	}
	return strings.Join(out, " or ")
}

func (c *comparison) report() {
	c.t.Logf("%d texts: %d with sums too close to call, %d with scripts tied; lingua-go's answers: %v", c.texts, c.ambiguous, c.tied, c.byLang)
}

func name(l int) string {
	if l < 0 {
		return "unknown"
	}
	return codes[l]
}

// TestSameDecisionsAsLinguaGo compares the detector with lingua-go on every
// segment langcheck reads of generated traces in each study language (and
// of the same traces with math stripped), on every prefix of a few hundred
// characters of each language's prose (the sums then cross lingua-go's
// exponent ranges: normal, subnormal, decimal), and on odd texts.
func TestSameDecisionsAsLinguaGo(t *testing.T) {
	c := newComparison(t)
	english := testenv.DemoQuestions(t, "en")
	for _, code := range codes {
		prose := testenv.DemoQuestions(t, code)
		for seed := range uint64(3) {
			text := tracegen.Write(tracegen.Trace{Prose: prose, English: english, Bytes: 30_000, Cut: seed == 2, Answer: "42", Seed: seed})
			for _, s := range transforms.Segments(text, 200, 1000) {
				c.check(s)
			}
			for _, s := range transforms.Segments(transforms.StripMath(text), 200, 1000) {
				c.check(s)
			}
		}
		joined := strings.Join(prose, " ")
		for _, start := range []int{0, len(joined) / 3} {
			runes := []rune(joined[start:])
			runes = runes[:min(len(runes), 600)]
			for n := 1; n <= len(runes); n++ {
				c.check(string(runes[:n]))
			}
		}
	}
	for _, s := range oddTexts(t) {
		c.check(s)
	}
	c.report()
}

// oddTexts are mixed scripts and languages, texts without letters, very
// short ones, emoji, invalid UTF-8, capitals, and the letters lingua-go's
// rules and filter look at.
func oddTexts(t testing.TB) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	var prose [][]string
	for _, code := range codes {
		prose = append(prose, strings.Fields(strings.Join(testenv.DemoQuestions(t, code), " ")))
	}
	words := func(lang, n int) string {
		ws := prose[lang]
		i := rng.IntN(len(ws))
		return strings.Join(ws[i:min(len(ws), i+n)], " ")
	}
	out := []string{
		"", " ", "123 456", "3.14159 + 2 = 5.14", "!!!", "$$ \\frac{1}{2} $$", "😀😀😀 🎉",
		"a", "ab", "abc", "Ab", "x y z", "é", "ça", "ÇA VA", "élève", "Ёж", "ёлка", "中", "中文", "日本", "ひらがな", "カタカナ",
		"한국어", "ไทย", "বাংলা", "తెలుగు", "\xff\xfe\xfd", "abc\xffdef", "\xe4\xb8", "naïve café résumé",
		"Привет world", "hello мир", "hello мир 中文", "hello мир 中 文", "one two мир мир 中", "abc中文def", "中文abc",
		"漢字とかな", "漢字 かな", "한국 中國", "ⅰⅱⅲ", "〇〆々", "⺀⺁", "ǅemal", "ΑΒΓ", "שלום עולם", "مرحبا بالعالم",
		"Ⅻ mixed", "İstanbul", "straße", "ﬁnance", strings.Repeat("a", 500), strings.Repeat("ab ", 300),
	}
	// Runs of letters that start in Latin hold the Han, Hangul and kana
	// that follow (one word for lingua-go's rules, counted per letter).
	scripts := []string{"漢", "字", "か", "カ", "한", "국", "ไ", "ท", "ব", "া", "త", "ె", "ж", "é", "x"}
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString([]string{"a", "x", "", "ab"}[rng.IntN(4)])
			for range 1 + rng.IntN(4) {
				b.WriteString(scripts[rng.IntN(len(scripts))])
			}
			b.WriteString([]string{" ", "", "1", "。"}[rng.IntN(4)])
		}
		out = append(out, b.String())
	}
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			lang := rng.IntN(numLanguages)
			w := words(lang, 1+rng.IntN(12))
			switch rng.IntN(6) {
			case 0:
				w = strings.ToUpper(w)
			case 1:
				r := []rune(w)
				w = string(r[:rng.IntN(len(r)+1)])
			case 2:
				w += fmt.Sprintf(" %d 😀 ", rng.IntN(1000))
			case 3:
				w = strings.ReplaceAll(w, "e", "é")
			case 4:
				w = string([]byte(w)[:rng.IntN(len(w)+1)]) // may cut a rune
			}
			b.WriteString(w)
			b.WriteByte(' ')
		}
		out = append(out, b.String())
	}
	for i := range out {
		if rng.IntN(10) == 0 && utf8.ValidString(out[i]) && len(out[i]) > 0 {
			b := []byte(out[i])
			b[rng.IntN(len(b))] = 0xff
			out = append(out, string(b))
		}
	}
	return out
}

// FuzzSameDecisionsAsLinguaGo compares the detector with lingua-go on any
// text.
//
//	go test ./internal/lingua -run '^$' -fuzz FuzzSameDecisionsAsLinguaGo -fuzztime 3m
func FuzzSameDecisionsAsLinguaGo(f *testing.F) {
	for _, s := range oddTexts(f)[:200] {
		f.Add(s)
	}
	c := newComparison(f)
	f.Fuzz(func(t *testing.T, text string) {
		c.t = t
		c.check(text)
	})
}
