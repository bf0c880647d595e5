package scaffold

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maskResults applies rule 4 to one line. The prompt asks for skeletons like
// "16 - 3 - 4 = ?"; a model that computes writes "16 - 3 - 4 = 9", and the 9
// is a result phase 2 would copy instead of deriving. So in each equation
// chain, every side after the first computational side that is a number is
// replaced by "?". Sides before it are givens ("eggs_per_day = 16") and are
// kept. Only the number's bytes change, so spacing, units ("63 eggs") and
// LaTeX delimiters ("$63$") stay. It returns the line and the masked numbers.
func maskResults(text string) (string, []string) {
	sides := chainSides(text)
	if len(sides) < 2 {
		return text, nil
	}
	var b strings.Builder
	var masked []string
	last, computed := 0, false
	for _, sd := range sides {
		side := text[sd[0]:sd[1]]
		if !computed {
			computed = isComputational(side)
			continue
		}
		lo, hi, ok := resultNumber(side)
		if !ok {
			if lo, hi, ok = closedForm(side); !ok {
				continue
			}
		}
		b.WriteString(text[last : sd[0]+lo])
		b.WriteByte('?')
		last = sd[0] + hi
		masked = append(masked, side[lo:hi])
	}
	if masked == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), masked
}

// resultArrows state a result as "=" does: "16 - 3 - 4 → 9".
var resultArrows = []string{"→", "⇒", "⟹"}

// chainSides splits text into the byte ranges between plain "=" signs and
// result arrows.
func chainSides(text string) [][2]int {
	var sides [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '=' && isPlainEquals(text, i) {
			sides = append(sides, [2]int{start, i})
			start = i + 1
			continue
		}
		for _, a := range resultArrows {
			if strings.HasPrefix(text[i:], a) {
				sides = append(sides, [2]int{start, i})
				start = i + len(a)
				i = start - 1
				break
			}
		}
	}
	return append(sides, [2]int{start, len(text)})
}

// isPlainEquals reports whether the "=" at i is an equation, not part of
// "<=", ">=", "!=", "==" (one relation, not two equations) or "=>" (an
// implication arrow). ":=" is an assignment and counts as "=".
func isPlainEquals(text string, i int) bool {
	if i > 0 && strings.IndexByte("<>!=", text[i-1]) >= 0 {
		return false
	}
	if i+1 < len(text) && (text[i+1] == '=' || text[i+1] == '>') {
		return false
	}
	return true
}

// latexOps make a side computational wherever they stand.
var latexOps = []string{`\frac`, `\dfrac`, `\tfrac`, `\cfrac`, `\cdot`, `\times`, `\div`, `\sqrt`, "√"}

// isComputational reports whether side computes something: it holds a LaTeX
// operator, or an arithmetic operator with an operand on each side. A sign
// ("-3"), a bullet ("- days"), a hyphenated word ("eggs-per-day") and
// markdown bold ("**days**") are not operations.
func isComputational(side string) bool {
	for _, op := range latexOps {
		if strings.Contains(side, op) {
			return true
		}
	}
	rs := []rune(side)
	for i, r := range rs {
		if !strings.ContainsRune("+-*/×÷·^−", r) {
			continue
		}
		if r == '*' && ((i+1 < len(rs) && rs[i+1] == '*') || (i > 0 && rs[i-1] == '*')) {
			continue
		}
		if (r == '-' || r == '−') && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			continue
		}
		p, n := i-1, i+1
		for p >= 0 && unicode.IsSpace(rs[p]) {
			p--
		}
		for n < len(rs) && unicode.IsSpace(rs[n]) {
			n++
		}
		if p >= 0 && n < len(rs) && endsOperand(rs[p]) && startsOperand(rs[n]) {
			return true
		}
	}
	return false
}

func endsOperand(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || strings.ContainsRune(")]}?%!'_|", r)
}

func startsOperand(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || strings.ContainsRune("([{\\?.$-+−|√", r)
}

