package answer

import (
	"fmt"
	"strings"
	"testing"
)

// adversarialTexts are generations built to make an extractor's work grow
// faster than the text: openings that never close (\boxed{, $, \(, \[,
// \begin{, \text{), nesting, and runs of digits, separators and answer
// markers in the study's languages. Each makes a text of about n bytes.
var adversarialTexts = map[string]func(n int) string{
	"unclosed-boxed":       repeatTo(`\boxed{`),
	"unclosed-boxed-value": repeatTo(`\boxed{1`),
	"unclosed-fbox":        repeatTo(`\fbox {`),
	"unclosed-boxed-think": func(n int) string { return "<think>" + repeatTo(`\boxed{`)(n) },
	"closed-nested-boxes":  func(n int) string { return strings.Repeat(`\boxed{`, n/8) + strings.Repeat("}", n/8) },
	"boxes-joined":         repeatTo(`\boxed{1}, `),
	"boxes-nested-text-gap": func(n int) string {
		return `\boxed{1}` + strings.Repeat(`\text{`, n/7) + strings.Repeat("}", n/7) + `\boxed{2}`
	},
	"braces":          repeatTo("{"),
	"dollars":         repeatTo("$"),
	"inline-math":     repeatTo("$x"),
	"display-math":    repeatTo("$$x"),
	"open-parens":     repeatTo(`\(`),
	"open-brackets":   repeatTo(`\[x`),
	"begin":           repeatTo(`\begin{`),
	"text":            repeatTo(`\text{`),
	"frac":            repeatTo(`\frac{`),
	"backslashes":     repeatTo(`\\`),
	"bold":            repeatTo("**"),
	"digits":          repeatTo("1"),
	"digit-groups":    repeatTo("1,"),
	"answer-is":       repeatTo("the answer is "),
	"markers":         repeatTo("Answer: Réponse : Ответ: 答案： 정답: Jawaban: คำตอบ: উত্তর: Jibu: సమాధానం: "),
	"marker-and-math": repeatTo("Answer: $"),
}

func repeatTo(unit string) func(n int) string {
	return func(n int) string { return strings.Repeat(unit, n/len(unit)+1)[:n] }
}

// extractionWork is the bytes the extraction reads grading text every way
// datg grades: against a single gold and a list gold, cut off by the
// budget or not, and as answers check does.
func extractionWork(text string) int {
	work := 0
	scannedBytes = &work
	defer func() { scannedBytes = nil }()
	for _, g := range []Gold{NewGold("18"), NewGold("2, 3")} {
		g.Grade(text, false)
		g.Grade(text, true)
	}
	Check("18", text)
	return work
}

// Issue 19: the grader was quadratic on repeated unclosed \boxed{ (0.5 s at
// 10k characters, 8.2 s at 40k; an imported 560 KB trace took 34 s). On
// every adversarial text the work of a text four times longer is at most
// about four times the work, and at most a constant per byte.
func TestExtractionWorkIsLinear(t *testing.T) {
	const n = 10_000
	for name, make := range adversarialTexts {
		small, large := extractionWork(make(n)), extractionWork(make(4*n))
		if large > 5*small || large > 200*4*n {
			t.Errorf("%s: %d bytes read at %d bytes, %d at %d (%.1f times)", name, small, n, large, 4*n, float64(large)/float64(small))
		}
	}
}

// FuzzExtractionWork: whatever the text, the extraction reads a bounded
// number of bytes per byte (issue 19: fuzzing for time, not only crashes).
func FuzzExtractionWork(f *testing.F) {
	for _, s := range []string{`\boxed{\boxed{1`, `\boxed{1}, \text{\text{ and }} \boxed{2}`, "Jibu: $x = 2$ au $x = 3$", `\(\[\begin{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if work := extractionWork(text); work > 200*len(text)+5_000_000 {
			t.Fatalf("%d bytes read for a %d-byte text", work, len(text))
		}
	})
}

// A 560 KB trace of repeated unclosed \boxed{ (the import of the report)
// grades in work linear in its length.
func TestUnclosedBoxesAt560KB(t *testing.T) {
	text := repeatTo(`\boxed{`)(560_000)
	if work := extractionWork(text); work > 200*len(text) {
		t.Fatalf("%d bytes read for a %d-byte trace", work, len(text))
	}
	if v := NewGold("18").Grade(text, false); v.HasAnswer {
		t.Fatalf("unclosed boxes gave an answer: %+v", v)
	}
}

// BenchmarkAdversarial grades the adversarial texts at 10k, 40k, 160k and
// 560k bytes, every way datg grades (extractionWork's calls):
//
//	go test ./transforms/answer -run '^$' -bench Adversarial -benchtime 1x
func BenchmarkAdversarial(b *testing.B) {
	for _, name := range []string{"unclosed-boxed", "unclosed-boxed-think", "boxes-nested-text-gap", "open-brackets", "markers"} {
		for _, n := range []int{10_000, 40_000, 160_000, 560_000} {
			text := adversarialTexts[name](n)
			b.Run(fmt.Sprintf("%s/%dk", name, n/1000), func(b *testing.B) {
				b.SetBytes(int64(n))
				golds := []Gold{NewGold("18"), NewGold("2, 3")}
				for b.Loop() {
					for _, g := range golds {
						g.Grade(text, false)
						g.Grade(text, true)
					}
					Check("18", text)
				}
			})
		}
	}
}
