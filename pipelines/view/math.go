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
			continue
		}
		out = appendBare(out, text, s.Start, s.End)
	}
	return out
}

// bareCommands are the TeX commands a model writes in prose without
// delimiters ("Then \frac{a}{b} simplifies to ..."), each with its number
// of braced arguments: such a command with its arguments is math, as a
// bare \boxed{...} is to texmath.Split.
var bareCommands = []struct {
	name string
	args int
}{{`\frac`, 2}, {`\dfrac`, 2}, {`\tfrac`, 2}, {`\binom`, 2}, {`\sqrt`, 1}}

// maxBare bounds a bare command with its arguments: a longer one (an
// unclosed brace in a looping trace) stays text, and no text is scanned
// more than maxBare bytes from each backslash.
const maxBare = 512

// appendBare appends the bare commands of text[start:end] (text outside
// any delimited math) as math spans.
func appendBare(out []mathSpan, text string, start, end int) []mathSpan {
	for i := start; i < end; {
		k := strings.IndexByte(text[i:end], '\\')
		if k < 0 {
			break
		}
		i += k
		if j, ok := bareCommand(text[i:min(end, i+maxBare)]); ok {
			out = append(out, mathSpan{Start: i, End: i + j, TeX: text[i : i+j]})
			i += j
			continue
		}
		i++
	}
	return out
}

// bareCommand is the length of the bare command at the start of s with
// all its arguments (\sqrt's optional [n] too), if s starts with one.
func bareCommand(s string) (int, bool) {
	for _, c := range bareCommands {
		if !strings.HasPrefix(s, c.name) {
			continue
		}
		j := len(c.name)
		if j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
			return 0, false // another command: \fracture, \sqrtx
		}
		if c.name == `\sqrt` && j < len(s) && s[j] == '[' {
			k := strings.IndexByte(s[j:], ']')
			if k < 0 {
				return 0, false
			}
			j += k + 1
		}
		for range c.args {
			k, ok := braceGroup(s, j)
			if !ok {
				return 0, false
			}
			j = k
		}
		return j, true
	}
	return 0, false
}

// braceGroup is the end of the {...} group at s[j] (nested, escaped
// braces skipped), if s[j] opens one that closes within s.
func braceGroup(s string, j int) (int, bool) {
	if j >= len(s) || s[j] != '{' {
		return 0, false
	}
	depth := 0
	for k := j; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++ // \{ and \} are characters, not groups
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return k + 1, true
			}
		}
	}
	return 0, false
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
