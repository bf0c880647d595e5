package mathverify

// A small matcher over runes. Math-Verify extracts answers with Python
// regular expressions that use lookbehind, lookahead and lazy quantifiers,
// which Go's RE2 engine does not offer; the patterns are built here from
// constructors that mirror the Python syntax one to one, and the matcher
// follows Python's re semantics (leftmost match, alternatives in order,
// greedy or lazy repetition with backtracking, finditer resuming at the
// end of the previous match), in work linear in the text (vm.go). Indices
// are rune offsets, as Python's str indices are code points.

import (
	"math/bits"
	"strings"
	"sync"
	"unicode"
)

type pnode interface{}

type (
	pClass struct {
		fn   func(rune) bool
		wide wideness // what fn says of every non-ASCII rune, if known
	}
	pLit struct {
		rs   []rune
		fold bool
	}
	pSeq    []pnode
	pAlt    []pnode
	pRepeat struct {
		n        pnode
		min, max int // max < 0: unbounded
		lazy     bool
	}
	pGroup struct {
		idx int
		n   pnode
	}
	pNotBehind struct{ fn func(rune) bool } // (?<!c) for one-character c
	pNotAhead  struct{ n pnode }
	pBegin     struct{}
	pWordB     struct{} // \b
	pEnd       struct{} // Python $ without MULTILINE
)

// The step budget of matching a text: baseSteps plus stepsPerRune for
// each of its runes. It stands in for Math-Verify's parsing timeout (a
// text whose matching exceeds it yields no extraction, as a timed-out
// parse yields [] there), but no text reaches it: the matcher is linear
// (vm.go), and the extraction patterns take at most about 330 steps a
// rune on the adversarial texts of the tests. It keeps the work bounded
// by the text's length should a pattern ever be added that the matcher
// cannot bound.
const (
	baseSteps    = 4_000_000
	stepsPerRune = 2_000
)

type matcher struct {
	rs     []rune
	steps  int
	budget int
	stack  []job            // the runs' backtracking stack, reused
	caps   []int            // findAll's groups, reused
	words  map[string][]int // wordAt's answers
	spare  *spareSets       // the runs' position and lookahead sets, cleared for reuse
	marks  *notableIndex    // the text's notable runes (notable.go), once asked for
	// noIndex: every search reads every rune (extractWith, the tests'
	// oracle).
	noIndex bool
}

// indexFrom is the length from which a text's searches use the notable
// index: below it, building the index costs more than it saves.
const indexFrom = 512

// notable returns the text's notable index, built on first use, or nil
// for a short text.
func (m *matcher) notable() *notableIndex {
	if m.noIndex {
		return nil
	}
	if m.marks == nil && len(m.rs) >= indexFrom {
		m.marks = newNotableIndex(m.rs)
	}
	return m.marks
}

// spareSets are cleared sets kept for the next pattern and the next text:
// allocating a set per loop head, lookahead, pattern and text was a fifth
// of grading a long trace, most of it in the garbage collector.
type spareSets struct {
	bits  [][]uint64
	looks [][]int8
}

var sparePool = sync.Pool{New: func() any { return new(spareSets) }}

// bitset returns a cleared set of a bit per position of the text: the
// memory of a loop head.
func (m *matcher) bitset() []uint64 {
	need := len(m.rs)/64 + 1
	s := m.spareSets()
	if n := len(s.bits); n > 0 && cap(s.bits[n-1]) >= need {
		b := s.bits[n-1]
		s.bits = s.bits[:n-1]
		return b[:need]
	}
	return make([]uint64, need, withRoom(need))
}

// lookSet returns a cleared set of a lookahead's results per position.
func (m *matcher) lookSet() []int8 {
	need := len(m.rs) + 1
	s := m.spareSets()
	if n := len(s.looks); n > 0 && cap(s.looks[n-1]) >= need {
		b := s.looks[n-1]
		s.looks = s.looks[:n-1]
		return b[:need]
	}
	return make([]int8, need, withRoom(need))
}

func (m *matcher) spareSets() *spareSets {
	if m.spare == nil {
		m.spare = sparePool.Get().(*spareSets)
	}
	return m.spare
}

