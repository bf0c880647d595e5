package langdetect

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
	"github.com/datg/datg/study"
)

// The fast detector against the one it replaced (reference_test.go): the
// same grams drawn from every text (as their profile entries), the same
// probabilities to the bit, the same languages.

// sameEntries compares the fast model's grams with the reference's, as the
// profile entries (language, probability) each stands for.
func sameEntries(m *model, ids []int32, rm *refModel, refIDs []int32) error {
	if len(ids) != len(refIDs) {
		return fmt.Errorf("%d grams, the reference %d", len(ids), len(refIDs))
	}
	for i := range ids {
		got := m.entries[m.start[ids[i]]:m.start[ids[i]+1]]
		want := rm.entries[rm.start[refIDs[i]]:rm.start[refIDs[i]+1]]
		if !slices.Equal(got, want) {
			return fmt.Errorf("gram %d: entries %v, the reference %v", i, got, want)
		}
	}
	return nil
}

// compareWithReference checks one text under opt.
func compareWithReference(t *testing.T, d *Detector, rm *refModel, opt Options, text string) {
	t.Helper()
	prepared := d.m.prepare(text, d.maxTextLength)
	if want := d.m.refPrepare(text, d.maxTextLength); !slices.Equal(prepared, want) {
		t.Fatalf("%q: prepared %q, the reference %q", short(text), string(prepared), string(want))
	}
	if err := sameEntries(d.m, d.m.grams.extract(prepared, nil, &wordMemo{}), rm, rm.extract(prepared)); err != nil {
		t.Fatalf("%q: %v", short(text), err)
	}
	probs, errNew := d.probabilities(text)
	wantLangs, wantProbs, errRef := refDetectLangs(rm, d.m, opt, text)
	if !errors.Is(errNew, ErrNoFeatures) && errNew != nil || (errNew == nil) != (errRef == nil) {
		t.Fatalf("%q: error %v, the reference %v", short(text), errNew, errRef)
	}
	for i := range probs {
		if math.Float64bits(probs[i]) != math.Float64bits(wantProbs[i]) {
			t.Fatalf("%q: P(%s) = %v, the reference %v", short(text), rm.langs[i], probs[i], wantProbs[i])
		}
	}
	got, _ := d.DetectLangs(text)
	if !slices.Equal(got, wantLangs) {
		t.Fatalf("%q: %v, the reference %v", short(text), got, wantLangs)
	}
}

func newBoth(t testing.TB, opt Options) (*Detector, *refModel) {
	d, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	rm, err := loadRefModel()
	if err != nil {
		t.Fatal(err)
	}
	return d, rm
}

// TestProfilesIndexedAsBefore: every n-gram of the profiles a text can
// hold (its characters are their own normalized forms; profiles also hold
// grams such as Hangul syllables that normalization folds away) finds,
// through the new table, the entries it had in the reference's map.
func TestProfilesIndexedAsBefore(t *testing.T) {
	d, rm := newBoth(t, Options{})
	if !slices.Equal(d.m.langs, rm.langs) {
		t.Fatalf("languages %v, the reference %v", d.m.langs, rm.langs)
	}
	if len(d.m.start) != len(rm.start) {
		t.Fatalf("%d grams, the reference %d", len(d.m.start)-1, len(rm.start)-1)
	}
	tab := d.m.grams
	reachable := 0
	for g, refID := range rm.ids {
		var key uint64
		var rs []rune
		for i := 2; i >= 0; i-- {
			if r := rune(g >> (21 * i) & (1<<21 - 1)); r != 0 {
				rs = append(rs, r)
				key = key<<tab.charBits | uint64(tab.charInfoOf(r)&charIDs)
			}
		}
		if slices.ContainsFunc(rs, func(r rune) bool { return d.m.norm.normalizeRune(r) != r }) {
			continue
		}
		reachable++
		id := int32(-1)
		if len(rs) == 1 {
			id = int32(tab.charInfoOf(rs[0])&charUniMask>>32) - 1
		} else {
			id = tab.keys.find(key)
		}
		if id < 0 {
			t.Fatalf("gram %q not found", string(rs))
		}
		if err := sameEntries(d.m, []int32{id}, rm, []int32{refID}); err != nil {
			t.Fatalf("gram %q: %v", string(rs), err)
		}
	}
	t.Logf("%d of %d grams reachable from a text", reachable, len(rm.ids))
}

// studyTraces are generated long traces in the study's 12 languages (the
// demo set's questions as prose, English mixed in), 1-40 KB, cut or not.
func studyTraces(t testing.TB) []string {
	var out []string
	en := testenv.DemoQuestions(t, "en")
	seed := uint64(0)
	for _, l := range study.Languages() {
		prose := testenv.DemoQuestions(t, l.Code)
		for _, size := range []int{1_000, 6_000, 15_000, 40_000} {
			seed++
			out = append(out, tracegen.Write(tracegen.Trace{Prose: prose, English: en, Bytes: size, Cut: seed%2 == 0, Answer: "42", Seed: seed}))
		}
	}
	return out
}

