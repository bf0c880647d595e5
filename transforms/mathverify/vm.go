package mathverify

// The patterns run as compiled programs on a backtracking machine that
// explores alternatives in Python's order (so matches and groups are the
// ones Python's re finds) and remembers, at the head of every unbounded
// repetition (and where a bounded one exits), the positions from which the
// rest of the pattern cannot match. Whether the pattern can match from a
// program point and a position depends on nothing else (no
// back-references; the lookarounds look at the text only), so each (loop
// head, position) is explored at most once per pattern and text, whatever
// the start position; between loop heads a program runs through a bounded
// number of instructions. The work of findAll is therefore linear in the
// text, where plain backtracking is quadratic on an opening delimiter
// repeated without its closing one (Math-Verify's regexes are, and run
// under a timeout there), and the machine's explicit stack replaces the
// recursion that overflowed the goroutine stack on long texts.

import (
	"fmt"
	"unicode"
)

type opcode uint8

const (
	opClass     opcode = iota // one rune in a class
	opLit                     // a run of runes, optionally case-folded
	opSplit                   // try next, then alt
	opSave                    // caps[slot] = position
	opNotBehind               // the previous rune is not in the class
	opNotAhead                // sub does not match here
	opBegin                   // at the start of the text
	opEnd                     // at the end of the text, or before a final newline
	opWordB                   // at a word boundary
	opMatch
)

// The one-byte fields are together: 96 bytes an instruction, where
// interleaved with the words they took 120 (the patterns' programs hold
// 7,000 instructions).
type inst struct {
	op    opcode
	wide  wideness // opClass: what class says of every non-ASCII rune, if known
	fold  bool     // opLit
	lazy  bool     // opSplit: the head of an unbounded lazy loop
	next  int
	alt   int             // opSplit: the second choice
	class func(rune) bool // opClass, opNotBehind
	lit   []rune          // opLit
	slot  int             // opSave
	sub   *program        // opNotAhead
	memo  int             // the index of the remembering point (a loop head, a repetition's exit), or -1
	look  int             // opNotAhead: its index among the program's lookaheads
	scan  *lazyScan       // a lazy loop head's tight loop (vmscan.go), or nil
}

// program is a compiled pattern.
type program struct {
	insts []inst
	start int
	memos int // loop heads
	looks int // lookaheads
}

// compile compiles a pattern tree. A repeated pattern that can match the
// empty string is refused: Python ends a loop at an empty iteration, which
// this machine does not model (and no pattern here needs).
func compile(root pnode) *program {
	p := &program{insts: make([]inst, 0, 1+instCount(root))}
	p.start = p.emit(root, p.add(inst{op: opMatch}))
	p.addScans()
	return p
}

func (p *program) add(in inst) int {
	in.memo = -1
	p.insts = append(p.insts, in)
	return len(p.insts) - 1
}

// emit compiles n to run before next and returns its entry point.
func (p *program) emit(n pnode, next int) int {
	switch x := n.(type) {
	case pClass:
		return p.add(inst{op: opClass, class: x.fn, wide: x.wide, next: next})
	case pLit:
		return p.add(inst{op: opLit, lit: x.rs, fold: x.fold, next: next})
	case pSeq:
		for j := len(x) - 1; j >= 0; j-- {
			next = p.emit(x[j], next)
		}
		return next
	case pAlt:
		if len(x) == 0 {
			panic("mathverify: empty alternation")
		}
		entry := p.emit(x[len(x)-1], next)
		for j := len(x) - 2; j >= 0; j-- {
			first := p.emit(x[j], next)
			entry = p.add(inst{op: opSplit, next: first, alt: entry})
		}
		return entry
	case pGroup:
		end := p.add(inst{op: opSave, slot: 2*x.idx + 1, next: next})
		return p.add(inst{op: opSave, slot: 2 * x.idx, next: p.emit(x.n, end)})
	case pRepeat:
		return p.emitRepeat(x, next)
	case pNotBehind:
		return p.add(inst{op: opNotBehind, class: x.fn, next: next})
	case pNotAhead:
		p.looks++
		return p.add(inst{op: opNotAhead, sub: compile(x.n), look: p.looks - 1, next: next})
	case pBegin:
		return p.add(inst{op: opBegin, next: next})
	case pEnd:
		return p.add(inst{op: opEnd, next: next})
	case pWordB:
		return p.add(inst{op: opWordB, next: next})
	}
	panic(fmt.Sprintf("mathverify: unknown pattern node %T", n))
}