// recycle clears sets and keeps them for bitset. A set is cleared over
// its length, the only part ever written, so all its capacity is clear.
func (m *matcher) recycle(sets [][]uint64) {
	for _, b := range sets {
		if b != nil {
			clear(b)
			m.spareSets().bits = append(m.spareSets().bits, b)
		}
	}
}

func (m *matcher) recycleLooks(sets [][]int8) {
	for _, b := range sets {
		if b != nil {
			clear(b)
			m.spareSets().looks = append(m.spareSets().looks, b)
		}
	}
}

func newMatcher(rs []rune) *matcher {
	return &matcher{rs: rs, budget: baseSteps + stepsPerRune*len(rs), stack: getStack()}
}

// wordAt lists where word (folded, as the patterns fold) occurs, once per
// word and text.
func (m *matcher) wordAt(word []rune) []int {
	if at, ok := m.words[string(word)]; ok {
		return at
	}
	var at []int
	rs, first := m.rs, word[0]
	if suffix, ok := wordSuffixes[string(word)]; ok {
		// "final answer" is where "answer" is, after "final ": the
		// occurrences of the shorter word, read once, serve both.
		head := len(word) - len(suffix)
		for _, j := range m.wordAt(suffix) {
			if i := j - head; i >= 0 && rs[i]|0x20 == first && litAt(rs, i, word[:head], true) {
				at = append(at, i)
			}
		}
	} else if x := m.notable(); x != nil && first == 'a' && len(word) > 1 {
		// rs[i]|0x20 == 'a' where the index marks an "a" or an "A".
		// The plane's marks read a word at a time, not searched for one
		// by one: prose has an "a" every few runes.
		second, last := word[1]|0x20, len(rs)-len(word)
		plane := x.planes[planeLetterA]
		for w := 0; w*64 <= last && w < len(plane); w++ {
			for marks := plane[w]; marks != 0; marks &= marks - 1 {
				i := w*64 + bits.TrailingZeros64(marks)
				if i > last {
					break
				}
				// An ASCII rune after the "a" folds with the word's second
				// (a letter) only in one of its two cases.
				if (rs[i+1] >= utf8RuneSelf || rs[i+1]|0x20 == second) && litAt(rs, i, word, true) {
					at = append(at, i)
				}
			}
		}
	} else {
		for i := 0; i <= len(rs)-len(word); i++ {
			if rs[i]|0x20 == first && litAt(rs, i, word, true) {
				at = append(at, i)
			}
		}
	}
	if m.words == nil {
		m.words = map[string][]int{}
	}
	m.words[string(word)] = at
	return at
}

// wordSuffixes are the words a pattern begins with that end in another
// such word (the runes are compared one by one, so a word's occurrences
// are its suffix's, preceded by the rest).
var wordSuffixes = map[string][]rune{"final answer": []rune("answer")}

// release returns the matcher's stack for the next text.
func (m *matcher) release() {
	putStack(m.stack)
	m.stack = nil
	m.marks.release()
	m.marks = nil
	if m.spare != nil {
		sparePool.Put(m.spare)
		m.spare = nil
	}
}

// Backtracking stacks grow with the text (a greedy loop over a long run
// keeps a choice per rune); growing one for every pattern, lookahead and
// text was a third of grading a long trace. They are reused.
var stackPool = sync.Pool{New: func() any { return new([]job) }}

func getStack() []job { return (*stackPool.Get().(*[]job))[:0] }

func putStack(s []job) {
	if cap(s) > 0 {
		s = s[:0]
		stackPool.Put(&s)
	}
}

type budgetExceeded struct{}

func (m *matcher) tick() {
	m.steps++
	if m.steps > m.budget {
		panic(budgetExceeded{})
	}
}

// pattern is a compiled pattern with its named groups.
type pattern struct {
	root   pnode
	prog   *program
	names  []string
	starts func(rs []rune, i int) bool // a cheap necessary condition for a match at i, or nil
	// direct, when set, is findAll written out for this pattern: what the
	// program finds, without running it (pattern_diff_test.go compares
	// the two on every test text).
	direct func(p *pattern, rs []rune) []span
	// startsIn, when set, makes a stricter starts for one text, called
	// with increasing positions (so it can keep its place in the text).
	startsIn func(m *matcher) func(i int) bool
	// key, when set, is runes one of which every match has within
	// keyWindow runes of its start: findAll skips to them.
	key       *runeSet
	keyWindow int
	// word, when set, is a literal (folded) every match begins with: the
	// matcher finds its occurrences once for all the patterns that have it.
	word []rune
	// first, when set, holds every rune a match can begin with (what the
	// program's first instructions read): findAll skips to them, and a
	// text without one has no match.
	first *runeSet
}

