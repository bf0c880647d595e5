package texmath

import (
	"html/template"
	"strings"
	"unicode/utf8"
)

// The classes of the elements HTML writes for math; viewassets'
// datg-math.js renders the elements of class MathClass.
const (
	MathClass    = "math"
	InlineClass  = "math-inline"
	DisplayClass = "math-display"
)

// HTML is text as HTML: text escaped, each math span of Split an element
// holding its escaped TeX for the client to render. The result is also
// well-formed XML (for SVG's foreignObject).
func HTML(text string) template.HTML {
	var b strings.Builder
	WriteSegments(&b, Split(text))
	return template.HTML(b.String())
}

// WriteSegments writes segments as HTML does, into b.
func WriteSegments(b *strings.Builder, segs []Segment) {
	for _, s := range segs {
		if !s.Math {
			Escape(b, s.Text)
			continue
		}
		class := InlineClass
		if s.Display {
			class = DisplayClass
		}
		b.WriteString(`<span class="` + MathClass + " " + class + `">`)
		Escape(b, s.Text)
		b.WriteString(`</span>`)
	}
}

// Escape writes s escaped for HTML and XML text and attribute values: the
// five markup characters as entities, invalid UTF-8 and the control
// characters XML forbids as U+FFFD.
func Escape(b *strings.Builder, s string) {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == utf8.RuneError && size == 1, !xmlChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
}

// xmlChar is XML 1.0's Char production.
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