// instCount is the number of instructions emit adds for n (a lookahead's
// own program aside): compile allocates them at once. Appended one at a
// time, the patterns' programs (a bounded repetition is a copy of its body
// per iteration: 7,000 instructions of 120 bytes) were copied as they grew,
// half of the 2.6 MB their compilation allocated.
func instCount(n pnode) int {
	switch x := n.(type) {
	case pClass, pLit, pNotBehind, pNotAhead, pBegin, pEnd, pWordB:
		return 1
	case pSeq:
		c := 0
		for _, m := range x {
			c += instCount(m)
		}
		return c
	case pAlt:
		c := len(x) - 1 // a split before every choice but the last
		for _, m := range x {
			c += instCount(m)
		}
		return c
	case pGroup:
		return 2 + instCount(x.n)
	case pRepeat:
		body := instCount(x.n)
		if x.max < 0 {
			return x.min*body + 1 + body // the head's split and one body
		}
		return x.min*body + (x.max-x.min)*(1+body)
	}
	panic(fmt.Sprintf("mathverify: unknown pattern node %T", n))
}

// emitRepeat compiles a repetition: min copies, then a loop (unbounded) or
// max-min nested optional copies, greedy or lazy.
func (p *program) emitRepeat(x pRepeat, next int) int {
	if nullable(x.n) {
		panic("mathverify: a repeated pattern matches the empty string")
	}
	choose := func(body, exit int) int {
		if x.lazy {
			return p.add(inst{op: opSplit, next: exit, alt: body})
		}
		return p.add(inst{op: opSplit, next: body, alt: exit})
	}
	tail := next
	if x.max < 0 {
		head := choose(-1, next)
		body := p.emit(x.n, head)
		if x.lazy {
			p.insts[head].alt = body
		} else {
			p.insts[head].next = body
		}
		p.remember(head)
		p.insts[head].lazy = x.lazy
		tail = head
	} else {
		for range x.max - x.min {
			tail = choose(p.emit(x.n, tail), next)
		}
		if x.max > x.min {
			// Where the optional copies exit: starts a few runes apart
			// reach it at the same positions (rep(anyDot, 0, 100)).
			p.remember(next)
		}
	}
	for range x.min {
		tail = p.emit(x.n, tail)
	}
	return tail
}

// remember makes pc a point where failures are remembered.
func (p *program) remember(pc int) {
	if p.insts[pc].memo < 0 {
		p.insts[pc].memo = p.memos
		p.memos++
	}
}

// nullable reports whether n can match the empty string.
func nullable(n pnode) bool {
	switch x := n.(type) {
	case pClass:
		return false
	case pLit:
		return len(x.rs) == 0
	case pSeq:
		for _, s := range x {
			if !nullable(s) {
				return false
			}
		}
		return true
	case pAlt:
		for _, a := range x {
			if nullable(a) {
				return true
			}
		}
		return false
	case pGroup:
		return nullable(x.n)
	case pRepeat:
		return x.min == 0 || nullable(x.n)
	}
	return true // assertions
}

// run is a program running over one text: its memory of positions from
// which the rest cannot match, and of its lookaheads' results.
type run struct {
	p       *program
	m       *matcher
	failed  [][]uint64 // per loop head: positions known not to lead to a match
	boolean bool       // a lookahead's run: no groups, successes remembered too
	passed  [][]uint64 // per loop head: positions known to lead to a match
	looks   [][]int8   // per lookahead: 0 unknown, 1 matches, 2 does not
	subs    []*run     // per lookahead: its program's run
	stack   []job      // the backtracking stack (a pattern's run lends the matcher's)
}

type jobKind uint8

const (
	jobTry        jobKind = iota // go on at pc, pos
	jobRestore                   // caps[slot] = old
	jobFailed                    // everything after the loop head at pos failed
	jobFailedFrom                // the same, at every position from pc up to pos
)

type job struct {
	kind     jobKind
	pc, pos  int // jobRestore: slot, old value
	memoHead int
}

// newRun starts running p over m's text; its memory is allocated as it
// learns (most patterns learn nothing on most texts).
func (p *program) newRun(m *matcher) *run { return &run{p: p, m: m, stack: m.stack} }

// A positions set holds, per loop head, a bit per position of the text,
// each loop head's allocated when its first bit is set.

func bit(set [][]uint64, i, pos int) bool {
	return set != nil && set[i] != nil && set[i][pos/64]&(1<<(pos%64)) != 0
}

// setBit records pos for loop head i in *set.
func (r *run) setBit(set *[][]uint64, i, pos int) {
	if *set == nil {
		*set = make([][]uint64, r.p.memos)
	}
	if (*set)[i] == nil {
		(*set)[i] = r.m.bitset()
	}
	(*set)[i][pos/64] |= 1 << (pos % 64)
}

