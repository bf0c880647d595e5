package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A candidate is a piece of text that may be the final answer: a math
// expression ($…$, \(…\), \[…\]), a number in prose, or what follows an
// answer marker between prose words.
type candidate struct {
	start, end int
	text       string
	math       bool // a math expression rather than plain text
}

// numberRe finds numbers in prose, with signs, thousands separators
// (1,234,567; 1.500.000; 1 000 with a space or a thin space), decimal
// points or commas (3.5, 3,5: Parse decides which a comma is) and simple
// fractions.
var numberRe = lazyRegexp(`[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?\b` +
	`|[-−]?\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?\b` +
	`|[-−]?\d{1,3}(?:[ \x{a0}\x{2009}\x{202f}]\d{3})+(?:[.,]\d+)?\b` +
	`|[-−]?\d+(?:[.,]\d+)?(?:\s*/\s*\d+)?`)

// lastExpression is the answer of a text with neither box nor marker, as
// Math-Verify reads one: the last math expression or number, whichever
// ends last. A number inside an expression is part of it; an expression
// that is not math, or only a name ("the largest value of $n$"), is passed
// over for the value before it. Values just before it joined only by
// separators belong to the answer too (see joins): "$x = 2$ and $x = 3$",
// and "2 dan 3" when the gold is a list. how says whether a math
// expression or a number was taken.
func lastExpression(text string, list bool) (answer, how string, ok bool) {
	spans := mathSpans(text)
	var cands []candidate
	from := 0
	outside := func(to int) {
		scanned(to - from)
		for _, loc := range numberRe().FindAllStringIndex(text[from:to], -1) {
			cands = append(cands, candidate{start: from + loc[0], end: from + loc[1], text: text[from+loc[0] : from+loc[1]]})
		}
	}
	for _, sp := range spans {
		outside(sp.start)
		cands = append(cands, candidate{start: sp.start, end: sp.end, text: sp.content, math: true})
		from = sp.end
	}
	outside(len(text))
	if len(cands) == 0 {
		return "", "", false
	}
	last := len(cands) - 1
	for i := last; i >= 0 && last-i < maxJoined; i-- {
		if isValue(cands[i].text) {
			last = i
			break
		}
	}
	first := last
	for first > 0 && last-first+1 < maxJoined && joins(cands[first-1], cands[first], text, list) {
		first--
	}
	how = "last-number"
	if cands[last].math {
		how = "last-math"
	}
	return joinCandidates(cands[first : last+1]), how, true
}

// clauseAnswer reads the answer that follows a marker ("Answer:", "Jibu:",
// "答案：") from rest, the text after it: the marker's clause ends at the
// end of its sentence or line, outside math. The answer is the clause's
// first value: its first math expression, or the first run of text between
// prose words, that is not only a name. "The largest $n$ is 34." gives 34,
// "$18$ dollars per week for $4$ weeks" gives 18, "x = 2 or x = -2" is
// taken whole. The values right after it joined only by separators belong
// to the answer (see joins): "$x = 2$ ou $x = 3$". A clause with no value
// is taken whole ("yes", "$n$").
func clauseAnswer(rest string, list bool) string {
	spans := mathSpans(rest)
	end := clauseEnd(rest, spans)
	clause := rest[:end]
	var cands []candidate
	from := 0
	for _, sp := range spans {
		if sp.start >= end {
			break
		}
		cands = append(cands, proseChunks(clause, from, sp.start)...)
		cands = append(cands, candidate{start: sp.start, end: sp.end, text: sp.content, math: true})
		from = sp.end
	}
	cands = append(cands, proseChunks(clause, from, end)...)
	first := -1
	for i, c := range cands {
		if i == maxJoined {
			break
		}
		if isValue(c.text) {
			first = i
			break
		}
	}
	if first < 0 {
		return strings.TrimRight(strings.TrimSpace(clause), " .。")
	}
	last := first
	for last+1 < len(cands) && last-first+1 < maxJoined && joins(cands[last], cands[last+1], clause, list) {
		last++
	}
	return joinCandidates(cands[first : last+1])
}

