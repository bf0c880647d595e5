package datg

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// How a span was found in a trace.
const (
	MatchExact      = "exact"
	MatchNormalized = "normalized" // after NFKC, case folding, whitespace and $ removal
	MatchFuzzy      = "fuzzy"      // within an edit distance of a fifth of the span
	MatchNone       = "none"
)

// Location is where an evidence span lies in a trace, in characters (Unicode
// code points, as Python indexes strings).
type Location struct {
	Start, End int
	Match      string
}

// Found reports whether the span was located.
func (l Location) Found() bool { return l.Match != MatchNone }

// maxFuzzyText bounds the trace length searched fuzzily (characters).
const maxFuzzyText = 200000

// Trace is a trace prepared for locating spans in it.
type Trace struct {
	text   string
	runes  []rune
	norm   []rune // normalized text
	origin []int  // origin[i]: index in runes of norm[i]
	blocks []int  // start of each block (paragraph), in characters
}

// NewTrace prepares a trace. The normalized form is built on the first
// span that is not found exactly.
func NewTrace(text string) *Trace {
	t := &Trace{text: text, runes: []rune(text)}
	t.blocks = blockStarts(t.runes)
	return t
}

func (t *Trace) normalized() {
	if t.norm == nil {
		t.norm, t.origin = normalizeWithOrigin(t.runes)
	}
}

// Len is the trace length in characters.
func (t *Trace) Len() int { return len(t.runes) }

// Block is the 0-based paragraph (blocks are split on blank lines) holding
// the character at pos.
func (t *Trace) Block(pos int) int {
	// The last block starting at or before pos (blocks ascend from 0); 0
	// for a negative pos.
	return max(0, sort.Search(len(t.blocks), func(i int) bool { return t.blocks[i] > pos })-1)
}

// blockStarts finds where paragraphs begin: after each run of whitespace
// that holds two or more newlines.
func blockStarts(r []rune) []int {
	starts := []int{0}
	for i := 0; i < len(r); {
		if r[i] != '\n' {
			i++
			continue
		}
		j, newlines := i, 0
		for j < len(r) && unicode.IsSpace(r[j]) {
			if r[j] == '\n' {
				newlines++
			}
			j++
		}
		if newlines >= 2 && j < len(r) {
			starts = append(starts, j)
		}
		i = j
	}
	return starts
}

// Locate finds a span: exactly, else normalized, else fuzzily.
func (t *Trace) Locate(span string) Location {
	span = strings.TrimSpace(strings.ToValidUTF8(span, "\uFFFD"))
	if span == "" {
		return Location{Match: MatchNone}
	}
	if i := indexAtRune(t.text, span); i >= 0 {
		start := utf8.RuneCountInString(t.text[:i])
		return Location{Start: start, End: start + utf8.RuneCountInString(span), Match: MatchExact}
	}
	t.normalized()
	ns, _ := normalizeWithOrigin([]rune(span))
	if len(ns) == 0 {
		return Location{Match: MatchNone}
	}
	if i := indexRunes(t.norm, ns); i >= 0 {
		return Location{Start: t.origin[i], End: t.origin[i+len(ns)-1] + 1, Match: MatchNormalized}
	}
	if len(t.norm) <= maxFuzzyText && len(ns) >= 8 {
		if s, e, ok := fuzzyFind(t.norm, ns, max(2, len(ns)/5)); ok {
			return Location{Start: t.origin[s], End: t.origin[e-1] + 1, Match: MatchFuzzy}
		}
	}
	return Location{Match: MatchNone}
}

// normalizeWithOrigin applies NFKC and case folding, drops $ and
// zero-width characters, and collapses whitespace to one space, keeping for
// each output character the index of the input character it came from.
func normalizeWithOrigin(in []rune) ([]rune, []int) {
	out := make([]rune, 0, len(in))
	origin := make([]int, 0, len(in))
	space := true // drop leading whitespace
	var rb [utf8.UTFMax]byte
	var nb []byte // r in NFKC, reused across runes
	for i, r := range in {
		if r == '$' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\ufeff' {
			continue
		}
		if unicode.IsSpace(r) {
			if !space {
				out = append(out, ' ')
				origin = append(origin, i)
			}
			space = true
			continue
		}
		space = false
		if r < utf8.RuneSelf {
			out = append(out, unicode.ToLower(r))
			origin = append(origin, i)
			continue
		}
		nb = norm.NFKC.Append(nb[:0], rb[:utf8.EncodeRune(rb[:], r)]...)
		for b := nb; len(b) > 0; {
			n, size := utf8.DecodeRune(b)
			out = append(out, unicode.ToLower(n))
			origin = append(origin, i)
			b = b[size:]
		}
	}
	for len(out) > 0 && out[len(out)-1] == ' ' {
		out, origin = out[:len(out)-1], origin[:len(origin)-1]
	}
	return out, origin
}

// indexAtRune is strings.Index restricted to matches that start at a
// character boundary of a valid text.
func indexAtRune(text, span string) int {
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], span)
		if i < 0 {
			return -1
		}
		at := from + i
		if utf8.RuneStart(text[at]) && utf8.ValidString(text[:at]) {
			return at
		}
		from = at + 1
	}
	return -1
}

func indexRunes(hay, needle []rune) int {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if hay[i] == needle[0] && slices.Equal(hay[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// fuzzyFind finds the substring of text closest to pattern (Sellers'
// approximate matching) within k edits; it returns the best match's bounds.
func fuzzyFind(text, pattern []rune, k int) (start, end int, ok bool) {
	m := len(pattern)
	prev := make([]int, m+1)
	cur := make([]int, m+1)
	for i := range prev {
		prev[i] = i
	}
	best, bestEnd := k+1, -1
	for j := 1; j <= len(text); j++ {
		cur[0] = 0 // a match may start anywhere
		for i := 1; i <= m; i++ {
			cost := 1
			if pattern[i-1] == text[j-1] {
				cost = 0
			}
			cur[i] = min(prev[i-1]+cost, prev[i]+1, cur[i-1]+1)
		}
		if cur[m] < best {
			best, bestEnd = cur[m], j
		}
		prev, cur = cur, prev
	}
	if bestEnd < 0 {
		return 0, 0, false
	}
	// Find where the best match starts: align the pattern backwards.
	start = bestEnd - m
	bestStart, bestDist := max(0, start), k+1
	for s := max(0, bestEnd-m-k); s <= min(bestEnd-1, bestEnd-m+k); s++ {
		if d := editDistance(text[s:bestEnd], pattern, k); d < bestDist {
			bestStart, bestDist = s, d
		}
	}
	return bestStart, bestEnd, true
}

// editDistance is the Levenshtein distance, stopping early above limit.
func editDistance(a, b []rune, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
