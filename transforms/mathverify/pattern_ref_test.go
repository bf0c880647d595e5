package mathverify

// The pattern matcher as it was before issue 19: plain backtracking over
// the pattern tree in continuation-passing style, under the step budget.
// Kept as the oracle the compiled, memoizing matcher must agree with.

import "unicode"

// refMatcher is the old matcher's state; its budget is the old one's.
type refMatcher struct {
	rs    []rune
	caps  []int
	steps int
}

func (m *refMatcher) tick() {
	m.steps++
	if m.steps > refStepBudget {
		panic(budgetExceeded{})
	}
}

const refStepBudget = 4_000_000

func (m *refMatcher) refMatch(n pnode, i int, k func(int) bool) bool {
	m.tick()
	switch p := n.(type) {
	case pClass:
		if i < len(m.rs) && p.fn(m.rs[i]) {
			return k(i + 1)
		}
		return false
	case pLit:
		if i+len(p.rs) > len(m.rs) {
			return false
		}
		for j, r := range p.rs {
			c := m.rs[i+j]
			if c != r && !(p.fold && unicode.ToLower(c) == unicode.ToLower(r)) {
				return false
			}
		}
		return k(i + len(p.rs))
	case pSeq:
		return m.refSeq(p, 0, i, k)
	case pAlt:
		for _, a := range p {
			if m.refMatch(a, i, k) {
				return true
			}
		}
		return false
	case pRepeat:
		if c, ok := p.n.(pClass); ok {
			return m.refRepeatClass(c, p, i, k)
		}
		return m.refRepeat(p, 0, i, k)
	case pGroup:
		oldS, oldE := m.caps[2*p.idx], m.caps[2*p.idx+1]
		if m.refMatch(p.n, i, func(e int) bool {
			ps, pe := m.caps[2*p.idx], m.caps[2*p.idx+1]
			m.caps[2*p.idx], m.caps[2*p.idx+1] = i, e
			if k(e) {
				return true
			}
			m.caps[2*p.idx], m.caps[2*p.idx+1] = ps, pe
			return false
		}) {
			return true
		}
		m.caps[2*p.idx], m.caps[2*p.idx+1] = oldS, oldE
		return false
	case pNotBehind:
		if i > 0 && p.fn(m.rs[i-1]) {
			return false
		}
		return k(i)
	case pNotAhead:
		saved := append([]int(nil), m.caps...)
		if m.refMatch(p.n, i, func(int) bool { return true }) {
			copy(m.caps, saved)
			return false
		}
		copy(m.caps, saved)
		return k(i)
	case pWordB:
		before := i > 0 && isWordU(m.rs[i-1])
		after := i < len(m.rs) && isWordU(m.rs[i])
		if before != after {
			return k(i)
		}
		return false
	case pBegin:
		if i == 0 {
			return k(i)
		}
		return false
	case pEnd:
		if i == len(m.rs) || (i == len(m.rs)-1 && m.rs[i] == '\n') {
			return k(i)
		}
		return false
	}
	panic("mathverify: unknown pattern node")
}

func (m *refMatcher) refSeq(s pSeq, j, i int, k func(int) bool) bool {
	if j == len(s) {
		return k(i)
	}
	return m.refMatch(s[j], i, func(e int) bool { return m.refSeq(s, j+1, e, k) })
}

func (m *refMatcher) refRepeatClass(c pClass, p pRepeat, i int, k func(int) bool) bool {
	limit := len(m.rs) - i
	if p.max >= 0 && p.max < limit {
		limit = p.max
	}
	run := 0
	for run < limit && c.fn(m.rs[i+run]) {
		run++
	}
	if run < p.min {
		return false
	}
	if p.lazy {
		for n := p.min; n <= run; n++ {
			m.tick()
			if k(i + n) {
				return true
			}
		}
		return false
	}
	for n := run; n >= p.min; n-- {
		m.tick()
		if k(i + n) {
			return true
		}
	}
	return false
}

func (m *refMatcher) refRepeat(p pRepeat, count, i int, k func(int) bool) bool {
	more := func() bool {
		if p.max >= 0 && count >= p.max {
			return false
		}
		return m.refMatch(p.n, i, func(e int) bool {
			if e == i { // an empty iteration ends the loop, as in Python
				return false
			}
			return m.refRepeat(p, count+1, e, k)
		})
	}
	if count < p.min {
		return more()
	}
	if p.lazy {
		return k(i) || more()
	}
	return more() || k(i)
}

// refMatchAt tries the pattern at i only.
func (p *pattern) refMatchAt(m *refMatcher, i int) (span, bool) {
	m.caps = make([]int, 2*len(p.names))
	for j := range m.caps {
		m.caps[j] = -1
	}
	end := -1
	if m.refMatch(p.root, i, func(e int) bool { end = e; return true }) {
		return span{start: i, end: end, caps: append([]int(nil), m.caps...), pat: p}, true
	}
	return span{}, false
}

// refFindAll is Python's finditer over rs.
func (p *pattern) refFindAll(m *refMatcher) []span {
	var out []span
	for i := 0; i <= len(m.rs); {
		if p.starts != nil && !p.starts(m.rs, i) {
			i++
			continue
		}
		s, ok := p.refMatchAt(m, i)
		if !ok {
			i++
			continue
		}
		out = append(out, s)
		if s.end > i {
			i = s.end
		} else {
			i++
		}
	}
	return out
}
