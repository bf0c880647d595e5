package datg

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Equations reads every trace datg aligns symbolically (24 KB at the
// paper's real lengths, five DAGs each), and the two regular expressions
// it used (mathSpan, plainEquation) were four fifths of align
// --aligner symbolic's time: Go's regexp steps an automaton over every
// byte of the text. The scanners below find the same matches (the
// regexps are kept in the tests as the oracle, refEquations): a math span
// by looking for its delimiters, a plain equation by running the regexp
// only on the short pieces of text that can hold one.

// mathSpanMatch is a math span: the whole span and its content.
type mathSpanMatch struct{ start, end, contentStart, contentEnd int }

// mathSpans finds what mathSpan.FindAllStringSubmatchIndex finds:
// $$...$$, \[...\], \(...\) with content across lines, and $...$ on one
// line, each the shortest at the leftmost place, in that order of
// preference, without overlaps.
func mathSpans(text string) []mathSpanMatch {
	var out []mathSpanMatch
	for i := 0; i < len(text); {
		if m, ok := mathSpanAt(text, i); ok {
			out = append(out, m)
			i = m.end
			continue
		}
		// The regexp steps by characters: an invalid byte is one.
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return out
}

// mathSpanAt is the math span that starts at i, if one does.
func mathSpanAt(text string, i int) (mathSpanMatch, bool) {
	// closed finds the closing delimiter after at least one byte of
	// content (a character: none of the delimiters' bytes is inside a
	// multi-byte one).
	closed := func(open, close string) (mathSpanMatch, bool) {
		if !strings.HasPrefix(text[i:], open) || i+len(open) >= len(text) {
			return mathSpanMatch{}, false
		}
		from := i + len(open) + 1
		j := strings.Index(text[from:], close)
		if j < 0 {
			return mathSpanMatch{}, false
		}
		j += from
		return mathSpanMatch{start: i, end: j + len(close), contentStart: i + len(open), contentEnd: j}, true
	}
	switch text[i] {
	case '$':
		if m, ok := closed("$$", "$$"); ok {
			return m, true
		}
		// $...$: one line, no $ inside, at least one character.
		j := strings.IndexAny(text[i+1:], "$\n")
		if j <= 0 || text[i+1+j] != '$' {
			return mathSpanMatch{}, false
		}
		return mathSpanMatch{start: i, end: i + j + 2, contentStart: i + 1, contentEnd: i + 1 + j}, true
	case '\\':
		if m, ok := closed(`\[`, `\]`); ok {
			return m, true
		}
		return closed(`\(`, `\)`)
	}
	return mathSpanMatch{}, false
}

// plainEquations finds what plainEquation.FindAllStringIndex finds. A
// match is a chain of words and numbers ([\w.]+) joined by operators, an
// = and a number: it holds only those characters, whitespace, an = and
// commas, and whitespace in it always touches an operator or the =. So
// no match crosses a character outside that set, nor whitespace between
// two word characters, and none lies in a piece without an =: the regexp
// runs only on the pieces between those breaks that hold an =, and as it
// has no assertions it finds in a piece what it finds there in the whole
// text.
func plainEquations(text string) [][]int { return plainEquationsOutside(text, nil) }

// plainEquationsOutside is plainEquations less the pieces wholly inside
// math spans (covered, by byte): Equations drops a match that starts in
// one, and most of a trace's = signs are in its math.
func plainEquationsOutside(text string, covered []bool) [][]int {
	var out [][]int
	start := 0  // where the current piece starts
	eq := false // the piece holds an =
	// prevWord is whether the last character before a run of
	// whitespace was a word character ([\w.]).
	prevWord, inSpace := false, false
	flush := func(end int) {
		if eq && covered != nil && !slices.Contains(covered[start:end], false) {
			eq = false
		}
		if eq {
			for _, m := range plainEquation.FindAllStringIndex(text[start:end], -1) {
				out = append(out, []int{start + m[0], start + m[1]})
			}
		}
		eq = false
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case isSpaceClass(r):
			if !inSpace {
				inSpace = true
			}
		case isWordClass(r):
			if inSpace && prevWord {
				// word, whitespace, word: a break (the whitespace is
				// in neither piece; it cannot start a match).
				flush(i)
				start = i
			}
			inSpace, prevWord = false, true
		case r == '=' || r == ',' || isOperator(r):
			if r == '=' {
				eq = true
			}
			inSpace, prevWord = false, false
		default:
			// Any other character (an invalid byte too) is a break.
			flush(i)
			start = i + size
			inSpace, prevWord = false, false
		}
		i += size
	}
	flush(len(text))
	return out
}

// isWordClass is [\w.]: ASCII letters, digits, _ and the period.
func isWordClass(r rune) bool {
	return r == '.' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// isSpaceClass is the regexp's \s: [\t\n\f\r ].
func isSpaceClass(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' }

// isOperator is [-+*/×÷·^].
func isOperator(r rune) bool {
	switch r {
	case '-', '+', '*', '/', '×', '÷', '·', '^':
		return true
	}
	return false
}