// randomTexts mix what extraction treats specially: spaces and what
// normalizes to a space (digits, punctuation), runs of capitals (Latin,
// Greek, Cyrillic, title case, Other_Uppercase), Kana, Hangul, Kanji of
// the normalization classes and others, Vietnamese marks, characters of
// no profile, characters outside the Basic Multilingual Plane (an
// uppercase mathematical letter among them), URLs, mail addresses and
// invalid UTF-8.
func randomTexts(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 99))
	pieces := []string{
		" ", "  ", "\n", "7", "3.14", ", ", "—", "a", "b", "the", "ABC", "A", "Zürich", "ÉTÉ", "ΑΒΓ", "αβγ", "ПРИВЕТ", "мир",
		"ǅ", "ǈ", "Ⅻ", "Ⓐ", "ⓐ", "ア", "ゃ", "ㄅ", "가", "한국", "数学", "是", "丂", "龥", "ﾊ", "ش", "ی", "ț", "ș",
		"e\u0301", "ơ\u0303", "ệ", "ḁ", "ỳ", "\U0001D400", "\U0001D41A", "😀", "\U00020000", "ß", "İ", "ı", "\u00a0",
		"https://x.org/a?b=c", "mail@host.org", "\xff", "\u200b", "ஆ", "ক", "ไ", "ע", "ა",
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := rng.IntN(200); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		out[i] = b.String()
	}
	return out
}

func TestDetectLangsAsBefore(t *testing.T) {
	texts := append(studyTraces(t), written...)
	texts = append(texts, randomTexts(3000, 1)...)
	for _, w := range written {
		texts = append(texts, strings.ToUpper(w), strings.Repeat(w+" ", 300), w[:len(w)/2])
	}
	for _, opt := range []Options{{}, {Seed: 7}, {Seed: 1, MaxTextLength: 300, Trials: 3, Alpha: 0.3}} {
		d, rm := newBoth(t, opt)
		for _, text := range texts {
			compareWithReference(t, d, rm, opt, text)
		}
	}
}

// PolyMath's questions, where the copy is present.
func TestDetectLangsAsBeforeOnPolyMath(t *testing.T) {
	d, rm := newBoth(t, Options{})
	texts := polymathQuestions(t, 40)
	for _, text := range texts {
		compareWithReference(t, d, rm, Options{}, text)
	}
	t.Logf("%d questions", len(texts))
}

func FuzzDetectLangsAsBefore(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range randomTexts(50, 2) {
		f.Add(s)
	}
	d, rm := newBoth(f, Options{})
	f.Fuzz(func(t *testing.T, text string) {
		compareWithReference(t, d, rm, Options{}, text)
	})
}

// TestWordMemoAcrossTexts: extraction with one memo kept from text to text
// (as the pooled scratch keeps it) finds the reference's grams in every
// text: a word's grams taken from an earlier text are the grams it has
// here. The texts hold enough different words to fill the memo, so it is
// also emptied and filled again several times.
func TestWordMemoAcrossTexts(t *testing.T) {
	d, rm := newBoth(t, Options{})
	texts := append(studyTraces(t), randomTexts(2000, 3)...)
	for _, w := range written {
		texts = append(texts, w, strings.ToUpper(w), strings.Repeat(w+" ", 50))
	}
	texts = append(texts, studyTraces(t)...) // again, after the memo filled
	var memo wordMemo
	for i, text := range texts {
		prepared := d.m.prepare(text, d.maxTextLength)
		if err := sameEntries(d.m, d.m.grams.extract(prepared, nil, &memo), rm, rm.extract(prepared)); err != nil {
			t.Fatalf("text %d %q: %v", i, short(text), err)
		}
	}
	t.Logf("%d texts, the memo emptied %d times", len(texts), memo.resets)
	if memo.resets < 2 {
		t.Fatalf("the memo was emptied %d times over %d texts, want 2 or more", memo.resets, len(texts))
	}
}

// TestWordMemoSameHash: words whose hashes are equal (given here, as they
// would rarely be) are still told apart by their characters, each getting
// its own grams, remembered or not.
func TestWordMemoSameHash(t *testing.T) {
	d, _ := newBoth(t, Options{})
	tab := d.m.grams
	var memo wordMemo
	for round := range 3 {
		for _, w := range []string{"habari ", "jambo ", "hello ", "world ", "samaki "} {
			var word []charInfo
			for _, r := range w {
				word = append(word, tab.charInfoOf(r))
			}
			want := make([]int32, 3*len(word))
			want = want[:tab.wordGrams(word, want, 0)]
			for _, hash := range []uint64{42, 42 | 7<<(64-memoBits)} { // one slot for all, then another
				got := make([]int32, 3*len(word))
				got = got[:memo.wordGrams(tab, word, hash, got, 0)]
				if !slices.Equal(got, want) {
					t.Fatalf("round %d, %q, hash %#x: grams %v, want %v", round, w, hash, got, want)
				}
			}
		}
	}
}

// TestDenseRowsAreTheEntries: a dense gram's row holds its entries'
// probabilities, each at its language, and 0 elsewhere; the other grams
// have fewer than denseMinLangs entries.
func TestDenseRowsAreTheEntries(t *testing.T) {
	d, _ := newBoth(t, Options{})
	m, n := d.m, len(d.m.langs)
	if len(m.dense) != int(m.nDense)*n {
		t.Fatalf("%d dense values for %d grams of %d languages", len(m.dense), m.nDense, n)
	}
	for id := range int32(len(m.start) - 1) {
		entries := m.entries[m.start[id]:m.start[id+1]]
		if id >= m.nDense {
			if len(entries) >= denseMinLangs {
				t.Fatalf("gram %d: %d entries, not dense", id, len(entries))
			}
			continue
		}
		want := make([]float64, n)
		for _, e := range entries {
			want[e.lang] = e.prob
		}
		if row := m.dense[int(id)*n:][:n]; !slices.Equal(row, want) {
			t.Fatalf("gram %d: row %v, entries %v", id, row, entries)
		}
	}
	t.Logf("%d dense grams of %d", m.nDense, len(m.start)-1)
}
