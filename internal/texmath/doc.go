// Package texmath finds the math in model text (traces, DAG anchors and
// descriptions) so that a page can render it, and writes that text as safe
// HTML in which each math span is an element the client renders.
//
// Math is rendered on the client by KaTeX, vendored in internal/viewassets
// (served by viewassets.Handler, copied for static pages by
// viewassets.WriteDir); this package only decides where math is. The
// choice, against producing MathML in Go: the traces hold the LaTeX that
// models write (\frac, \sqrt, \boxed, \text, aligned environments,
// \lfloor, ...), which KaTeX renders faithfully and a small Go converter
// would not; KaTeX's output carries MathML too, for screen readers; and
// every byte of model text is still escaped here, in Go: the client is
// handed the TeX source as the text content of an element, never as markup.
//
// Delimiters (Split):
//
//   - $$...$$ and \[...\] are display math; $...$ and \(...\) are inline.
//   - A bare \boxed{...} (balanced braces) outside other math is inline
//     math, so a final answer is boxed as the model meant.
//   - \$ is a literal dollar and \\ a literal backslash pair: neither opens
//     math.
//   - $...$ must hold no blank line and no other $, and the closing $ is
//     followed by neither a digit nor a $. Its content starts and ends with
//     a non-space ($x$), as in Pandoc's tex_math_dollars, or starts and ends
//     with a space and LooksLikeMath ($ x + 1 $: models write that, and
//     Pandoc would leave it raw). So "costs $5 and $10", "$2 = $18" and
//     "pay $ 5 and $ 6" stay text.
//   - Math whose content is empty, only spaces, or longer than MaxMathBytes
//     stays text: a 500 KB "formula" is a model's loop, not math.
//
// A DAG anchor is a math expression usually written without delimiters
// ("a + 2b = \sqrt{2}"): SplitAnchor reads one as math whole when it has no
// delimiters and no words (see LooksLikeMath).
//
// Split runs in time linear in the text, whatever it holds (500 KB of $,
// of \( or of \boxed{): each byte is looked at a bounded number of times
// (FuzzSplit checks the count).
//
// Usage:
//
//	for _, s := range texmath.Split(trace) {
//		if s.Math { ... s.Text is the TeX, s.Display says $$/\[ ... }
//	}
//	html := texmath.HTML(description)   // template.HTML, escaped
//
// HTML writes each math span as
//
//	<span class="math math-inline">ESCAPED TEX</span>   (or math-display)
//
// which viewassets' datg-math.js turns into KaTeX output. Segment offsets
// are byte offsets into the text, so a caller that highlights spans of the
// text can cut its highlights at math boundaries.
package texmath
