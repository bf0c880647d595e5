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

// A trace's blocks start lines, never inside math or a folded repeat, and
// hold about blockBytes each; a short text is one block.
func TestBlockStarts(t *testing.T) {
	for _, text := range []string{longTrace(), loopTrace, "Start.\n" + strings.Repeat("Wait, let me check that line again.\n", 900) + "Done.\n", strings.Repeat("no line break here ", 500),
		"$$\n" + strings.Repeat("x + y\n", 1000) + "$$\nafter\n", "short\n"} {
		spans := validSpans(maths.Spans(text), len(text))
		tv := renderText(text, nil, maths)
		starts := blockStarts(text, nil, spans)
		if strings.Count(string(tv.HTML), `<div class="block">`) == 0 {
			t.Errorf("%.20q: no block in the HTML", text)
		}
		last := 0
		for _, p := range starts {
			if p <= last || p >= len(text) || text[p-1] != '\n' || p-last < blockBytes {
				t.Errorf("%.20q: a block at %d (the last at %d): %q", text, p, last, text[max(0, p-10):min(len(text), p+10)])
			}
			if s, ok := inside(spans, p); ok {
				t.Errorf("%.20q: a block at %d inside math %v", text, p, s)
			}
			last = p
		}
		for _, fold := range strings.Split(string(tv.HTML), "<details")[1:] {
			if inner, _, _ := strings.Cut(fold, "</details>"); strings.Contains(inner, `class="block"`) {
				t.Errorf("%.20q: a block starts inside a folded repeat", text)
			}
		}
		if len(text) > 4*blockBytes && strings.Count(text, "\n") > 100 && len(starts) == 0 {
			t.Errorf("%.20q: %d bytes in one block", text, len(text))
		}
	}
}
