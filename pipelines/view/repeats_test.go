package view

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/internal/tracegen"
)

// A loop of sentences is folded from the start of a sentence: the copy
// shown is the sentence, and nothing of the last copy (its full stop) is
// left after the fold. Before, the run began at the full stop before the
// first copy, so the page read "…check again" + "repeated 19 more
// times" + ". So x = 3.".
func TestFoldStartsAtASentence(t *testing.T) {
	for _, c := range []struct{ before, unit, after string }{
		{"Let me compute. ", "Wait, let me check again. ", "So x = 3."},
		{"Start! ", "The answer is 12. ", "The answer"}, // cut at the budget inside a copy
		{"<think>\nFirst, the sum. ", "Hmm, is that right? ", "Yes."},
		{"শুরু করি। ", "আবার যাচাই করি। ", "তাহলে উত্তর ১২।"},
		{"まず計算します。", "待って、もう一度確認します。", "答えは12です。"},
		{"先算一下！", "等等，再检查一次！", "答案是12。"},
		{"Intro line\n", "Check the step again\n", "Done\n"},
	} {
		text := c.before + strings.Repeat(c.unit, 20) + c.after
		reps := findRepeats(text)
		if len(reps) != 1 {
			t.Errorf("%q: %d folds, want 1", text[:60], len(reps))
			continue
		}
		r := reps[0]
		if got := text[r.Start:r.UnitEnd]; got != c.unit {
			t.Errorf("%q: shows %q, want %q", c.unit, got, c.unit)
		}
		if got := strings.TrimSpace(text[r.End:]); got != strings.TrimSpace(c.after) {
			t.Errorf("%q: %q after the fold, want %q", c.unit, got, c.after)
		}
		if r.Copies != 20 {
			t.Errorf("%q: %d copies, want 20", c.unit, r.Copies)
		}
	}
}

// A loop with no sentence end in it (Thai writes none) is folded as before,
// from where its period begins.
func TestFoldWithoutSentenceEnds(t *testing.T) {
	text := "เริ่ม " + strings.Repeat("ตรวจสอบอีกครั้ง ", 30) + "จบ"
	reps := findRepeats(text)
	if len(reps) != 1 || reps[0].Copies < 29 {
		t.Fatalf("%+v", reps)
	}
}

// FuzzFindRepeats: on any text the folds are in order, apart, inside the
// text, each a run of its first copy; and the search's steps stay within
// a few times its budget (the time a hostile trace can cost a page).
func FuzzFindRepeats(f *testing.F) {
	for _, s := range []string{
		"Let me compute. " + strings.Repeat("Wait, let me check again. ", 20) + "So x = 3.",
		strings.Repeat("a", 500), strings.Repeat("。", 300), strings.Repeat("ab. ", 100) + "a",
		"x\n" + strings.Repeat("line one\nline two\n", 40), strings.Repeat("1, 1, ", 50),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rf := newRepeatFinder(text)
		reps := rf.choose()
		last := 0
		for _, r := range reps {
			if r.Start < last || r.Start >= r.UnitEnd || r.UnitEnd >= r.End || r.End > len(text) || r.Copies < minCopies {
				t.Fatalf("fold %+v after %d in %d bytes", r, last, len(text))
			}
			last = r.End
		}
		if limit := 4*workBudget + 64*len(text); rf.steps > limit {
			t.Fatalf("%d steps on %d bytes (limit %d)", rf.steps, len(text), limit)
		}
	})
}

// runsAtEveryPosition is the search repeatFinder.runs replaced: every
// position of every period compared, a run ended at each mismatch.
func runsAtEveryPosition(f *repeatFinder, ids []int32, maxPeriod int, startsUnit func(int) bool, toTokens func(start, unitEnd, end int) (int, int, int)) {
	m := len(ids)
	if m == 0 {
		return
	}
	periods := min(maxPeriod, m/minCopies, max(1, f.budget/(2*m)))
	for p := 1; p <= periods; p++ {
		run := 0
		for i := p; i <= m; i++ {
			if i < m && ids[i] == ids[i-p] {
				run++
				continue
			}
			if (run+p)/p >= minCopies {
				f.found(p, i, run, startsUnit, toTokens)
			}
			run = 0
		}
	}
}

// sameRunsAsEveryPosition checks that the search finds the candidates,
// in the same order, that a comparison at every position finds, and so
// the same folds.
func sameRunsAsEveryPosition(t *testing.T, text string) {
	t.Helper()
	got, want := newRepeatFinder(text), newRepeatFinderWith(text, runsAtEveryPosition)
	if !slices.Equal(got.cands, want.cands) {
		t.Fatalf("%d candidates, want %d (text of %d bytes: %.80q)", len(got.cands), len(want.cands), len(text), text)
	}
	if g, w := got.choose(), want.choose(); !slices.Equal(g, w) {
		t.Fatalf("folds %+v, want %+v", g, w)
	}
}

// Loops of every kind the page meets, in long generated traces: words,
// sentences, lines and paragraphs repeated, with and without sentence
// ends, in several scripts, beside runs too short to fold; and random
// texts over small alphabets, where runs of every period overlap.
func TestRunsAsAtEveryPosition(t *testing.T) {
	units := []string{"Wait, let me check again. ", "1, 1, ", "ab. ", "x", "Check the step again\n", "আবার যাচাই করি। ",
		"待って、もう一度確認します。", "ตรวจสอบอีกครั้ง ", "So $x = 3$.\n\n", "line one\nline two\n", strings.Repeat("word ", 40) + ".\n"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for seed := range 200 {
		var b strings.Builder
		for b.Len() < 2_000+rnd.IntN(40_000) {
			switch rnd.IntN(4) {
			case 0:
				b.WriteString(strings.Repeat(units[rnd.IntN(len(units))], 1+rnd.IntN(30)))
			case 1:
				for range 1 + rnd.IntN(200) {
					b.WriteByte("ab .\n"[rnd.IntN(5)])
				}
			default:
				fmt.Fprintf(&b, "Step %d gives %d. ", seed, rnd.IntN(100))
			}
		}
		sameRunsAsEveryPosition(t, b.String())
	}
	for _, text := range []string{"", "a", "a a", "a a a", strings.Repeat("a ", 3), strings.Repeat("ab", 1000), strings.Repeat("。", 300)} {
		sameRunsAsEveryPosition(t, text)
	}
}

func FuzzRunsAsAtEveryPosition(f *testing.F) {
	for _, s := range []string{
		"Let me compute. " + strings.Repeat("Wait, let me check again. ", 20) + "So x = 3.",
		strings.Repeat("a", 500), strings.Repeat("ab. ", 100) + "a", "x\n" + strings.Repeat("line one\nline two\n", 40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { sameRunsAsEveryPosition(t, text) })
}

// BenchmarkFindRepeats times the folds of a 38 KB trace (the paper's high
// level's median, 7,600 tokens) in Bengali and in English, against the
// search at every position.
func BenchmarkFindRepeats(b *testing.B) {
	for _, lang := range []string{"bn", "en"} {
		text := tracegen.Write(tracegen.Trace{Prose: testenv.DemoQuestions(b, lang), Bytes: 38_000, Answer: "42", Seed: 7})
		for _, s := range []struct {
			name string
			runs runSearch
		}{{"stride", (*repeatFinder).runs}, {"every-position", runsAtEveryPosition}} {
			b.Run(lang+"/"+s.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					newRepeatFinderWith(text, s.runs).choose()
				}
			})
		}
	}
}
