// Package swar tests eight bytes at once in a uint64 (SIMD within a
// register): the JSON string readers of datg answers check and of the
// Math-Verify grader skip runs of plain ASCII this way, and both must
// flag the same bytes, so the tests live once, here.
package swar

// Each constant repeats one byte in the eight bytes of a word: the low
// seven bits, the high bit, and one.
const (
	Low7 = 0x7f7f7f7f7f7f7f7f
	High = 0x8080808080808080
	Ones = 0x0101010101010101
)

// Equal has the high bit of each byte of w (eight ASCII bytes) set where
// that byte is c. A byte of w^c below 0x80 plus 0x7f carries into its
// high bit (and no further) unless it is zero.
func Equal(w uint64, c byte) uint64 {
	return ^((w ^ uint64(c)*Ones) + Low7) & High
}

// Flags packs the high bits of a word's eight bytes into eight bits, byte
// j's as bit j: bit 8j of m>>7, times 2^(7(7-j)+7), lands on bit 56+j,
// and no two of the products' bits meet.
func Flags(m uint64) uint64 { return ((m >> 7) * 0x0102040810204080) >> 56 }

// JSONSpecial has the high bit of byte k of w set where that byte needs a
// JSON string decoder's attention: a quote, a backslash, a control byte
// or a non-ASCII byte (whose high bit is set whatever the tests on its
// low seven bits give). On seven-bit lanes each test adds at most 0x7f to
// at most 0x7f, so no carry crosses into the next byte and the flags are
// exact.
func JSONSpecial(w uint64) uint64 {
	w7 := w & Low7
	quote := ^((w7 ^ '"'*Ones) + Low7)
	backslash := ^((w7 ^ '\\'*Ones) + Low7)
	control := ^(w7 + (0x80-0x20)*Ones) // below 0x20: no carry into bit 7
	return (w | quote | backslash | control) & High
}
