package view

import (
	"html/template"
	"strings"
)

// mathSpan is a piece of math in a text, in byte offsets, its delimiters
// included: $...$, $$...$$, \(...\) or \[...\] (Display for the last two
// kinds of display math, $$ and \[).
type mathSpan struct {
	Start, End int
	Display    bool
}

// mathRenderer finds and renders the math of model text. The page cuts
// the text (at evidence spans and folded repeats) only outside the spans
// Spans gives, so each span reaches Render whole, and escapes the prose
// between them itself.
//
// Render's HTML must be safe whatever the source holds (it is model text)
// and self-contained: the page's Content-Security-Policy allows the
// viewer's own stylesheet, script and fonts (under /static/) and nothing
// inline, so a renderer that needs CSS or fonts ships them as assets
// (assets/) and adds no style attribute (MathML needs none).
type mathRenderer interface {
	// Spans are the math spans of text, in order, not overlapping.
	Spans(text string) []mathSpan
	// Render is the HTML of one span's source (delimiters included).
	Render(src string, display bool) (template.HTML, error)
}

// plainMath is the stand-in until the math library lands: it finds the
// spans by their delimiters and shows each one's source as code, marked
// so the page's tests know math is not rendered yet.
type plainMath struct{}

func (plainMath) Spans(text string) []mathSpan { return delimitedMath(text) }

func (plainMath) Render(src string, display bool) (template.HTML, error) {
	class := "math-src"
	if display {
		class += " display"
	}
	return template.HTML(`<code class="` + class + `">` + template.HTMLEscapeString(src) + `</code>`), nil
}

// delimitedMath finds $...$, $$...$$, \(...\) and \[...\] spans: an
// opening delimiter not escaped by a backslash, up to its closing one.
// An unclosed delimiter is prose. A $ span ends at a blank line (a stray
// dollar sign in prose never swallows a paragraph). Linear in the text:
// each opening looks for its closing once and the search resumes past it.
func delimitedMath(text string) []mathSpan {
	var out []mathSpan
	// unclosed[k]: no \) (k = 0) or \] (k = 1) follows: a later opening
	// cannot close either, and is not searched again.
	var unclosed [2]bool
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && (text[i+1] == '(' || text[i+1] == '['):
			k, closing := 0, `\)`
			if text[i+1] == '[' {
				k, closing = 1, `\]`
			}
			if !unclosed[k] {
				if j := strings.Index(text[i+2:], closing); j >= 0 {
					end := i + 2 + j + 2
					out = append(out, mathSpan{i, end, k == 1})
					i = end
					continue
				}
				unclosed[k] = true
			}
			i += 2
		case c == '\\':
			i += 2 // an escaped character, \$ among them
		case c == '$':
			display := i+1 < len(text) && text[i+1] == '$'
			open := 1
			if display {
				open = 2
			}
			if end, ok := closeDollar(text, i+open, open); ok {
				out = append(out, mathSpan{i, end, display})
				i = end
				continue
			}
			i += open
		default:
			i++
		}
	}
	return out
}

// closeDollar finds the end of a $ (n = 1) or $$ (n = 2) span whose body
// starts at from: past the closing delimiter, not escaped, before a blank
// line. An empty body is no span.
func closeDollar(text string, from, n int) (int, bool) {
	for j := from; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '\n':
			if j+1 < len(text) && text[j+1] == '\n' {
				return 0, false
			}
		case '$':
			if j == from {
				return 0, false
			}
			if n == 1 || (j+1 < len(text) && text[j+1] == '$') {
				return j + n, true
			}
		}
	}
	return 0, false
}
