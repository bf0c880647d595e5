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
