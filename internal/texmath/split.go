package texmath

import (
	"strings"
)

// MaxMathBytes bounds the content of one math span: longer content stays
// text (a model that loops inside $...$ writes no formula of that size).
const MaxMathBytes = 8 << 10

// Segment is a run of text or one math span.
type Segment struct {
	// Start and End are byte offsets of the segment in the text, math
	// delimiters included: the segments of a text tile it.
	Start, End int
	// Math says the segment is math; Display that it is display math ($$ or
	// \[).
	Math, Display bool
	// Text is the segment's text, or for math the TeX inside its
	// delimiters (for a bare \boxed{...}, the command with its argument).
	Text string
}

// Split cuts text into text and math segments, in order, tiling the text.
// It never fails: text that is not well-formed math is text.
func Split(text string) []Segment {
	sc := scanner{s: text}
	sc.run()
	return sc.out
}

// scanner walks the text once. Each closing delimiter is found through a
// finder that remembers its last answer, so a text of a million openers
// and no closer is searched once, not once per opener.
type scanner struct {
	s    string
	out  []Segment
	text int // start of the pending text segment
	work int // bytes looked at (FuzzSplit bounds it: linear time)

	dollar, dollars, closeParen, closeBracket, blankLine finder
	braces                                               []int32 // matching '}' of each '{' (lazily; -1: none)
}

// finder answers "next occurrence at or after from" for increasing from,
// searching again only past its last answer.
type finder struct {
	searched bool
	at       int // last answer: an index, or -1 for none after searchedFrom
}

func (sc *scanner) find(f *finder, from int, search func(from int) int) int {
	if f.searched && (f.at < 0 || f.at >= from) {
		return f.at
	}
	f.searched = true
	f.at = search(from)
	return f.at
}

// index is strings.Index from from, counting the bytes it scans.
func (sc *scanner) index(tok string, from int) int {
	if from > len(sc.s) {
		return -1
	}
	i := strings.Index(sc.s[from:], tok)
	if i < 0 {
		sc.work += len(sc.s) - from
		return -1
	}
	sc.work += i + len(tok)
	return from + i
}

func (sc *scanner) run() {
	s := sc.s
	for i := 0; i < len(s); {
		sc.work++
		switch s[i] {
		case '\\':
			if i+1 >= len(s) {
				i++
				continue
			}
			switch s[i+1] {
			case '(':
				if end, ok := sc.delimited(i, `\(`, `\)`, &sc.closeParen, false); ok {
					i = end
					continue
				}
			case '[':
				if end, ok := sc.delimited(i, `\[`, `\]`, &sc.closeBracket, true); ok {
					i = end
					continue
				}
			case 'b':
				if end, ok := sc.boxed(i); ok {
					i = end
					continue
				}
			}
			i += 2 // \\, \$, \( without a closer, ...: two bytes of text
		case '$':
			if i+1 < len(s) && s[i+1] == '$' {
				if end, ok := sc.delimited(i, "$$", "$$", &sc.dollars, true); ok {
					i = end
					continue
				}
				i += 2
				continue
			}
			if end, ok := sc.inlineDollar(i); ok {
				i = end
				continue
			}
			i++
		default:
			i++
		}
	}
	sc.flush(len(s))
}

// flush ends the pending text segment at end.
func (sc *scanner) flush(end int) {
	if end > sc.text {
		sc.out = append(sc.out, Segment{Start: sc.text, End: end, Text: sc.s[sc.text:end]})
	}
	sc.text = end
}

// emit adds the math span s[start:end] with content s[start+lo:end-hi].
func (sc *scanner) emit(start, end, lo, hi int, display bool) int {
	sc.flush(start)
	sc.out = append(sc.out, Segment{Start: start, End: end, Math: true, Display: display, Text: sc.s[start+lo : end-hi]})
	sc.text = end
	return end
}

// content reports whether inner is math worth rendering.
func content(inner string) bool {
	return len(inner) <= MaxMathBytes && strings.TrimSpace(inner) != ""
}

// delimited reads open...close at i.
func (sc *scanner) delimited(i int, open, close string, f *finder, display bool) (int, bool) {
	from := i + len(open)
	j := sc.find(f, from, func(from int) int { return sc.index(close, from) })
	if j < 0 || !content(sc.s[from:j]) {
		return 0, false
	}
	return sc.emit(i, j+len(close), len(open), len(close), display), true
}

// inlineDollar reads $...$ at i (s[i+1] is not $).
func (sc *scanner) inlineDollar(i int) (int, bool) {
	s := sc.s
	j := sc.find(&sc.dollar, i+1, sc.nextUnescapedDollar)
	if j < 0 {
		return 0, false
	}
	inner := s[i+1 : j]
	if !content(inner) {
		return 0, false
	}
	if j+1 < len(s) && (s[j+1] == '$' || isDigit(s[j+1])) {
		return 0, false
	}
	switch first, last := spaced(inner[0]), spaced(inner[len(inner)-1]); {
	case first != last:
		return 0, false
	case first:
		// "$ x + 1 $", as models write it, but not "a $ and $ b".
		sc.work += len(inner)
		if !LooksLikeMath(strings.TrimSpace(inner)) {
			return 0, false
		}
	}
	if b := sc.find(&sc.blankLine, i+1, sc.nextBlankLine); b >= 0 && b < j {
		return 0, false
	}
	return sc.emit(i, j+1, 1, 1, false), true
}

func (sc *scanner) nextUnescapedDollar(from int) int {
	for {
		j := sc.index("$", from)
		if j <= 0 || sc.s[j-1] != '\\' {
			return j
		}
		from = j + 1
	}
}

// nextBlankLine is the index of the next line break followed, after spaces
// and tabs, by another.
func (sc *scanner) nextBlankLine(from int) int {
	s := sc.s
	for {
		j := sc.index("\n", from)
		if j < 0 {
			return -1
		}
		k := j + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
			k++
		}
		sc.work += k - j
		if k < len(s) && s[k] == '\n' {
			return j
		}
		from = k
	}
}

const boxed = `\boxed{`

// boxed reads a bare \boxed{...} at i.
func (sc *scanner) boxed(i int) (int, bool) {
	if !strings.HasPrefix(sc.s[i:], boxed) {
		return 0, false
	}
	if sc.braces == nil {
		sc.matchBraces()
	}
	open := i + len(boxed) - 1
	close := int(sc.braces[open])
	if close < 0 || close-open-1 > MaxMathBytes {
		return 0, false
	}
	return sc.emit(i, close+1, 0, 0, false), true
}

// matchBraces pairs every unescaped { with its } in one pass.
func (sc *scanner) matchBraces() {
	s := sc.s
	sc.braces = make([]int32, len(s))
	var stack []int32
	for i := 0; i < len(s); i++ {
		sc.braces[i] = -1
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				sc.braces[i] = -1
			}
		case '{':
			stack = append(stack, int32(i))
		case '}':
			if n := len(stack); n > 0 {
				sc.braces[stack[n-1]] = int32(i)
				stack = stack[:n-1]
			}
		}
	}
	sc.work += len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func spaced(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