// matchAt matches the program at i, filling caps (restored to what they
// were when it fails); it returns where the match ends. A boolean run
// (caps nil) remembers the positions of a success too.
func (r *run) matchAt(i int, caps []int) (int, bool) {
	m, insts := r.m, r.p.insts
	rs := m.rs
	r.stack = append(r.stack[:0], job{kind: jobTry, pc: r.p.start, pos: i})
	for len(r.stack) > 0 {
		j := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		switch j.kind {
		case jobRestore:
			caps[j.pc] = j.pos
			continue
		case jobFailed:
			r.setBit(&r.failed, j.memoHead, j.pos)
			continue
		case jobFailedFrom:
			for p := j.pc; p < j.pos; p++ {
				r.setBit(&r.failed, j.memoHead, p)
			}
			continue
		}
		pc, pos := j.pc, j.pos
	thread:
		for {
			m.tick()
			in := &insts[pc]
			if in.memo >= 0 {
				if in.scan != nil && !r.boolean {
					var failed []uint64
					if r.failed != nil {
						failed = r.failed[in.memo]
					}
					if end := in.scan.walk(m, pos, failed); end > pos {
						r.stack = append(r.stack, job{kind: jobFailedFrom, pc: pos, pos: end, memoHead: in.memo})
						m.steps += end - pos
						pos = end
					}
				}
				if bit(r.failed, in.memo, pos) {
					break
				}
				if r.boolean && bit(r.passed, in.memo, pos) {
					return r.succeed(pos)
				}
				r.stack = append(r.stack, job{kind: jobFailed, pos: pos, memoHead: in.memo})
			}
			switch in.op {
			case opClass:
				if pos >= len(rs) || !in.class(rs[pos]) {
					break thread
				}
				pos++
			case opLit:
				if pos+len(in.lit) > len(rs) || !litAt(rs, pos, in.lit, in.fold) {
					break thread
				}
				pos += len(in.lit)
			case opSplit:
				r.stack = append(r.stack, job{kind: jobTry, pc: in.alt, pos: pos})
			case opSave:
				if caps != nil {
					r.stack = append(r.stack, job{kind: jobRestore, pc: in.slot, pos: caps[in.slot]})
					caps[in.slot] = pos
				}
			case opNotBehind:
				if pos > 0 && in.class(rs[pos-1]) {
					break thread
				}
			case opNotAhead:
				if r.lookahead(in, pos) {
					break thread
				}
			case opBegin:
				if pos != 0 {
					break thread
				}
			case opEnd:
				if pos != len(rs) && !(pos == len(rs)-1 && rs[pos] == '\n') {
					break thread
				}
			case opWordB:
				before := pos > 0 && isWordU(rs[pos-1])
				after := pos < len(rs) && isWordU(rs[pos])
				if before == after {
					break thread
				}
			case opMatch:
				if r.boolean {
					return r.succeed(pos)
				}
				r.stack = r.stack[:0]
				return pos, true
			}
			pc = in.next
		}
	}
	return 0, false
}

// succeed ends a boolean run's match: every loop head still being explored
// led to it.
func (r *run) succeed(pos int) (int, bool) {
	for _, j := range r.stack {
		if j.kind == jobFailed {
			r.setBit(&r.passed, j.memoHead, j.pos)
		}
	}
	r.stack = r.stack[:0]
	return pos, true
}

// lookahead reports whether the lookahead of in matches at pos, once per
// position.
func (r *run) lookahead(in *inst, pos int) bool {
	k := in.look
	if r.looks == nil {
		r.looks, r.subs = make([][]int8, r.p.looks), make([]*run, r.p.looks)
	}
	if r.looks[k] == nil {
		r.looks[k] = r.m.lookSet()
		r.subs[k] = &run{p: in.sub, m: r.m, boolean: true, stack: getStack()}
	}
	if v := r.looks[k][pos]; v != 0 {
		return v == 1
	}
	_, ok := r.subs[k].matchAt(pos, nil)
	r.looks[k][pos] = 2
	if ok {
		r.looks[k][pos] = 1
	}
	return ok
}

func litAt(rs []rune, pos int, lit []rune, fold bool) bool {
	for j, want := range lit {
		c := rs[pos+j]
		switch {
		case c == want:
		case !fold:
			return false
		case c < utf8RuneSelf && want < utf8RuneSelf:
			// foldEq without its table lookups: two ASCII runes fold
			// together when they are one letter in two cases.
			if c|0x20 != want|0x20 || !isASCIILetter(c) {
				return false
			}
		case !foldEq(c, want):
			return false
		}
	}
	return true
}

// foldEq is the case-insensitive comparison of a folded literal's runes.
func foldEq(a, b rune) bool { return unicode.ToLower(a) == unicode.ToLower(b) }
