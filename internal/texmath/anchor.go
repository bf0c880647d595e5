package texmath

import (
	"unicode"
	"unicode/utf8"
)

// SplitAnchor splits a DAG anchor: as Split when it holds delimiters,
// else as one inline math segment when LooksLikeMath, else as text.
func SplitAnchor(anchor string) []Segment {
	segs := Split(anchor)
	for _, s := range segs {
		if s.Math {
			return segs
		}
	}
	if !LooksLikeMath(anchor) {
		return segs
	}
	return []Segment{{Start: 0, End: len(anchor), Math: true, Text: anchor}}
}

// LooksLikeMath says whether a text without delimiters reads as one
// expression: it is no longer than MaxMathBytes, holds no $ and no words
// (no run of 3 or more ASCII letters but a function's name such as gcd,
// nor of 2 or more other letters, that is not a TeX command or inside
// \text{...}), and holds a digit, an operator or a TeX command. "d(144) = (4 + 1)(2 + 1)" and
// "\lfloor 99/5 \rfloor" do; "total apples = 12" does not: KaTeX would set
// its words as italic letters without spaces.
func LooksLikeMath(s string) bool {
	if len(s) > MaxMathBytes || len(s) == 0 {
		return false
	}
	mathy := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '$':
			return false
		case c == '\\':
			mathy = true
			j := i + 1
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			if s[i+1:j] == "text" || s[i+1:j] == "mathrm" || s[i+1:j] == "operatorname" {
				j = skipGroup(s, j)
			}
			i = max(j, i+1)
			continue
		case c >= '0' && c <= '9' || c == '=' || c == '+' || c == '^' || c == '_' || c == '*' || c == '/' || c == '<' || c == '>':
			mathy = true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) {
			j, ascii, n := i, true, 0
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
					break
				}
				ascii = ascii && r < utf8.RuneSelf
				n++
				j += size
			}
			if ascii && n >= 3 && !functionNames[s[i:j]] || !ascii && n >= 2 {
				return false
			}
			i = j
			continue
		}
		i += size
	}
	return mathy
}

// skipGroup skips spaces and one {...} group (nested) at j.
func skipGroup(s string, j int) int {
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || s[j] != '{' {
		return j
	}
	depth := 0
	for k := j; k < len(s); k++ {
		switch s[k] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(s)
}

// functionNames are words that are math: the names of functions written
// without their TeX command.
var functionNames = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true,
	"log": true, "exp": true, "gcd": true, "lcm": true, "max": true, "min": true,
	"mod": true, "det": true, "lim": true, "sqrt": true, "floor": true, "ceil": true,
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
