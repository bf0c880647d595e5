package view

import (
	"html/template"
	"strings"

	"github.com/datg/datg/internal/texmath"
)

// mathSpan is a piece of math in a text, in byte offsets, its delimiters
// included; TeX is what is inside them.
type mathSpan struct {
	Start, End int
	Display    bool
	TeX        string
}

// mathRenderer finds and renders the math of model text. The page cuts
// the text (at evidence spans and folded repeats) only outside the spans
// Spans gives, so each span reaches Render whole, and escapes the prose
// between them itself.
//
// Render's HTML must be safe whatever the source holds (it is model text)
// and self-contained: the page's Content-Security-Policy allows the
// viewer's own stylesheet, script and fonts (under /static/) and nothing
// inline.
type mathRenderer interface {
	// Spans are the math spans of text, in order, not overlapping.
	Spans(text string) []mathSpan
	// Render is the HTML of one span.
	Render(s mathSpan) (template.HTML, error)
}

// texMath finds math as internal/texmath does and writes each span as the
// element the viewer's script renders with KaTeX (the TeX as escaped text,
// never markup).
type texMath struct{}

func (texMath) Spans(text string) []mathSpan {
	var out []mathSpan
	for _, s := range texmath.Split(text) {
		if s.Math {
			out = append(out, mathSpan{Start: s.Start, End: s.End, Display: s.Display, TeX: s.Text})
		}
	}
	return out
}

func (texMath) Render(s mathSpan) (template.HTML, error) {
	var b strings.Builder
	texmath.WriteSegments(&b, []texmath.Segment{{Start: s.Start, End: s.End, Math: true, Display: s.Display, Text: s.TeX}})
	return template.HTML(b.String()), nil
}

// answerHTML is a gold or extracted answer: its math rendered when it
// holds TeX ($...$, a command, a sub- or superscript, braces), else the
// text as it is (a plain "18" stays text, not a math span).
func answerHTML(s string) template.HTML {
	if !strings.ContainsAny(s, `$\^_{}`) {
		return template.HTML(template.HTMLEscapeString(s))
	}
	return labelHTML(s)
}

// labelHTML is a DAG label or any short model text with its math marked
// for rendering (a delimiter-less anchor that reads as math is math whole).
func labelHTML(s string) template.HTML {
	var b strings.Builder
	texmath.WriteSegments(&b, texmath.SplitAnchor(s))
	return template.HTML(b.String())
}