// runeSet is a set of runes: a table for ASCII, a function for the rest
// (nil: none).
type runeSet struct {
	ascii [utf8RuneSelf]bool
	other func(rune) bool
	all   bool // every rune, and also no rune (what a thread may do first without reading one)
	// sparse: the set holds notable ASCII runes alone (notable.go), so
	// the notable index finds them, in planes. Set by markSparse.
	sparse bool
	planes uint8
}

// anyIn reports whether s holds a rune of the set.
func (s *runeSet) anyIn(text string) bool {
	for _, r := range text {
		if s.has(r) {
			return true
		}
	}
	return false
}

const utf8RuneSelf = 0x80

func newRuneSet(ascii string, other func(rune) bool) *runeSet {
	s := &runeSet{other: other}
	for _, c := range ascii {
		s.ascii[c] = true
	}
	s.markSparse()
	return s
}

func (s *runeSet) has(r rune) bool {
	if r < utf8RuneSelf {
		return s.ascii[r]
	}
	return s.other != nil && s.other(r)
}

// nextKey is the first position at or after i holding a rune of s, or -1.
func (s *runeSet) next(rs []rune, i int) int {
	for ; i < len(rs); i++ {
		if r := rs[i]; r < utf8RuneSelf {
			if s.ascii[r] {
				return i
			}
		} else if s.other != nil && s.other(r) {
			return i
		}
	}
	return -1
}

// span is one match: its bounds and the bounds of each group (-1 when the
// group did not take part).
type span struct {
	start, end int
	caps       []int
	pat        *pattern
}

func (s span) group(name string) (int, int) {
	for i, n := range s.pat.names {
		if n == name && s.caps[2*i] >= 0 {
			return s.caps[2*i], s.caps[2*i+1]
		}
	}
	return -1, -1
}

func (s span) text(rs []rune, name string) string {
	a, b := s.group(name)
	if a < 0 {
		return ""
	}
	return string(rs[a:b])
}

// findAll is Python's finditer over rs: at each position from the start,
// the pattern's match there if any, going on after it. One run of the
// program serves every position, so what it learns about positions that
// cannot lead to a match holds for all of them.
func (p *pattern) findAll(m *matcher) []span {
	if p.direct != nil {
		return p.direct(p, m.rs)
	}
	return p.runAll(m)
}

// runAll is findAll by running the pattern's program.
func (p *pattern) runAll(m *matcher) []span {
	var out []span
	steps := m.steps
	r := p.prog.newRun(m)
	if cap(m.caps) < 2*len(p.names) {
		m.caps = make([]int, 2*len(p.names))
	}
	caps := m.caps[:2*len(p.names)]
	for j := range caps {
		caps[j] = -1
	}
	var startsAt func(int) bool
	if p.startsIn != nil {
		startsAt = p.startsIn(m)
	}
	key := -1 // the next rune of p.key at or after i, once searched
	var words []int
	if p.word != nil {
		words = m.wordAt(p.word)
	}
	for i := 0; i <= len(m.rs); {
		if p.first != nil {
			if i = p.first.nextIn(m, i); i < 0 {
				break
			}
		}
		if p.word != nil {
			for len(words) > 0 && words[0] < i {
				words = words[1:]
			}
			if len(words) == 0 {
				break
			}
			i = words[0]
		}
		if p.key != nil {
			if key < i {
				if key = p.key.nextIn(m, i); key < 0 {
					break
				}
			}
			if key-p.keyWindow+1 > i {
				i = key - p.keyWindow + 1
			}
		}
		if p.starts != nil && !p.starts(m.rs, i) || startsAt != nil && !startsAt(i) {
			i++
			continue
		}
		end, ok := r.matchAt(i, caps)
		if !ok {
			i++
			continue
		}
		out = append(out, span{start: i, end: end, caps: append([]int(nil), caps...), pat: p})
		for j := range caps {
			caps[j] = -1
		}
		if end > i {
			i = end
		} else {
			i++
		}
	}
	m.stack = r.stack[:0] // for the next pattern
	m.recycle(r.failed)
	m.recycleLooks(r.looks)
	for _, sub := range r.subs {
		if sub != nil {
			putStack(sub.stack)
			m.recycle(sub.failed)
			m.recycle(sub.passed)
		}
	}
	counted(m.steps - steps)
	return out
}