// joins reports whether two candidates of a text are one answer: values
// with only separators between them (see joinsValues). Math expressions
// join always, as Math-Verify reads "$x = 2$ or $x = 3$" as both
// solutions (a hedge between two answers is then no answer to a single
// gold); numbers in prose only when the gold is a list.
func joins(a, b candidate, text string, list bool) bool {
	return (list || a.math && b.math) && joinsValues(text[a.end:b.start]) && isValue(a.text) && isValue(b.text)
}

func joinCandidates(cs []candidate) string {
	if len(cs) == 1 {
		return strings.TrimSpace(cs[0].text)
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = strings.TrimSpace(c.text)
	}
	return strings.Join(parts, ", ")
}

// sentenceEnds end the clause of a marker (outside math).
var sentenceEnds = []string{"\n", ". ", "。", "! ", "? ", "？", "！", "। ", "．"}

// clauseEnd is where the first sentence of s ends, outside its math
// expressions.
func clauseEnd(s string, spans []mathSpan) int {
	end := len(s)
	from := 0
	for _, sp := range append(spans, mathSpan{start: len(s), end: len(s)}) {
		seg := s[from:sp.start]
		scanned(len(sentenceEnds) * len(seg))
		for _, e := range sentenceEnds {
			if i := strings.Index(seg, e); i >= 0 && from+i < end {
				end = from + i
			}
		}
		if end < len(s) {
			return end
		}
		from = sp.end
	}
	return end
}

// proseChunks splits the plain text s[from:to] at prose words: what lies
// between them (numbers, plain math such as "x = 2 or x = -2", units) are
// candidates. Prose words are natural-language words (see isProseWord);
// a \text{} holding one is prose too.
func proseChunks(s string, from, to int) []candidate {
	var out []candidate
	start := from
	flush := func(end int) {
		// What only joins values (", and") is no candidate.
		if t := strings.TrimSpace(strings.Trim(s[start:end], " ,;:，、；：")); t != "" && t != "=" && !joinsValues(t) {
			out = append(out, candidate{start: start, end: end, text: s[start:end]})
		}
	}
	scanned(to - from)
	for i := from; i < to; {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			// A command is math; a \text{} of prose is prose.
			if loc := textCmdPrefixRe().FindStringIndex(s[i:to]); loc != nil {
				inner, ok := balanced(s[i+loc[1]-1 : to])
				if !ok {
					i = to
					continue
				}
				n := loc[1] + len(inner) + 1
				if hasProseWord(inner) {
					flush(i)
					start = i + n
				}
				i += n
				continue
			}
			j := i + 1
			for j < to && isASCIILetter(s[j]) {
				j++
			}
			if name := s[i+1 : j]; name == "begin" || name == "end" {
				// \begin{pmatrix}, \begin{array}{cc}: environment names are math.
				for k := 0; k < 2 && j < to && s[j] == '{'; k++ {
					inner, ok := balanced(s[j:to])
					if !ok {
						break
					}
					j += len(inner) + 2
				}
			}
			i = j
		case unicode.IsLetter(r):
			// A word: Latin letters, or letters and marks of another script.
			latin, j := r < utf8.RuneSelf, i
			for j < to {
				r2, w2 := utf8.DecodeRuneInString(s[j:])
				if latin && !(r2 < utf8.RuneSelf && isASCIILetter(byte(r2))) ||
					!latin && (r2 < utf8.RuneSelf || !unicode.IsLetter(r2) && !unicode.IsMark(r2)) {
					break
				}
				j += w2
			}
			if isProseWord(s[i:j]) {
				flush(i)
				start = j
			}
			i = j
		default:
			i += w
		}
	}
	flush(to)
	return out
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// hasProseWord reports whether s holds a prose word.
func hasProseWord(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		if isProseWord(w) {
			return true
		}
	}
	return false
}

// stopWords are short words of the study's languages that are prose, not a
// product of two variables.
var stopWords = map[string]bool{
	"is": true, "of": true, "to": true, "so": true, "we": true, "it": true, "as": true, "be": true, "an": true,
	"at": true, "by": true, "if": true, "on": true, "le": true, "la": true, "de": true, "du": true, "un": true,
	"en": true, "il": true, "ni": true, "ya": true, "wa": true, "za": true, "di": true, "ke": true,
}

