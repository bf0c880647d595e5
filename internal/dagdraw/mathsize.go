package dagdraw

import (
	"strings"
	"unicode/utf8"
)

// mathSize estimates the width and line height, in px, KaTeX gives a TeX
// expression in inline style: a small reading of the TeX that knows what
// changes a size (fractions stack, scripts shrink, roots add a sign,
// \text is text), not a TeX parser. Unknown commands count as a wide
// symbol.
func mathSize(tex string) (w, h float64) {
	p := mathReader{s: tex}
	ems, lines := p.seq(1, 0)
	return ems * mathEm, lines * lineH
}

type mathReader struct {
	s     string
	i     int
	depth int
}

// maxDepth bounds the nesting read, so hostile TeX costs linear time.
const maxDepth = 64

// seq reads until the closing brace at this level (or the end) and
// returns the width in em at scale and the height in lines.
func (p *mathReader) seq(scale float64, depth int) (w, h float64) {
	h = 1
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '}':
			if depth > 0 {
				p.i++
				return w, h
			}
			p.i++
		case c == '{':
			p.i++
			gw, gh := p.group(scale, depth)
			w, h = w+gw, max(h, gh)
		case c == '^' || c == '_':
			p.i++
			gw, gh := p.arg(scale*0.7, depth)
			w, h = w+gw, max(h, 0.3+gh*0.8)
		case c == '\\':
			cw, ch := p.command(scale, depth)
			w, h = w+cw, max(h, ch)
		case c == ' ' || c == '\t' || c == '\n' || c == '&':
			p.i++
		case c == '=' || c == '<' || c == '>':
			p.i++
			w += 1.4 * scale
		case c == '+' || c == '-' || c == '*':
			p.i++
			w += 1.25 * scale
		case c == ',' || c == ';':
			p.i++
			w += 0.45 * scale
		case c == '(' || c == ')' || c == '[' || c == ']' || c == '|' || c == '/' || c == '.':
			p.i++
			w += 0.45 * scale
		case c >= 0x80:
			// A rune of another script (inside \text or not): as text.
			r, n := decodeRune(p.s[p.i:])
			p.i += n
			w += runeEm(r) * fontPx / mathEm * 1.1 * scale
		default:
			p.i++
			w += 0.62 * scale
		}
	}
	return w, h
}

// group reads a {...} group whose '{' was consumed.
func (p *mathReader) group(scale float64, depth int) (float64, float64) {
	if depth >= maxDepth {
		// Too deep to matter: count the rest as plain symbols.
		w := 0.62 * scale * float64(len(p.s)-p.i)
		p.i = len(p.s)
		return w, 1
	}
	return p.seq(scale, depth+1)
}

// arg reads one argument: a group or a single token.
func (p *mathReader) arg(scale float64, depth int) (float64, float64) {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	if p.i >= len(p.s) {
		return 0, 1
	}
	if depth >= maxDepth { // as group does
		w := 0.62 * scale * float64(len(p.s)-p.i)
		p.i = len(p.s)
		return w, 1
	}
	switch p.s[p.i] {
	case '{':
		p.i++
		return p.group(scale, depth)
	case '\\':
		return p.command(scale, depth+1)
	}
	_, n := decodeRune(p.s[p.i:])
	p.i += n
	return 0.62 * scale, 1
}

// command reads a control sequence at p.i (a '\') and its arguments.
func (p *mathReader) command(scale float64, depth int) (float64, float64) {
	j := p.i + 1
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
		j++
	}
	if j == p.i+1 && j < len(p.s) { // \, \; \! \{ \\ ...
		c := p.s[j]
		p.i = j + 1
		switch c {
		case ',', ':', ';', '>':
			return 0.25 * scale, 1
		case '!':
			return 0, 1
		case '\\':
			return 0, 1
		}
		return 0.6 * scale, 1
	}
	name := p.s[p.i+1 : j]
	p.i = j
	switch name {
	case "frac", "dfrac", "tfrac", "cfrac", "binom", "dbinom", "tbinom":
		s := scale * 0.75
		if name == "dfrac" || name == "dbinom" || name == "cfrac" {
			s = scale
		}
		nw, nh := p.arg(s, depth)
		dw, dh := p.arg(s, depth)
		return max(nw, dw) + 0.4*scale, (nh + dh) * s * 0.9
	case "sqrt":
		if p.i < len(p.s) && p.s[p.i] == '[' { // \sqrt[n]{x}
			end := strings.IndexByte(p.s[p.i:], ']')
			if end < 0 {
				end = len(p.s) - p.i - 1
			}
			p.i += end + 1
		}
		aw, ah := p.arg(scale, depth)
		return aw + 1.0*scale, ah + 0.25
	case "text", "textrm", "textbf", "textit", "mathrm", "mathbf", "mathit", "operatorname", "mbox", "boxed", "overline", "underline", "hat", "bar", "vec", "tilde", "widehat", "mathbb", "mathcal":
		aw, ah := p.arg(scale, depth)
		if name == "boxed" {
			return aw + 0.8*scale, ah + 0.3
		}
		return aw, ah
	case "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr":
		return 0.5 * scale, 1
	case "quad":
		return 1 * scale, 1
	case "qquad":
		return 2 * scale, 1
	case "displaystyle", "textstyle", "limits", "nolimits", "begin", "end":
		if name == "begin" || name == "end" {
			p.arg(scale, depth)
		}
		return 0, 1
	case "times", "cdot", "pm", "mp", "div", "cup", "cap", "setminus", "circ", "oplus", "otimes", "wedge", "vee":
		return 1.25 * scale, 1
	case "leq", "le", "geq", "ge", "neq", "ne", "approx", "equiv", "sim", "simeq", "cong", "to", "rightarrow",
		"leftarrow", "Rightarrow", "Leftarrow", "mid", "in", "notin", "subset", "subseteq", "supset", "propto", "perp", "parallel":
		return 1.4 * scale, 1
	case "implies", "iff", "Longrightarrow", "longrightarrow", "Leftrightarrow", "mapsto":
		return 2.4 * scale, 1
	case "sum", "prod", "int", "bigcup", "bigcap", "oint":
		return 1.3 * scale, 1.3
	case "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "gcd", "lcm", "max", "min", "det", "lim", "mod", "bmod", "pmod", "deg", "arg", "dim", "ker":
		return (0.55*float64(len(name)) + 0.3) * scale, 1
	case "ldots", "cdots", "dots", "vdots", "ddots":
		return 1.3 * scale, 1
	case "lfloor", "rfloor", "lceil", "rceil", "langle", "rangle", "lvert", "rvert", "vert":
		return 0.5 * scale, 1
	}
	return 1.0 * scale, 1
}

// decodeRune is utf8.DecodeRuneInString, at least one byte.
func decodeRune(s string) (rune, int) {
	r, n := utf8.DecodeRuneInString(s)
	return r, max(n, 1)
}
