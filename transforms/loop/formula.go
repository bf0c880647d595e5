package loop

import (
	"strings"
	"unicode/utf8"
)

// mathWords are letter sequences that belong to a formula even without a
// backslash ("sin x", "log 8"), so they do not split it as prose does.
var mathWords = map[string]bool{
	"sin": true, "cos": true, "tan": true, "log": true, "ln": true, "exp": true,
	"sqrt": true, "frac": true, "cdot": true, "times": true, "div": true,
	"le": true, "ge": true, "neq": true, "pi": true,
}

// latexOps are the LaTeX commands that act as an operator, so that
// "\frac{3}{4}" or "3 \cdot 4" qualifies like "3/4" or "3 * 4". Other
// commands (\text, \boxed, \left) are neither operator nor operand.
var latexOps = map[string]bool{
	"frac": true, "dfrac": true, "tfrac": true, "cdot": true, "times": true,
	"div": true, "sqrt": true, "pm": true, "mp": true, "le": true, "leq": true,
	"ge": true, "geq": true, "ne": true, "neq": true, "approx": true,
	"equiv": true, "lt": true, "gt": true, "binom": true, "sum": true, "prod": true,
}

// isOperator reports the characters that make a run a formula.
func isOperator(r rune) bool {
	switch r {
	case '=', '+', '-', '*', '/', '^', '<', '>', '×', '÷', '·', '−', '≤', '≥', '≠', '≈':
		return true
	}
	return false
}

// isRunChar reports the characters a formula run is made of, besides ASCII
// letters and digits. A newline is not one: formulas do not span lines.
func isRunChar(r rune) bool {
	switch r {
	case ' ', '\t', '(', ')', '[', ']', '{', '}', '\\', '_', '.', ',', '%', '\'', '√', 'π':
		return true
	}
	return isOperator(r)
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isASCIIDigit(c byte) bool  { return '0' <= c && c <= '9' }

// formulaSpans calls emit with the start offset and text of every formula,
// equation or assignment in text: the pieces of maximal runs of formula
// characters, split at prose words (two or more ASCII letters, not a LaTeX
// command and not a math word), that hold an operator and at least two
// operands (numbers, single-letter variables, π). So "16 - 3 - 4 = 9",
// "x = 5", "a_1 + a_2" and "\frac{3}{4}" qualify, while "re-check" (a lone
// "-" between two words) and "ni 9." (no operator) do not.
//
// A piece is trimmed of spaces, periods and commas on both sides: the piece
// after a prose word often starts with the word's punctuation ("Hivyo,
// x = 5."), which must not make "x = 5" look different.
//
// A piece still open when the text ends, or ended only by a word that runs
// into the end, may continue in the next tokens ("16 - 3 - 4 =" before
// " 9"), so it is dropped rather than reported as a new span.
func formulaSpans(text string, emit emitter) {
	var (
		open     bool
		start    int
		hasOp    bool
		operands int
	)
	begin := func(i int) {
		if !open {
			open, start, hasOp, operands = true, i, false, 0
		}
	}
	end := func(i int, complete bool) {
		if open && complete && hasOp && operands >= 2 {
			piece := text[start:i]
			trimmed := strings.TrimLeft(piece, " \t.,")
			s := start + len(piece) - len(trimmed)
			trimmed = strings.TrimRight(trimmed, " \t.,")
			emit(s, "", trimmed, "")
		}
		open = false
	}

	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isASCIILetter(c):
			j := i + 1
			for j < len(text) && isASCIILetter(text[j]) {
				j++
			}
			word := text[i:j]
			command := i > 0 && text[i-1] == '\\'
			switch {
			case !command && len(word) >= 2 && !mathWords[word]:
				end(i, j < len(text)) // prose splits the run
			case command:
				begin(i)
				hasOp = hasOp || latexOps[word]
			case len(word) == 1 || word == "pi":
				begin(i)
				operands++
			default: // a function name such as sin or log
				begin(i)
			}
			i = j
		case isASCIIDigit(c):
			begin(i)
			operands++
			i = numberEnd(text, i, isASCIIDigitRune)
		default:
			r, w := utf8.DecodeRuneInString(text[i:])
			switch {
			case isOperator(r):
				begin(i)
				hasOp = true
			case r == 'π':
				begin(i)
				operands++
			case isRunChar(r):
				begin(i)
			default:
				end(i, true)
			}
			i += w
		}
	}
	end(len(text), false)
}

func isASCIIDigitRune(r rune) bool { return '0' <= r && r <= '9' }

// numberEnd returns the end of the number starting at text[i]: digits, with
// a '.' or ',' allowed between two digits ("1,000.5").
func numberEnd(text string, i int, digit func(rune) bool) int {
	for i < len(text) {
		r, w := utf8.DecodeRuneInString(text[i:])
		if digit(r) {
			i += w
			continue
		}
		if r == '.' || r == ',' {
			if n, _ := utf8.DecodeRuneInString(text[i+1:]); digit(n) {
				i++ // the separator; the digit after it is taken next
				continue
			}
		}
		break
	}
	return i
}
