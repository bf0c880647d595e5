package view

import (
	"strings"
	"testing"
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
