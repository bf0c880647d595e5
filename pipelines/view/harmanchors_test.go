package view

import (
	"fmt"
	"strings"
	"testing"
)

// Every located harmful action's "in the text" link has its target, also
// when two actions cite the same span (the demo's t2142a5fa5c863adc: a
// "collapse" and a "loop" on one sentence; #harm-2 led nowhere, an element
// holding one id), or one span inside another.
func TestEveryHarmfulActionHasItsAnchor(t *testing.T) {
	text := "First a step. Subiri, hebu nifikirie tena. Then the end."
	at := func(s string) (int, int) { i := strings.Index(text, s); return i, i + len(s) }
	s0, e0 := at("First a step.")
	s1, e1 := at("Subiri, hebu nifikirie tena.")
	s3, e3 := at("hebu")
	marks := []mark{
		{Start: s0, End: e0, Kind: "harmful", Harm: 0},
		{Start: s1, End: e1, Kind: "harmful", Harm: 1},
		{Start: s1, End: e1, Kind: "harmful", Harm: 2},
		{Start: s3, End: e3, Kind: "harmful", Harm: 3},
		{Start: s1, End: e1, Kind: "commit", Keys: []string{"n1"}},
	}
	html := string(renderText(text, marks, maths).HTML)
	for n := range 4 {
		if c := strings.Count(html, fmt.Sprintf(`id="harm-%d"`, n)); c != 1 {
			t.Errorf("harmful action %d has %d anchors in:\n%s", n, c, html)
		}
	}
	if !strings.Contains(stripTags(html), text) {
		t.Errorf("the text is not all there:\n%s", html)
	}
}

// stripTags is html without its tags.
func stripTags(html string) string {
	var b strings.Builder
	in := false
	for _, c := range html {
		switch {
		case c == '<':
			in = true
		case c == '>':
			in = false
		case !in:
			b.WriteRune(c)
		}
	}
	return b.String()
}