// isProseWord reports whether a word is natural language rather than math:
// a word in another script than Latin and Greek (except conjunctions, which
// join values, and percent words), a Latin word of three letters or more
// that is not a function, constant, unit-like percent word or conjunction,
// or a short stop word.
func isProseWord(w string) bool {
	lower := strings.ToLower(w)
	if conjunctions[lower] != "" || percentWords[lower] != 0 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w)
	if r >= utf8.RuneSelf {
		return r != 'π' && !(r >= 'α' && r <= 'ω')
	}
	if stopWords[lower] {
		return true
	}
	if utf8.RuneCountInString(w) < 3 || functions[lower] != "" {
		return false
	}
	switch lower {
	case "pi", "inf", "infty", "infinity", "sqrt", "mod":
		return false
	}
	return true
}

// isValue reports whether a candidate is a value: it reads as math and is
// more than a name (n, AB, f(x), which a sentence names before giving its
// value).
func isValue(s string) bool {
	v := Parse(s)
	return v.node != nil && !bareName(v.node)
}

// bareName reports whether a parsed answer is only a name: a variable, or
// variables side by side (AB, f(x)).
func bareName(n node) bool {
	switch x := n.(type) {
	case *varNode:
		return true
	case *mulNode:
		for _, f := range x.factors {
			if _, ok := f.(*varNode); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// gapWordRe reads a word at the start of a gap between two values.
var gapWordRe = lazyRegexp(`^[\pL\pM]+`)

// labelRe reads a name assigned a value at the start of a gap: the "x_2 ="
// of "$x_1 = \boxed{2}$, $x_2 = \boxed{3}$".
var labelRe = lazyRegexp(`^\\?[A-Za-z]+(?:_\{?[A-Za-z0-9]+\}?)?\s*=`)

// gapTokens are punctuation and spacing that join values into a list.
var gapTokens = []string{",", ";", "，", "、", "；", "$", `\(`, `\)`, `\[`, `\]`, "&", `\quad`, `\qquad`, `\,`, `\;`, `\ `, `\\`, "*"}

// maxGapNesting bounds how deep \text{} inside \text{} a gap is read
// ("\text{ and }" is one deep): each level reads the gap once, so the
// work stays linear in the gap; deeper nesting joins nothing.
const maxGapNesting = 8

// joinsValues reports whether the text between two values only joins
// them: spaces, commas, math delimiters, a conjunction in any of the
// study's languages (and, et, dan, и, 和, และ, ...), and names the next
// value is assigned to.
func joinsValues(gap string) bool { return joinsValuesIn(gap, 0) }

// joinsValuesIn is joinsValues on a gap inside depth \text{}s.
func joinsValuesIn(gap string, depth int) bool {
	if depth > maxGapNesting {
		return false
	}
	g := strings.TrimSpace(gap)
	scanned(len(gap) - len(g))
	for n := 0; g != "" && n < 64; n++ {
		before := len(g)
		cut := false
		for _, t := range gapTokens {
			if strings.HasPrefix(g, t) {
				g, cut = g[len(t):], true
				break
			}
		}
		if !cut {
			if loc := textCmdPrefixRe().FindStringIndex(g); loc != nil {
				inner, ok := balanced(g[loc[1]-1:])
				if !ok || !joinsValuesIn(inner, depth+1) {
					return false
				}
				g, cut = g[loc[1]+len(inner)+1:], true
			}
		}
		if !cut {
			if w := gapWordRe().FindString(g); w != "" && conjunctions[strings.ToLower(w)] != "" {
				g, cut = g[len(w):], true
			} else if l := labelRe().FindString(g); l != "" {
				g, cut = g[len(l):], true
			}
		}
		if !cut {
			scanned(len(g)) // at most what the patterns read
			return false
		}
		g = strings.TrimSpace(g)
		scanned(before - len(g))
	}
	return g == ""
}
