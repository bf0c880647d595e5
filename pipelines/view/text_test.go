package view

import (
	"strings"
	"testing"
)

// loopTrace is a 48 KB loop of one sentence inside prose with math, as a
// trace cut at its budget reads.
var loopTrace = "<think>\n" + strings.Repeat("I keep checking the same step again. ", 1300) +
	"Then $\\frac{a}{b} = 2$.\n</think>\n\\boxed{2}"

// A loop is folded behind its count, nothing of the text is lost, and the
// math around it is marked for rendering.
func TestRenderTextFoldsALoop(t *testing.T) {
	tv := renderText(loopTrace, nil, maths)
	html := string(tv.HTML)
	if tv.Folded != 1 || !strings.Contains(html, "repeated 1,299 more times") {
		t.Errorf("folded %d runs:\n%.400s", tv.Folded, html)
	}
	if strings.Count(html, "I keep checking the same step again.") != 1300 {
		t.Errorf("the folded text is not all there")
	}
	if !strings.Contains(html, `<span class="math math-inline">\frac{a}{b} = 2</span>`) {
		t.Errorf("math not marked")
	}
}

func BenchmarkRenderLoop(b *testing.B) {
	for b.Loop() {
		renderText(loopTrace, nil, maths)
	}
}