// relations end the term a result stands in: "7 <= 2 * 4" states 7 and then
// compares it, so the comparison's own arithmetic must not hide the 7.
var relations = []string{"<", ">", "!=", "==", "≤", "≥", "≠", "≈"}

// resultNumber finds the number a result side starts with: optional "$",
// "\$", sign, then digits with "," or "." separators (or ".5"). It must end
// at a word boundary ("2x" is a term, not a number) and the term it starts
// must not compute anything itself ("63 - 1" is an expression). Whatever
// follows — a unit, "%", a closing "$", a full stop, more words — is kept.
// lo and hi are the byte range of the sign and digits.
func resultNumber(side string) (lo, hi int, ok bool) {
	term := side
	for _, r := range relations {
		if k := strings.Index(term, r); k >= 0 {
			term = term[:k]
		}
	}
	if isComputational(term) {
		return 0, 0, false
	}
	i := skipSpace(side, 0)
	switch {
	case strings.HasPrefix(side[i:], `\$`):
		i += 2
	case strings.HasPrefix(side[i:], "$"):
		i++
	}
	i = skipSpace(side, i)
	lo = i
	switch {
	case strings.HasPrefix(side[i:], "+"), strings.HasPrefix(side[i:], "-"):
		i++
	case strings.HasPrefix(side[i:], "−"):
		i += len("−")
	}
	j := digits(side, i)
	if j == i {
		// ".5"
		if j < len(side) && side[j] == '.' && digits(side, j+1) > j+1 {
			j = digits(side, j+1)
		} else {
			return 0, 0, false
		}
	}
	for j < len(side) && (side[j] == ',' || side[j] == '.') && digits(side, j+1) > j+1 {
		j = digits(side, j+1)
	}
	if r, _ := utf8.DecodeRuneInString(side[j:]); j < len(side) && (isWordRune(r) || r == '!') {
		return 0, 0, false
	}
	return lo, j, true
}

// digits returns the end of the ASCII digit run starting at i.
func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// closedForm finds a result written in closed form rather than as a plain
// number: "2\sqrt{2}", "\frac{3}{4}", "3\pi" after a computation are what
// it simplified to. Such a side holds a digit, no variable (no letter outside
// a LaTeX command name) and no operation between terms outside braces, so
// "\sqrt{2} + 2 \times \frac{\sqrt{2}}{2}" (a computation still to do)
// is kept. lo and hi are the byte range of the value, without the spaces
// and "$" around it.
func closedForm(side string) (lo, hi int, ok bool) {
	lo, hi = skipSpace(side, 0), len(side)
	for hi > lo && (side[hi-1] == ' ' || side[hi-1] == '\t' || side[hi-1] == '$' || side[hi-1] == '.' || side[hi-1] == ',') {
		hi--
	}
	for lo < hi && side[lo] == '$' {
		lo = skipSpace(side, lo+1)
	}
	v := side[lo:hi]
	if !strings.ContainsAny(v, "0123456789") || !strings.ContainsAny(v, `\√`) {
		return 0, 0, false // a plain number is resultNumber's; words are not values
	}
	var top strings.Builder // v without brace contents and command names
	depth := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '{':
			depth++
		case c == '}':
			depth--
		case depth > 0:
		case c == '\\':
			j := i + 1
			for j < len(v) && (v[j] >= 'a' && v[j] <= 'z' || v[j] >= 'A' && v[j] <= 'Z') {
				j++
			}
			if !closedCommands[v[i+1:j]] {
				return 0, 0, false
			}
			top.WriteByte(' ')
			i = j - 1
		default:
			top.WriteByte(c)
		}
	}
	// Outside braces only digits, separators, spaces and a leading sign.
	t := strings.TrimLeft(strings.TrimSpace(strings.ReplaceAll(top.String(), "√", " ")), "-−")
	if depth != 0 || strings.Trim(t, "0123456789., ") != "" {
		return 0, 0, false
	}
	return lo, hi, true
}

// closedCommands are the LaTeX commands a closed-form value is written with.
var closedCommands = map[string]bool{"frac": true, "dfrac": true, "tfrac": true, "sqrt": true, "pi": true, "left": true, "right": true}
