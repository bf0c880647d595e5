package texmath

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitAnchor splits a DAG anchor: as Split when it holds delimiters,
// else as one inline math segment when LooksLikeMath, else, when it holds
// TeX commands among words ("part 1 = 1 \times 3"), each formula among
// the words as math (mixedAnchor), else as text.
func SplitAnchor(anchor string) []Segment {
	segs := Split(anchor)
	for _, s := range segs {
		if s.Math {
			return segs
		}
	}
	if LooksLikeMath(anchor) {
		return []Segment{{Start: 0, End: len(anchor), Math: true, Text: anchor}}
	}
	if mixed := mixedAnchor(anchor); mixed != nil {
		return mixed
	}
	return segs
}

// mixedAnchor finds the formulas in an anchor that writes TeX among words
// without delimiters: each longest run of space-separated tokens none of
// which holds a word (2 or more letters in a row that are not a TeX
// command, a function's name or inside \text{...}) is math when it holds
// a TeX command and LooksLikeMath. It returns nil when no run is math.
func mixedAnchor(anchor string) []Segment {
	if len(anchor) > MaxMathBytes || !strings.Contains(anchor, `\`) {
		return nil
	}
	var out []Segment
	found := false
	text := 0 // start of the text not yet in out
	flush := func(start, end int) {
		run := anchor[start:end]
		if !strings.Contains(run, `\`) || !LooksLikeMath(run) {
			return
		}
		if start > text {
			out = append(out, Segment{Start: text, End: start, Text: anchor[text:start]})
		}
		out = append(out, Segment{Start: start, End: end, Math: true, Text: run})
		text, found = end, true
	}
	runStart, runEnd := -1, -1
	for i := 0; i < len(anchor); {
		if anchor[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(anchor) && anchor[j] != ' ' {
			j++
		}
		if _, word := scanMath(anchor[i:j], 2); word {
			if runStart >= 0 {
				flush(runStart, runEnd)
			}
			runStart = -1
		} else {
			if runStart < 0 {
				runStart = i
			}
			runEnd = j
		}
		i = j
	}
	if runStart >= 0 {
		flush(runStart, runEnd)
	}
	if !found {
		return nil
	}
	if text < len(anchor) {
		out = append(out, Segment{Start: text, End: len(anchor), Text: anchor[text:]})
	}
	return out
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
	mathy, word := scanMath(s, 3)
	return mathy && !word
}

// scanMath says whether s holds a digit, an operator or a TeX command
// (mathy), and whether it holds a $ or a word: a run of minASCII or more
// ASCII letters that is not a function's name, or of 2 or more other
// letters, outside TeX commands and \text{...}.
func scanMath(s string, minASCII int) (mathy, word bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '$':
			return mathy, true
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
			if ascii && n >= minASCII && !functionNames[s[i:j]] || !ascii && n >= 2 {
				return mathy, true
			}
			i = j
			continue
		}
		i += size
	}
	return mathy, false
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
