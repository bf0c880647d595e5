package view

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// longTrace is a trace of real length and shape, about 100 KB: prose
// lines of varying length, blank lines and runs of them, inline and
// displayed math (a display over several lines), Japanese and Bengali
// prose, and a loop that is folded.
func longTrace() string {
	rng := rand.New(rand.NewPCG(22, 96))
	words := []string{"so", "the", "sum", "is", "Let", "check", "again", "then", "we", "get", "each", "row", "of", "trees", "pizza", "slices"}
	var b strings.Builder
	b.WriteString("<think>\n")
	for b.Len() < 96_000 {
		switch rng.IntN(9) {
		case 0:
			b.WriteString("\n")
		case 1:
			fmt.Fprintf(&b, "$$\n\\frac{%d}{%d} + \\sqrt{%d}\n= x_{%d}\n$$\n", rng.IntN(900), 1+rng.IntN(9), rng.IntN(99), rng.IntN(9))
		case 2:
			b.WriteString("そこで合計は $3 \\times 4 = 12$ です。 এখন মোট যোগফল $\\frac{a}{b}$ হল।\n")
		case 3:
			if rng.IntN(20) == 0 {
				b.WriteString(strings.Repeat("Wait, let me check the same step again. ", 60) + "\n")
			}
		default:
			n := 3 + rng.IntN(60)
			for i := range n {
				if i > 0 {
					b.WriteByte(' ')
				}
				if rng.IntN(12) == 0 {
					fmt.Fprintf(&b, "$%d \\cdot %d = %d$", i, n, i*n)
				} else {
					b.WriteString(words[rng.IntN(len(words))])
				}
			}
			b.WriteString(".\n")
		}
	}
	b.WriteString("</think>\nThe answer is $\\boxed{42}$.\n\n\n")
	return b.String()
}

// A long trace's text is cut into blocks that the browser lays out only
// near the screen (the page of a 96 KB trace with 1,467 math spans took
// seconds to lay out as one block), and the cuts change nothing of how
// the text reads: with every block laid out, each math span and the text's
// end sit where they sit in the same HTML without the blocks. Its math is
// all rendered in the end.
func TestLongTraceBlocksInChromium(t *testing.T) {
	dir := t.TempDir()
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{{TraceID: "t-long", Model: "m",
		Direction: "en-x", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Text: longTrace(), TextHash: "h"}}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, dir)
	b := newBrowser(t, 1200, 800)
	b.do("the trace", chromedp.Navigate(ts.URL+"/trace?id=t-long"), chromedp.WaitVisible(`.trace-text`))
	b.wait("math rendered", `window.datgMath.doneAt > 0`)
	if n, r := eval[int](b, `document.querySelectorAll(".trace-text span.math").length`), eval[int](b, `document.querySelectorAll(".trace-text span.math[data-tex]").length`); n < 500 || r != n {
		t.Fatalf("%d math spans, %d rendered", n, r)
	}
	if n := eval[int](b, `document.querySelectorAll(".trace-text .katex .mfrac").length`); n == 0 {
		t.Error("no fraction rendered")
	}
	blocks := eval[int](b, `document.querySelectorAll(".trace-text > .block").length`)
	if blocks < 20 {
		t.Fatalf("the text is in %d blocks", blocks)
	}
	if n := eval[int](b, `document.querySelectorAll(".trace-text details.repeat").length`); n == 0 {
		t.Error("no loop folded")
	}
	// Where each math span and the text's end are, with every block laid
	// out; then with the blocks' contents moved into the text's element.
	where := `(function () { var top = document.querySelector(".trace-text").getBoundingClientRect().top;
		var out = Array.prototype.map.call(document.querySelectorAll(".trace-text span.math"), function (s) {
			var r = s.getBoundingClientRect(); return [r.top - top, r.left, r.height]; });
		out.push([document.querySelector(".trace-text").getBoundingClientRect().height, 0, 0]); return out; })()`
	b.settle(`document.querySelectorAll(".trace-text > .block").forEach(function (b) { b.style.contentVisibility = "visible"; }), true`)
	inBlocks := eval[[][3]float64](b, where)
	b.settle(`(function () { var tt = document.querySelector(".trace-text");
		tt.querySelectorAll(":scope > .block").forEach(function (b) { while (b.firstChild) { tt.insertBefore(b.firstChild, b); } b.remove(); }); return true; })()`)
	if n := eval[int](b, `document.querySelectorAll(".trace-text .block").length`); n != 0 {
		t.Fatalf("%d blocks left", n)
	}
	asOne := eval[[][3]float64](b, where)
	if len(inBlocks) != len(asOne) {
		t.Fatalf("%d spans in blocks, %d as one", len(inBlocks), len(asOne))
	}
	moved := 0
	for i := range inBlocks {
		for k := range 3 {
			if d := inBlocks[i][k] - asOne[i][k]; d > 0.5 || d < -0.5 {
				if moved < 5 {
					t.Errorf("span %d of %d: %v in blocks, %v as one text", i, len(inBlocks)-1, inBlocks[i], asOne[i])
				}
				moved++
				break
			}
		}
	}
	if moved > 0 {
		t.Errorf("%d of %d spans (the last: the text's end) moved", moved, len(inBlocks))
	}
	if c := b.console(); len(c) > 0 {
		t.Errorf("console: %q", c)
	}
}
