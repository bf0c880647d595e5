package datg

// The span locator as it was before issue 19 (naive normalized search,
// Sellers' O(n·m) fuzzy search, a quadratic start search): kept as the
// oracle the bounded locator must agree with wherever no cap applies.

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// refLocate finds a span: exactly, else normalized, else fuzzily.
func refLocate(t *Trace, span string) Location {
	span = strings.TrimSpace(strings.ToValidUTF8(span, "\uFFFD"))
	if span == "" {
		return Location{Match: MatchNone}
	}
	if i := refIndexAtRune(t.text, span); i >= 0 {
		start := utf8.RuneCountInString(t.text[:i])
		return Location{Start: start, End: start + utf8.RuneCountInString(span), Match: MatchExact}
	}
	t.normalized()
	ns, _ := normalizeWithOrigin([]rune(span))
	if len(ns) == 0 {
		return Location{Match: MatchNone}
	}
	if i := refIndexRunes(t.norm, ns); i >= 0 {
		return Location{Start: t.origin[i], End: t.origin[i+len(ns)-1] + 1, Match: MatchNormalized}
	}
	if len(t.norm) <= MaxFuzzyTraceChars && len(ns) >= 8 {
		if s, e, ok := refFuzzyFind(t.norm, ns, max(2, len(ns)/5)); ok {
			return Location{Start: t.origin[s], End: t.origin[e-1] + 1, Match: MatchFuzzy}
		}
	}
	return Location{Match: MatchNone}
}

// refIndexAtRune is strings.Index restricted to matches that start at a
// character boundary of a valid text.
func refIndexAtRune(text, span string) int {
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

func refIndexRunes(hay, needle []rune) int {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if hay[i] == needle[0] && slices.Equal(hay[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// refFuzzyFind finds the substring of text closest to pattern (Sellers'
// approximate matching) within k edits; it returns the best match's bounds.
func refFuzzyFind(text, pattern []rune, k int) (start, end int, ok bool) {
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
		if d := refEditDistance(text[s:bestEnd], pattern, k); d < bestDist {
			bestStart, bestDist = s, d
		}
	}
	return bestStart, bestEnd, true
}

// refEditDistance is the Levenshtein distance, stopping early above limit.
func refEditDistance(a, b []rune, limit int) int {
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
