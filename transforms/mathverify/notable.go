package mathverify

import (
	"math/bits"
	"sync"
)

// Most of a long trace is prose: letters, digits, spaces, punctuation.
// The searches that read a whole trace (where a \boxed{, a newline or a
// "$$" comes next, the runes a pattern may begin with, the lazy loops
// walking an environment's contents) all look for a few ASCII runes
// that prose rarely holds: the math delimiters, newlines and braces. Read
// rune by rune, each search cost about a nanosecond a rune, and a long
// trace was read some ten times. The notable index marks, a bit a rune,
// where such a rune is, in a plane per kind of rune; the searches jump
// from mark to mark of the planes they need, sixty-four runes a word, and
// test only the runes marked. A search may use the index only for a set of
// notable ASCII runes alone (runeSet.sparse): a rune not marked is then
// known to be outside it. Which sets hold no non-ASCII rune is known from
// how they are built (wideness): the contents of a math environment, [^$]
// and the like, take every non-ASCII rune, so the loops walking them stop
// at none.

// wideness is what a class says of every non-ASCII rune, when known: a
// class built from a function is wideUnknown.
type wideness int8

const (
	wideUnknown wideness = iota
	wideNone             // no non-ASCII rune is in the class
	wideAll              // every non-ASCII rune is
)

// The planes of the index, and the notable runes each marks.
const (
	planeNewline   = iota // "\n"
	planeDollar           // "$"
	planeBackslash        // `\`
	planeBrackets         // "[", "]", "}"
	planeLetterA          // "a", "A": where "answer" may begin (wordAt)
	nPlanes
)

var planeRunes = [nPlanes]string{"\n", "$", `\`, "[]}", "aA"}

// planeOf is, for an ASCII rune, 1 + the plane that marks it, or 0.
var planeOf = func() (t [utf8RuneSelf]uint8) {
	for p, rs := range planeRunes {
		for _, c := range rs {
			t[c] = uint8(p + 1)
		}
	}
	return t
}()

// notableIndex is, per plane, a bit per rune of a text: set where the
// rune is one the plane marks.
type notableIndex struct {
	planes [nPlanes][]uint64
	n      int // the text's length in runes
}

var notablePool = sync.Pool{New: func() any { return new(notableIndex) }}

// borrowNotableIndex returns a cleared index for a text of up to n runes,
// from the pool (give it back with release).
func borrowNotableIndex(n int) *notableIndex {
	x := notablePool.Get().(*notableIndex)
	x.reset(n)
	return x
}

// reset clears x for a text of up to n runes.
func (x *notableIndex) reset(n int) {
	need := n/64 + 2 // a word more than the last rune's, for markByte's spill
	for p := range x.planes {
		if cap(x.planes[p]) < need {
			x.planes[p] = make([]uint64, need, withRoom(need))
		}
		x.planes[p] = x.planes[p][:need]
		clear(x.planes[p])
	}
	x.n = n
}

// newNotableIndex marks the notable runes of rs (the index of a text
// decoded without decodeMarked).
func newNotableIndex(rs []rune) *notableIndex {
	x := borrowNotableIndex(len(rs))
	for k, r := range rs {
		if r < utf8RuneSelf {
			if p := planeOf[r]; p != 0 {
				x.planes[p-1][k/64] |= 1 << (k % 64)
			}
		}
	}
	return x
}

func (x *notableIndex) release() {
	if x != nil {
		notablePool.Put(x)
	}
}

// next is the first position at or after i marked in one of the planes
// (a bit per plane), or the text's length.
func (x *notableIndex) next(planes uint8, i int) int {
	if i >= x.n {
		return x.n
	}
	if planes&(planes-1) == 0 {
		return x.nextInPlane(x.planes[bits.TrailingZeros8(planes)], i)
	}
	w := i / 64
	word := x.word(planes, w) >> (i % 64) << (i % 64)
	for word == 0 {
		w++
		if w*64 >= x.n {
			return x.n
		}
		word = x.word(planes, w)
	}
	return min(w*64+bits.TrailingZeros64(word), x.n)
}

// nextInPlane is next for one plane.
func (x *notableIndex) nextInPlane(plane []uint64, i int) int {
	w := i / 64
	word := plane[w] >> (i % 64) << (i % 64)
	for word == 0 {
		w++
		if w*64 >= x.n {
			return x.n
		}
		word = plane[w]
	}
	return min(w*64+bits.TrailingZeros64(word), x.n)
}

// word is the union of the planes' w-th words.
func (x *notableIndex) word(planes uint8, w int) uint64 {
	var word uint64
	for ; planes != 0; planes &= planes - 1 { // the planes asked for only
		word |= x.planes[bits.TrailingZeros8(planes)][w]
	}
	return word
}

// firstBitFrom is the first position at or after i whose bit is set in
// set (a bit per position), or n if none is before n.
func firstBitFrom(set []uint64, i, n int) int {
	if i >= n {
		return n
	}
	w := i / 64
	if w >= len(set) {
		return n
	}
	word := set[w] >> (i % 64) << (i % 64)
	for word == 0 {
		w++
		if w >= len(set) {
			return n
		}
		word = set[w]
	}
	return min(w*64+bits.TrailingZeros64(word), n)
}

// markSparse records whether every rune of s is a notable ASCII rune, so
// that the index can find s's runes: no non-ASCII rune is in s (other is
// nil), and every ASCII rune in it is notable. planes are the planes that
// mark them.
func (s *runeSet) markSparse() {
	s.sparse, s.planes = !s.all && s.other == nil, 0
	for c := rune(0); c < utf8RuneSelf && s.sparse; c++ {
		if !s.ascii[c] {
			continue
		}
		if p := planeOf[c]; p != 0 {
			s.planes |= 1 << (p - 1)
		} else {
			s.sparse = false
		}
	}
	if s.planes == 0 { // no rune: nothing for the index to find
		s.sparse = false
	}
	if !s.sparse {
		s.planes = 0
	}
}

// nextIn is next(m.rs, i), found by the text's index when s is sparse.
func (s *runeSet) nextIn(m *matcher, i int) int {
	rs := m.rs
	if !s.sparse {
		return s.next(rs, i)
	}
	x := m.notable()
	if x == nil {
		return s.next(rs, i)
	}
	for j := x.next(s.planes, i); j < len(rs); j = x.next(s.planes, j+1) {
		if s.has(rs[j]) {
			return j
		}
	}
	return -1
}
