package view

import (
	"encoding/binary"
	"math/bits"
)

// A trace page's place in a filter needs the filter's rows in its order.
// Testing each row against the filter as the order's walk meets it
// (matcher.fails) reads every tested column at the row's place, rows in
// the order's sequence: scattered reads of the mapped file, 26-56 ms at
// 382,500 traces. rowsIn finds the same rows part by part instead, each
// part a pass in row order over its own column (sequential reads), and
// only over the rows the parts before it kept; the order's walk then
// tests one bit a row, in a set of n/8 bytes that stays in the cache.

// rowsIn is the set of rows the filter holds: the rows m.fails passes.
func (m *matcher) rowsIn() bitmap {
	rf := m.rf
	in := fullBitmap(rf.N)
	for i, set := range m.sets {
		if set != nil {
			in.keepCodes(rf.column(rf.facet[i]), set)
		}
	}
	if m.alset != nil {
		in.keepIf(func(j int) bool { return m.alset[rf.alsetOf(j)] })
	}
	for k, mt := range metrics {
		r, ok := m.f.Ranges[mt.Param]
		if !ok {
			continue
		}
		if m.metricK < 0 { // no aligner shown: no row has the score
			clear(in)
			break
		}
		in.keepIf(func(j int) bool { return r.holds(m.metricOf(j, k)) })
	}
	if m.alignedBy != nil {
		in.keepIf(func(j int) bool { return m.alignedBy[rf.alsetOf(j)] })
	}
	if m.annotated != nil {
		in.and(m.annotated)
	}
	if m.problem != -1 {
		in.keepIf(func(j int) bool { return int32(rf.u32(rf.problem, j)) == m.problem })
	}
	if m.search != nil {
		in.and(m.search)
	}
	return in
}

// column is the bytes of a column of 4-byte values, one a row.
func (rf *rowFile) column(c colSpan) []byte { return rf.data[c.Off : c.Off+4*rf.N] }

// keepCodes takes out of b the rows whose code in col (4 bytes a row) is
// not one ok holds: keepIf's loop over a facet's column, without a call a
// row.
func (b bitmap) keepCodes(col []byte, ok []bool) {
	for w, word := range b {
		out := uint64(0)
		for rest := word; rest != 0; rest &= rest - 1 {
			k := bits.TrailingZeros64(rest)
			if !ok[binary.LittleEndian.Uint32(col[4*(w<<6|k):])] {
				out |= 1 << k
			}
		}
		b[w] = word &^ out
	}
}

// inOrder appends to rows the rows in holds, in the order rowFile.walk
// gives for the sort key (desc: each part reversed, the scored rows then
// the rest; a metric without an aligner, or the id: the rows' own order),
// a loop over the order's column testing a bit a row. It stops at the last
// row in holds.
func (rf *rowFile) inOrder(sort string, desc bool, aligner int, in bitmap, rows []int32) []int32 {
	want := len(rows) + in.count()
	n := rf.N
	_, isMetric := metricIndex[sort]
	if sort == "id" || (isMetric && aligner < 0) {
		for p := range n {
			j := p
			if desc {
				j = n - 1 - p
			}
			if in.has(j) {
				if rows = append(rows, int32(j)); len(rows) == want {
					break
				}
			}
		}
		return rows
	}
	name := orderCol(sort, aligner)
	col := rf.column(rf.Cols[name])
	scored := n
	if isMetric {
		scored = rf.Scored[name]
	}
	scan := func(lo, hi int, reverse bool) {
		for p := lo; p < hi && len(rows) < want; p++ {
			q := p
			if reverse {
				q = lo + hi - 1 - p
			}
			if j := binary.LittleEndian.Uint32(col[4*q:]); in[j>>6]&(1<<(j&63)) != 0 {
				rows = append(rows, int32(j))
			}
		}
	}
	if !desc {
		scan(0, n, false)
	} else {
		scan(0, scored, true)
		scan(scored, n, true)
	}
	return rows
}
