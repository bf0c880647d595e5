package mathverify

// A lazy loop over a class (`(?:[^$]|\$(?!\$))*?` before `\boxed{`, the
// contents of every math environment) costs the machine four or five
// steps a rune: the exit tried and failed, the body's alternatives pushed
// and popped, the loop head remembered. Where the rune at hand can start
// neither the exit nor any alternative of the body but the class, and the
// class takes it, all of that ends in one place: the loop head, one rune
// on. A loop head with a scan walks such runes in a tight loop instead,
// then goes on as before at the first rune that could do anything else.
// The walk changes no result: the runes it skips have one way through,
// and whether the rest matches from any of them is whether it matches
// from where the walk stops (which is also why one failure at the stop
// is remembered for every rune walked, as the machine would have).

// lazyScan is the tight loop of one lazy loop head: stop holds the runes
// it must not walk past.
type lazyScan struct {
	stop runeSet
}

// walk returns the first position at or after pos where the loop must
// take its ordinary course: a stop rune, the end of the text, or a
// position already known to fail (failed: the loop head's bits, or nil).
func (s *lazyScan) walk(m *matcher, pos int, failed []uint64) int {
	rs := m.rs
	stop := &s.stop
	if stop.sparse {
		if marks := m.notable(); marks != nil {
			return s.walkMarks(rs, marks, pos, failed)
		}
	}
	for ; pos < len(rs); pos++ {
		if r := rs[pos]; r < utf8RuneSelf {
			if stop.ascii[r] {
				return pos
			}
		} else if stop.other != nil && stop.other(r) {
			return pos
		}
		if failed != nil && failed[pos/64]&(1<<(pos%64)) != 0 {
			return pos
		}
	}
	return pos
}

// walkMarks is walk jumping between the notable runes (notable.go): the
// stop runes are among them, and a known failure is found a word of
// positions at a time.
func (s *lazyScan) walkMarks(rs []rune, marks *notableIndex, pos int, failed []uint64) int {
	end := len(rs)
	if failed != nil {
		end = firstBitFrom(failed, pos, len(rs))
	}
	planes := s.stop.planes
	for j := marks.next(planes, pos); j < end; j = marks.next(planes, j+1) {
		if s.stop.has(rs[j]) {
			return j
		}
	}
	return end
}

// classSet is fn as a runeSet: a table for ASCII.
func classSet(fn func(rune) bool) runeSet {
	s := runeSet{other: fn}
	for c := rune(0); c < utf8RuneSelf; c++ {
		s.ascii[c] = fn(c)
	}
	return s
}

var anyRune = runeSet{other: func(rune) bool { return true }, all: true}

func init() {
	for c := range anyRune.ascii {
		anyRune.ascii[c] = true
	}
}

func (s runeSet) union(t runeSet) runeSet {
	u := runeSet{all: s.all || t.all}
	for c := range u.ascii {
		u.ascii[c] = s.ascii[c] || t.ascii[c]
	}
	switch {
	case s.other == nil:
		u.other = t.other
	case t.other == nil:
		u.other = s.other
	default:
		so, to := s.other, t.other
		u.other = func(r rune) bool { return so(r) || to(r) }
	}
	return u
}

// firstRunes over-approximates the runes a thread at pc can read first
// without failing there: a thread starting on any other rune fails before
// reading it (asserting nothing but what the rune settles). Anything it
// cannot see through is anyRune. depth bounds the walk over splits.
func (p *program) firstRunes(pc, depth int) runeSet {
	if depth > 16 {
		return anyRune
	}
	in := &p.insts[pc]
	switch in.op {
	case opClass:
		s := classSet(in.class)
		if in.wide == wideNone {
			s.other = nil
		}
		return s
	case opLit:
		if len(in.lit) == 0 {
			return anyRune
		}
		want := in.lit[0]
		if !in.fold {
			s := classSet(func(r rune) bool { return r == want })
			if want < utf8RuneSelf {
				s.other = nil // no non-ASCII rune is want
			}
			return s
		}
		return classSet(func(r rune) bool { return r == want || foldEq(r, want) })
	case opSave, opNotBehind, opNotAhead, opBegin:
		// Assertions that look behind or at positions: whichever way
		// they go, the thread reads next what in.next reads.
		return p.firstRunes(in.next, depth+1)
	case opSplit:
		return p.firstRunes(in.next, depth+1).union(p.firstRunes(in.alt, depth+1))
	}
	return anyRune // opEnd, opWordB, opMatch: can succeed without a rune
}

// addScans gives each lazy loop head whose body is a class (alone or as
// one alternative among others) a scan.
func (p *program) addScans() {
	for pc := range p.insts {
		in := &p.insts[pc]
		if in.op != opSplit || !in.lazy {
			continue
		}
		// A lazy loop head tries the exit (next) first, the body (alt)
		// second; the body comes back to the head.
		body := in.alt
		class, others, ok := p.classBody(body, pc)
		if !ok {
			continue
		}
		stop := p.firstRunes(in.next, 0).union(others)
		cls := p.insts[class].class
		scan := &lazyScan{stop: runeSet{}}
		for c := rune(0); c < utf8RuneSelf; c++ {
			scan.stop.ascii[c] = stop.ascii[c] || !cls(c)
		}
		so := stop.other
		if in := &p.insts[class]; in.wide == wideAll {
			// The class takes every non-ASCII rune: the loop stops at
			// one only where stop holds it.
			scan.stop.other = so
		} else if so == nil {
			scan.stop.other = func(r rune) bool { return !cls(r) }
		} else {
			scan.stop.other = func(r rune) bool { return so(r) || !cls(r) }
		}
		scan.stop.markSparse()
		in.scan = scan
	}
}

// classBody reports whether the body at pc is a class that leads back to
// head, or a split one of whose two branches is such a class (the other's
// first runes returned as others).
func (p *program) classBody(pc, head int) (class int, others runeSet, ok bool) {
	isClassToHead := func(pc int) bool {
		return p.insts[pc].op == opClass && p.insts[pc].next == head
	}
	in := &p.insts[pc]
	switch {
	case isClassToHead(pc):
		return pc, runeSet{}, true
	case in.op == opSplit && in.memo < 0 && isClassToHead(in.next):
		return in.next, p.firstRunes(in.alt, 0), true
	case in.op == opSplit && in.memo < 0 && isClassToHead(in.alt):
		return in.alt, p.firstRunes(in.next, 0), true
	}
	return 0, runeSet{}, false
}
