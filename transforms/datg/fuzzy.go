package datg

import "slices"

// fuzzyFind finds the substring of text closest to pattern within k edits
// (Sellers' approximate matching: the first end with the fewest edits, and
// of the starts within k of the pattern's length before it, the first with
// the fewest edits); it returns the match's bounds. Both passes use Myers'
// bit-vector algorithm, so the work is the text's length times the
// pattern's in 64-character words (fuzzySteps).
func fuzzyFind(text, pattern []rune, k int) (start, end int, ok bool) {
	m := len(pattern)
	best, bestEnd := k+1, -1
	newBitPattern(pattern).distances(text, false, func(j, d int) {
		if d < best {
			best, bestEnd = d, j
		}
	})
	if bestEnd < 0 {
		return 0, 0, false
	}
	// Where the best match starts: the pattern aligned backwards from its
	// end, read from the reversed text (after j characters, the distance
	// of text[bestEnd-j:bestEnd] to the whole pattern).
	lo, hi := max(0, bestEnd-m-k), min(bestEnd-1, bestEnd-m+k)
	bestStart, bestDist := max(0, bestEnd-m), k+1
	if lo > hi {
		return bestStart, bestEnd, true
	}
	back := slices.Clone(text[lo:bestEnd])
	slices.Reverse(back)
	rev := slices.Clone(pattern)
	slices.Reverse(rev)
	dist := make([]int, len(back)+1)
	newBitPattern(rev).distances(back, true, func(j, d int) { dist[j] = d })
	for s := lo; s <= hi; s++ {
		if d := dist[bestEnd-s]; d < bestDist {
			bestStart, bestDist = s, d
		}
	}
	return bestStart, bestEnd, true
}

// fuzzySteps is the work of fuzzyFind on a text of n characters and a
// pattern of m within k edits, in 64-bit words updated.
func fuzzySteps(n, m, k int) int {
	words := (m + 63) / 64
	return (n + m + k) * words
}

// bitPattern is a pattern prepared for Myers' algorithm: for each of its
// characters, the bit mask of the positions holding it, in 64-bit words.
type bitPattern struct {
	m, words int
	ascii    [128]int32 // 1 + the mask index of an ASCII character; 0 when absent
	other    map[rune]int32
	masks    []uint64 // len(distinct characters) × words
	absent   []uint64 // the mask of a character not in the pattern: zeros
}

func newBitPattern(p []rune) *bitPattern {
	bp := &bitPattern{m: len(p), words: (len(p) + 63) / 64}
	bp.absent = make([]uint64, bp.words)
	for i, r := range p {
		id := bp.id(r)
		if id == 0 {
			bp.masks = append(bp.masks, make([]uint64, bp.words)...)
			id = int32(len(bp.masks) / bp.words)
			if r < 128 {
				bp.ascii[r] = id
			} else {
				if bp.other == nil {
					bp.other = map[rune]int32{}
				}
				bp.other[r] = id
			}
		}
		bp.masks[int(id-1)*bp.words+i/64] |= 1 << (i % 64)
	}
	return bp
}

func (bp *bitPattern) id(r rune) int32 {
	if r >= 0 && r < 128 {
		return bp.ascii[r]
	}
	return bp.other[r]
}

func (bp *bitPattern) eq(r rune) []uint64 {
	id := bp.id(r)
	if id == 0 {
		return bp.absent
	}
	return bp.masks[int(id-1)*bp.words : int(id)*bp.words]
}

// distances gives visit, after each character j (1-based) of text, the
// edit distance between the pattern and: the best substring of text
// ending there (search, Sellers), or text[:j] (global). The dynamic
// programming matrix's columns are kept as bit vectors of vertical deltas
// (Myers 1999, in Hyyrö's block form as edlib computes it), and the
// distance is read at the pattern's last row.
func (bp *bitPattern) distances(text []rune, global bool, visit func(j, d int)) {
	w := bp.words
	pv, mv := make([]uint64, w), make([]uint64, w)
	for i := range pv {
		pv[i] = ^uint64(0) // the first column: i edits for i characters
	}
	lastRow := uint(bp.m-1) % 64
	top := uint64(0) // the first row's horizontal delta: 0 in a search, +1 globally
	if global {
		top = 1
	}
	d := bp.m
	for j, r := range text {
		eq := bp.eq(r)
		// The horizontal delta entering each block from the one above,
		// as two bits: +1 (pin) or -1 (min).
		pin, min := top, uint64(0)
		for b := range w {
			p, m, e := pv[b], mv[b], eq[b]
			xv := e | m
			e |= min
			xh := (((e & p) + p) ^ p) | e
			ph := m | ^(xh | p)
			mh := p & xh
			out := uint(63)
			if b == w-1 {
				out = lastRow
			}
			pout, mout := ph>>out&1, mh>>out&1
			ph = ph<<1 | pin
			mh = mh<<1 | min
			pv[b] = mh | ^(xv | ph)
			mv[b] = ph & xv
			pin, min = pout, mout
		}
		d += int(pin) - int(min)
		visit(j+1, d)
	}
}
