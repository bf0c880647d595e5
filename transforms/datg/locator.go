package datg

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Caps on locating evidence spans. An aligner's reply or an imported line
// may hold any number of spans of any length, and a trace may be long; a
// span is searched exactly and after normalization (each linear in the
// trace), then fuzzily (Myers' bit-vector algorithm: the trace's length
// times the span's in 64-character words). The caps keep the fuzzy search
// to spans the paper's aligners quote (a sentence or a formula) and the
// work of one alignment proportional to its trace, so a hostile reply,
// which `datg align` replays from its journal on every run, costs no more
// than a bounded number of searches. A span a cap stops is not located, as
// a span that is not in the trace; Location.Cut says which cap.
const (
	// MaxFuzzySpanChars bounds the span (normalized, in characters)
	// searched fuzzily; a longer span is searched exactly and normalized
	// only.
	MaxFuzzySpanChars = 1000
	// MaxFuzzyTraceChars bounds the trace (normalized, in characters)
	// searched fuzzily.
	MaxFuzzyTraceChars = 200000
	// LocateStepsPerChar and LocateStepsFloor make a Locator's budget:
	// LocateStepsFloor + LocateStepsPerChar × the trace's characters. A
	// step is a byte of the exact search, a character normalized or
	// compared in the normalized search, or a 64-character word of the span
	// per trace character in the fuzzy search: the budget pays for about
	// 128 spans not found in the trace, or 25 searched fuzzily at the
	// span cap.
	LocateStepsPerChar = 512
	LocateStepsFloor   = 1 << 20
)

// Why a search was cut short (Location.Cut).
var (
	CutLongSpan  = fmt.Sprintf("the span is longer than %d characters: searched exactly and normalized, not fuzzily", MaxFuzzySpanChars)
	CutLongTrace = fmt.Sprintf("the trace is longer than %d characters: the span was searched exactly and normalized, not fuzzily", MaxFuzzyTraceChars)
	CutBudget    = fmt.Sprintf("the alignment's budget for locating spans (%d steps + %d per trace character) is spent: the span was not searched in full", LocateStepsFloor, LocateStepsPerChar)
)

// LocateBudget is the work a Locator may do in a trace of traceChars
// characters, in steps.
func LocateBudget(traceChars int) int { return LocateStepsFloor + LocateStepsPerChar*traceChars }

// Locator locates the spans of one alignment in a trace, within one budget
// of work (LocateBudget). Once a search would overrun the budget, it and
// every later one are cut (CutBudget).
type Locator struct {
	t     *Trace
	left  int
	spent int
	out   bool // the budget could not pay for a search
}

// Locator starts locating spans in t with a fresh budget.
func (t *Trace) Locator() *Locator { return &Locator{t: t, left: LocateBudget(t.Len())} }

// Spent is the work done so far, in steps.
func (l *Locator) Spent() int { return l.spent }

// pay takes steps from the budget, or reports that it cannot.
func (l *Locator) pay(steps int) bool {
	if l.out || steps > l.left {
		l.out = true
		return false
	}
	l.left -= steps
	l.spent += steps
	return true
}

// Locate finds a span: exactly, else normalized, else fuzzily.
func (l *Locator) Locate(span string) Location {
	none := Location{Match: MatchNone}
	cut := Location{Match: MatchNone, Cut: CutBudget}
	span = strings.TrimSpace(strings.ToValidUTF8(span, "\uFFFD"))
	if span == "" {
		return none
	}
	t := l.t
	if !l.pay(len(t.text) + len(span)) {
		return cut
	}
	if i := t.indexExact(span); i >= 0 {
		start := t.runeIndex(i)
		return Location{Start: start, End: start + utf8.RuneCountInString(span), Match: MatchExact}
	}
	steps := utf8.RuneCountInString(span)
	if !t.haveNorm {
		steps += len(t.runes)
	}
	if !l.pay(steps) {
		return cut
	}
	t.normalized()
	ns, _ := normalizeWithOrigin([]rune(span))
	if len(ns) == 0 {
		return none
	}
	if !l.pay(len(t.norm) + len(ns)) {
		return cut
	}
	if i := indexRunes(t.norm, ns); i >= 0 {
		return Location{Start: t.origin[i], End: t.origin[i+len(ns)-1] + 1, Match: MatchNormalized}
	}
	if len(ns) < 8 {
		return none
	}
	switch {
	case len(ns) > MaxFuzzySpanChars:
		none.Cut = CutLongSpan
		return none
	case len(t.norm) > MaxFuzzyTraceChars:
		none.Cut = CutLongTrace
		return none
	}
	k := max(2, len(ns)/5)
	if !l.pay(fuzzySteps(len(t.norm), len(ns), k)) {
		return cut
	}
	if s, e, ok := fuzzyFind(t.norm, ns, k); ok {
		return Location{Start: t.origin[s], End: t.origin[e-1] + 1, Match: MatchFuzzy}
	}
	return none
}

// indexExact is the byte offset of the first occurrence of span (valid
// UTF-8) in the text that starts at a character boundary of a valid prefix
// of the text, or -1. Such a match starts at or before the first invalid
// byte, so one search of the text up to there finds it.
func (t *Trace) indexExact(span string) int {
	return strings.Index(t.text[:min(len(t.text), t.validTo+len(span))], span)
}

// indexRunes is the first occurrence of needle (not empty) in hay, or -1:
// Knuth-Morris-Pratt, linear in both.
func indexRunes(hay, needle []rune) int {
	fail := make([]int, len(needle)) // fail[i]: longest proper border of needle[:i+1]
	for i, k := 1, 0; i < len(needle); i++ {
		for k > 0 && needle[i] != needle[k] {
			k = fail[k-1]
		}
		if needle[i] == needle[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := 0, 0; i < len(hay); i++ {
		for k > 0 && hay[i] != needle[k] {
			k = fail[k-1]
		}
		if hay[i] == needle[k] {
			k++
		}
		if k == len(needle) {
			return i - k + 1
		}
	}
	return -1
}
