package mathverify

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A kept gold grades every prediction as a gold parsed afresh (Check),
// whatever it graded before and however often it is met again; a gold met
// again while kept is not parsed again; no more than the capacity is kept.
func TestGoldsGradeAsNewGold(t *testing.T) {
	cases := corpusCases(t)
	rng := rand.New(rand.NewPCG(43, 47))
	const capacity = 64
	golds := NewGolds(capacity)
	hits := 0
	for i := range 20000 {
		// Golds drawn from a few hundred, so they recur, kept or forgotten.
		c := cases[rng.IntN(min(len(cases), 300))]
		pred := cases[rng.IntN(len(cases))].Pred
		if i%3 == 0 {
			pred = c.Pred
		}
		_, plain := extractPlainNumber(c.Gold)
		_, kept := golds.kept[c.Gold]
		work := 0
		workUnits = &work
		g := golds.Get(c.Gold)
		workUnits = nil
		if kept {
			hits++
			if work != 0 {
				t.Fatalf("gold %q was kept, and parsed again (%d units of work)", c.Gold, work)
			}
		}
		if got, want := g.Grade(pred), Check(c.Gold, pred); got != want {
			t.Fatalf("gold %q, prediction %q: %+v kept, %+v parsed afresh", c.Gold, pred, got, want)
		}
		if _, ok := golds.kept[c.Gold]; ok == plain && len(c.Gold) <= maxKeptGold {
			t.Fatalf("gold %q (plain number: %v) kept: %v", c.Gold, plain, ok)
		}
		if golds.Len() > capacity {
			t.Fatalf("%d golds kept, capacity %d", golds.Len(), capacity)
		}
	}
	if hits < 2000 {
		t.Fatalf("only %d golds found kept: the test does not exercise keeping", hits)
	}
}

// GradeBytes grades as Grade does, and its verdict keeps nothing of the
// text: the text is overwritten after grading and the verdict is still
// Grade's. Plain numbers (whose extraction keeps pieces of the text),
// numbers one byte past maxPlainNumber, the corpus's predictions and
// long generated traces.
func TestGradeBytesAsGrade(t *testing.T) {
	cases := corpusCases(t)
	texts := []string{"", "7", "-12.50", "0012", strings.Repeat("9", maxPlainNumber), strings.Repeat("9", maxPlainNumber+1)}
	golds := []string{"", "7", "-12.5", "12", strings.Repeat("9", maxPlainNumber), strings.Repeat("9", maxPlainNumber+1)}
	for _, c := range cases {
		texts, golds = append(texts, c.Pred), append(golds, c.Gold)
	}
	for k, tr := range demoTraces(t, 30_000) {
		texts, golds = append(texts, tr+` The final answer is $\boxed{42}$.`), append(golds, []string{"42", "43"}[k%2])
	}
	for k, text := range texts {
		g := NewGold(golds[k])
		want := g.Grade(text)
		b := []byte(text)
		got := g.GradeBytes(b)
		for j := range b {
			b[j] = 'x'
		}
		if got != want {
			t.Fatalf("%.80q against %q: graded from bytes %+v, want %+v", text, golds[k], got, want)
		}
	}
}
