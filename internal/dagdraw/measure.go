package dagdraw

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/internal/texmath"
)

// The box metrics, in px, as datg.css sets them: 12px text on 16px lines,
// a head line (id · status), 4px by 6px padding. KaTeX sets math at 1.21em
// and datg.css at 1.1em of that, so math's em is mathEm.
const (
	fontPx     = 12.0
	lineH      = 16.0
	padX, padY = 6.0, 4.0
	minBoxW    = 96.0
	maxBoxW    = 232.0
	contentW   = maxBoxW - 2*padX
	mathEm     = fontPx * 1.21 * 1.1
	// slack makes the estimate generous: a box a little large reads well,
	// a box too small makes datg-math.js shrink its text.
	slack = 1.15
)

// Size is a label's box: width and height, in px.
type Size struct{ W, H float64 }

// Measure estimates the box a node needs for its head line and its whole
// label wrapped to at most maxBoxW.
func Measure(n Node) Size {
	lines, widest := wrap(atoms(n.Label), contentW)
	head := textWidth(n.ID+" · "+n.Status) * slack
	w := max(minBoxW, min(maxBoxW, max(widest, head)+2*padX+4))
	h := 2*padY + lineH + 4
	for _, l := range lines {
		h += l
	}
	return Size{W: w, H: h}
}

// An atom is what a line cannot break: a word with its following space,
// or a math span.
type atom struct {
	w, h  float64 // h: the height of a line holding it
	space bool    // ends with a space a line may break at
}

// atoms cuts a label into words and math spans, as texmath reads it.
func atoms(label string) []atom {
	var out []atom
	for _, s := range texmath.SplitAnchor(label) {
		if s.Math {
			w, h := mathSize(s.Text)
			if s.Display {
				h += 8
			}
			out = append(out, atom{w: w * slack, h: max(lineH, h)})
			continue
		}
		for _, f := range strings.FieldsFunc(s.Text, unicode.IsSpace) {
			out = append(out, atom{w: textWidth(f+" ") * slack, h: lineH, space: true})
		}
	}
	return out
}

// wrap lays atoms greedily on lines contentW wide and returns each line's
// height and the widest line. An atom wider than a line (a long formula,
// which KaTeX breaks at its relations, or a long word, which CSS breaks
// anywhere) takes as many lines as its width needs.
func wrap(as []atom, width float64) (lines []float64, widest float64) {
	x, h := 0.0, 0.0
	flush := func() {
		if x > 0 {
			lines = append(lines, h)
			widest = max(widest, x)
		}
		x, h = 0, 0
	}
	for _, a := range as {
		if a.w > width {
			flush()
			n := int(a.w/width) + 1
			for range n {
				lines = append(lines, a.h)
			}
			widest = width
			continue
		}
		if x+a.w > width {
			flush()
		}
		x += a.w
		h = max(h, a.h)
	}
	flush()
	return lines, widest
}

// textWidth estimates the width of text at fontPx in a sans-serif face.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	return w * fontPx
}

// runeEm is a rune's advance in em, on the wide side.
func runeEm(r rune) float64 {
	switch {
	case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), r == 0x200B, r == 0x200C, r == 0x200D:
		return 0
	case r == ' ':
		return 0.3
	case r == 'i' || r == 'l' || r == 'j' || r == '.' || r == ',' || r == ':' || r == ';' || r == '\'' || r == '|' || r == '!':
		return 0.3
	case r == 'm' || r == 'w' || r == 'M' || r == 'W':
		return 0.9
	case r >= 'A' && r <= 'Z':
		return 0.7
	case r < utf8.RuneSelf:
		return 0.6
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r),
		unicode.Is(unicode.Hangul, r), r >= 0xFF00 && r <= 0xFFEF, r >= 0x3000 && r <= 0x303F:
		return 1.05
	case unicode.Is(unicode.Mc, r):
		return 0.4
	default: // other scripts (Bengali, Telugu, Cyrillic, ...), symbols
		return 0.8
	}
}
