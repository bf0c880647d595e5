package datg

import (
	"sort"
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
	// Cut says why the search stopped short of the fuzzy match (a cap of
	// Locator); empty when the span was searched every way, or found.
	Cut string
}

// Found reports whether the span was located.
func (l Location) Found() bool { return l.Match != MatchNone }

// Trace is a trace prepared for locating spans in it.
type Trace struct {
	text     string
	validTo  int // byte length of text's longest valid UTF-8 prefix
	runes    []rune
	haveNorm bool
	norm     []rune // normalized text
	origin   []int  // origin[i]: index in runes of norm[i]
	blocks   []int  // start of each block (paragraph), in characters
	// starts[k]: the characters that start in the text's first
	// k*runeIndexStride bytes (runeIndex), made on the first exact match.
	starts []int
}

// runeIndexStride is the bytes between two of runeIndex's checkpoints: it
// counts at most that many bytes past one.
const runeIndexStride = 256

// runeIndex is the index in the text's characters of the one that starts
// at byte i, for i within the text's valid UTF-8 prefix: the bytes before
// i that start a character, counted from the last checkpoint before i. It
// is utf8.RuneCountInString(text[:i]) without counting from the start of
// the text for every span found exactly (five DAGs of eight spans each in
// a 30-120 KB trace: that count was a seventh of align's CPU time).
func (t *Trace) runeIndex(i int) int {
	if t.starts == nil {
		t.starts = make([]int, t.validTo/runeIndexStride+1)
		for k := 1; k < len(t.starts); k++ {
			t.starts[k] = t.starts[k-1] + charStarts(t.text[(k-1)*runeIndexStride:k*runeIndexStride])
		}
	}
	k := i / runeIndexStride
	return t.starts[k] + charStarts(t.text[k*runeIndexStride:i])
}

// charStarts counts the bytes of s that start a UTF-8 character (are not
// continuation bytes): in valid UTF-8, its characters.
func charStarts(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// NewTrace prepares a trace. The normalized form is built on the first
// span that is not found exactly.
func NewTrace(text string) *Trace {
	t := &Trace{text: text, validTo: validPrefix(text), runes: []rune(text)}
	t.blocks = blockStarts(t.runes)
	return t
}

func (t *Trace) normalized() {
	if !t.haveNorm {
		t.norm, t.origin = normalizeWithOrigin(t.runes)
		t.haveNorm = true
	}
}

// validPrefix is the byte length of the longest prefix of s that is valid
// UTF-8.
func validPrefix(s string) int {
	if utf8.ValidString(s) {
		return len(s)
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(s)
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

// Locate finds a span: exactly, else normalized, else fuzzily, within the
// work one span may take (see Locator).
func (t *Trace) Locate(span string) Location { return t.Locator().Locate(span) }

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