// patternBuilder numbers the groups of one pattern.
type patternBuilder struct{ names []string }

func (b *patternBuilder) group(name string, n pnode) pnode {
	b.names = append(b.names, name)
	return pGroup{idx: len(b.names) - 1, n: n}
}

func (b *patternBuilder) build(root pnode, starts func([]rune, int) bool) *pattern {
	p := &pattern{root: root, prog: compile(root), names: b.names, starts: starts}
	if first := p.prog.firstRunes(p.prog.start, 0); !first.all {
		first.markSparse()
		p.first = &first
	}
	return p
}

// Constructors mirroring regex syntax.

func lit(s string) pnode           { return pLit{rs: []rune(s)} }
func litFold(s string) pnode       { return pLit{rs: []rune(s), fold: true} }
func cls(fn func(rune) bool) pnode { return pClass{fn: fn} }

// clsExcept is [^chars] for ASCII chars: every non-ASCII rune is in it,
// which the searches of notable.go need to know.
func clsExcept(chars string) pnode {
	for _, c := range chars {
		if c >= utf8RuneSelf {
			panic("mathverify: clsExcept of a non-ASCII rune")
		}
	}
	return pClass{fn: noneOf(chars), wide: wideAll}
}
func seq(ns ...pnode) pnode  { return pSeq(ns) }
func alt(ns ...pnode) pnode  { return pAlt(ns) }
func opt(n pnode) pnode      { return pRepeat{n: n, min: 0, max: 1} }
func star(n pnode) pnode     { return pRepeat{n: n, min: 0, max: -1} }
func plus(n pnode) pnode     { return pRepeat{n: n, min: 1, max: -1} }
func lazyStar(n pnode) pnode { return pRepeat{n: n, min: 0, max: -1, lazy: true} }
func lazyPlus(n pnode) pnode { return pRepeat{n: n, min: 1, max: -1, lazy: true} }
func rep(n pnode, min, max int, lazy bool) pnode {
	return pRepeat{n: n, min: min, max: max, lazy: lazy}
}
func notBehind(fn func(rune) bool) pnode { return pNotBehind{fn: fn} }
func notAhead(n pnode) pnode             { return pNotAhead{n: n} }

// Python's \d and \s on str patterns are Unicode-aware.
func isDigitU(r rune) bool { return unicode.IsDigit(r) }
func isSpaceU(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', 0x1c, 0x1d, 0x1e, 0x1f, 0x85:
		return true
	}
	return unicode.IsSpace(r)
}
func isWordU(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}
func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }
func isASCIILetter(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

var (
	digit  = cls(isDigitU)
	space  = cls(isSpaceU)
	anyDot = clsExcept("\n")                                            // . without DOTALL
	anyAll = pClass{fn: func(rune) bool { return true }, wide: wideAll} // . with DOTALL
)

// oneOf is the class of chars: a table when they are ASCII (every class
// here; the matcher tests a class at almost every step).
func oneOf(chars string) func(rune) bool {
	var ascii [utf8RuneSelf]bool
	for _, c := range chars {
		if c >= utf8RuneSelf {
			return func(r rune) bool { return strings.ContainsRune(chars, r) }
		}
		ascii[c] = true
	}
	return func(r rune) bool { return r < utf8RuneSelf && ascii[r] }
}

func noneOf(chars string) func(rune) bool {
	var ascii [utf8RuneSelf]bool
	for _, c := range chars {
		if c >= utf8RuneSelf {
			return func(r rune) bool { return !strings.ContainsRune(chars, r) }
		}
		ascii[c] = true
	}
	return func(r rune) bool { return r >= utf8RuneSelf || !ascii[r] }
}
