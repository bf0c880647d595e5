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
	if !strings.Contains(body, "<td>18&lt;script&gt;") {
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
