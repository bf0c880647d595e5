package view

import "math/bits"

// bitmap is a set of rows of the index (by their place in the row file):
// a kept search or an annotation layer costs n/8 bytes, whatever it holds.
type bitmap []uint64

func newBitmap(n int) bitmap { return make(bitmap, (n+63)/64) }

func (b bitmap) set(j int)      { b[j>>6] |= 1 << (j & 63) }
func (b bitmap) has(j int) bool { return b[j>>6]&(1<<(j&63)) != 0 }

// count is how many rows the set holds.
func (b bitmap) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// or adds c's rows to b.
func (b bitmap) or(c bitmap) {
	for i := range b {
		b[i] |= c[i]
	}
}

// fullBitmap is the set of rows 0..n-1.
func fullBitmap(n int) bitmap {
	b := newBitmap(n)
	for i := range b {
		b[i] = ^uint64(0)
	}
	if tail := n & 63; tail != 0 {
		b[len(b)-1] = 1<<tail - 1
	}
	return b
}

// keepIf takes out of b the rows that fail keep, testing only the rows b
// holds, in row order.
func (b bitmap) keepIf(keep func(j int) bool) {
	for w, word := range b {
		out := uint64(0)
		for rest := word; rest != 0; rest &= rest - 1 {
			k := bits.TrailingZeros64(rest)
			if !keep(w<<6 | k) {
				out |= 1 << k
			}
		}
		b[w] = word &^ out
	}
}

// and keeps in b only the rows c holds too.
func (b bitmap) and(c bitmap) {
	for i := range b {
		b[i] &= c[i]
	}
}
