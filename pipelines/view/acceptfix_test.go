package view

import (
	"strings"
	"testing"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// Defects found walking issue 22's "Done when" list in Chromium over the
// demo run (TestViewerAcceptance), each pinned here over HTTP.

// The gold and the graders' extracted answers are math as often as not
// (the demo's golds include $2\sqrt{2}$ and $\frac{5}{18}$; extracted
// answers 2\sqrt{2}): they are rendered as the trace's math is, not shown
// as raw LaTeX; a plain number stays text, hostile text stays escaped.
func TestGoldAndExtractedAnswersAreRenderedMath(t *testing.T) {
	dir := writeRun(t, 0)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(store.WriteAll(dir, schema.Problems, store.Meta{}, []schema.Problem{
		{ProblemID: "low-0", Level: "low", Lang: "en", Question: "What is it?", Answer: `$2\sqrt{2}$`},
		{ProblemID: "low-0", Level: "low", Lang: "sw", Question: "Ni nini?", Answer: `$2\sqrt{2}$`}}))
	var verdicts []schema.Verdict
	for _, id := range []string{"t-en-x", "t-x-en", "t-en-en"} {
		verdicts = append(verdicts,
			schema.Verdict{TraceID: id, Grader: "math-verify", Extracted: `\frac{5}{18}+1`, HasAnswer: true, Reason: "mismatch", TextHash: "h"},
			schema.Verdict{TraceID: id, Grader: "multilingual", Extracted: "18" + hostile, HasAnswer: true, Reason: "numeric", TextHash: "h"})
	}
	must(store.WriteAll(dir, schema.Verdicts, store.Meta{}, verdicts))
	ts := serve(t, dir)
	status, body, _ := get(t, ts, "/trace?id=t-en-x")
	if status != 200 {
		t.Fatalf("%d\n%s", status, body)
	}
	for _, want := range []string{
		`Gold: <b class="gold"><span class="math math-inline">2\sqrt{2}</span></b>`,
		`<span class="math math-inline">\frac{5}{18}+1</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the trace page lacks %q", want)
		}
	}
	if strings.Contains(body, hostile) || strings.Contains(body, "<script>alert") {
		t.Errorf("an extracted answer reached the page unescaped")
	}
	// A plain answer is text, not a math span.
	_, body, _ = get(t, ts, "/trace?id=t-en-en")
	if !strings.Contains(body, `<td lang="en">18&lt;script&gt;`) { // in the trace's reasoning language
		t.Errorf("a plain extracted answer is not shown as escaped text")
	}
}

// An error page has no generation to show: it says none rather than
// "generation 0", and its heading says what the status means.
func TestErrorPageSaysItsStatus(t *testing.T) {
	ts := serve(t, writeRun(t, 0))
	status, body, _ := get(t, ts, "/trace?id=nosuch")
	if status != 404 {
		t.Fatalf("status %d", status)
	}
	if strings.Contains(body, "generation 0") || !strings.Contains(body, "<h1>404 Not Found</h1>") || !strings.Contains(body, `no such trace &#34;nosuch&#34;`) {
		t.Errorf("the 404 page:\n%s", body)
	}
}

// A trace page links the comparison view of its problem: the index of
// every trace of the problem, across languages, directions and models.
func TestTracePageLinksItsProblemsComparison(t *testing.T) {
	ts := serve(t, writeRun(t, 0))
	_, body, _ := get(t, ts, "/trace?id=t-x-en")
	if !strings.Contains(body, `<a href="/?problem=low-0" class="compare">`) {
		t.Fatalf("no link to the problem's comparison view")
	}
	status, index, _ := get(t, ts, "/?problem=low-0")
	if status != 200 || !strings.Contains(index, "<h1>3 traces") || !strings.Contains(index, "problem low-0") {
		t.Errorf("the comparison view: %d %s", status, heading(index))
	}
}

// A model writes TeX in prose without delimiters too ("Then \frac{a}{b}
// simplifies to ..."): a bare fraction, root or binomial with its braced
// arguments is math, as a bare \boxed{...} is; a word that only starts
// like one (\fracture), a command without its arguments or with an
// unclosed brace stays text.
func TestBareTeXInProseIsMath(t *testing.T) {
	text := `Then \frac{a}{b} simplifies to $\frac{3}{4}$, \sqrt[3]{x+1} and \dfrac{1}{\sqrt{2}} too; ` +
		`not \fracture, \frac{a} alone, \sqrt x, \frac{a}{b unclosed. \boxed{18}`
	var got []string
	for _, s := range maths.Spans(text) {
		got = append(got, text[s.Start:s.End])
		if !strings.Contains(text[s.Start:s.End], s.TeX) {
			t.Errorf("span %q holds TeX %q", text[s.Start:s.End], s.TeX)
		}
	}
	want := []string{`\frac{a}{b}`, `$\frac{3}{4}$`, `\sqrt[3]{x+1}`, `\dfrac{1}{\sqrt{2}}`, `\boxed{18}`}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("math spans:\n got %q\nwant %q", got, want)
	}
	tv := renderText(text, nil, maths)
	if !strings.Contains(string(tv.HTML), `Then <span class="math math-inline">\frac{a}{b}</span> simplifies`) {
		t.Errorf("the bare fraction is not marked for KaTeX:\n%s", tv.HTML)
	}
}

// Whatever a model writes, the math spans are in order, inside the text,
// never overlapping, each span's TeX inside it.
func FuzzMathSpans(f *testing.F) {
	for _, s := range []string{`Then \frac{a}{b} is $x$`, `\sqrt[3]{`, `\frac{\frac{1}{2}}{3}`, `\binom{n}{k}\frac`, "\\frac{a}{b}\\sqrt{\xff}", `$\frac{a}{b}$ \frac{}{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		end := 0
		for _, s := range maths.Spans(text) {
			if s.Start < end || s.End <= s.Start || s.End > len(text) {
				t.Fatalf("span [%d,%d) after %d in a text of %d bytes", s.Start, s.End, end, len(text))
			}
			if !strings.Contains(text[s.Start:s.End], s.TeX) {
				t.Fatalf("span %q holds TeX %q", text[s.Start:s.End], s.TeX)
			}
			end = s.End
		}
	})
}
