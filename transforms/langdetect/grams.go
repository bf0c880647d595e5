package langdetect

import (
	"fmt"
	"math/bits"
)

// The n-gram look-up. Extraction looks up each of the (up to) 30,000
// n-grams of a text's 10,000 characters, so it is built for that: every
// character is normalized and given a small id by one table read, a
// unigram's gram id is an array read, and a bigram or trigram is a key of
// packed character ids in a flat open-addressing table.

// charInfo is what extraction needs of a text character: the id of its
// normalized form among the characters of the profiles' n-grams (0 for a
// character no n-gram holds), and whether the normalized form is a space
// or uppercase.
type charInfo uint32

const (
	charSpace charInfo = 1 << 31
	charUpper charInfo = 1 << 30
	charIDs   charInfo = 1<<30 - 1
)

// bmpSize: characters below it get their charInfo from a flat table; the
// rest (outside the Basic Multilingual Plane) are worked out one by one.
const bmpSize = 0x10000

// gramTable is the profiles' n-grams, as gram ids.
type gramTable struct {
	norm  *normalization
	bmp   []charInfo     // charInfo of every character below bmpSize
	other map[rune]int32 // char id of the n-grams' characters from bmpSize up
	uni   []int32        // unigram's gram id by char id; -1 if none
	// slots hold key<<idBits | (gram id + 1), 0 when empty: key is the
	// char ids a<<2b | b<<b | c (a = 0 for a bigram, b = charBits).
	slots    []uint64
	charBits uint
	idBits   uint
	shift    uint // 64 - log2(len(slots))
}

// newGramTable indexes grams (each one to three normalized characters;
// grams[i] has gram id i).
func newGramTable(norm *normalization, grams [][]rune) (*gramTable, error) {
	t := &gramTable{norm: norm, other: map[rune]int32{}}
	charID := map[rune]int32{' ': 1} // the space first, so it always has an id
	chars := []rune{0, ' '}
	for _, g := range grams {
		for _, r := range g {
			if _, ok := charID[r]; !ok {
				charID[r] = int32(len(chars))
				chars = append(chars, r)
			}
		}
	}
	t.charBits = uint(bits.Len(uint(len(chars))))
	t.idBits = uint(bits.Len(uint(len(grams) + 1)))
	if 3*t.charBits+t.idBits > 64 || len(chars) > int(charIDs) {
		return nil, fmt.Errorf("%w: %d n-grams over %d characters do not fit the look-up table", ErrBadProfile, len(grams), len(chars))
	}
	t.bmp = make([]charInfo, bmpSize)
	for r := range rune(bmpSize) {
		t.bmp[r] = t.info(r, charID)
	}
	for r, id := range charID {
		if r >= bmpSize {
			t.other[r] = id
		}
	}
	t.uni = make([]int32, len(chars))
	for i := range t.uni {
		t.uni[i] = -1
	}
	size := 1 << bits.Len(uint(3*len(grams))) // at most a third full
	t.slots = make([]uint64, size)
	t.shift = uint(64 - bits.Len(uint(size-1)))
	for id, g := range grams {
		if len(g) < 1 || len(g) > 3 {
			return nil, fmt.Errorf("%w: n-gram %q of %d characters", ErrBadProfile, string(g), len(g))
		}
		if len(g) == 1 {
			t.uni[charID[g[0]]] = int32(id)
			continue
		}
		var key uint64
		for _, r := range g {
			key = key<<t.charBits | uint64(charID[r])
		}
		h := t.home(key)
		for t.slots[h] != 0 {
			h = (h + 1) & (len(t.slots) - 1)
		}
		t.slots[h] = key<<t.idBits | uint64(id+1)
	}
	return t, nil
}

// info is r's charInfo, given the char ids.
func (t *gramTable) info(r rune, charID map[rune]int32) charInfo {
	ch := t.norm.normalizeRune(r)
	info := charInfo(charID[ch])
	if ch == ' ' {
		info |= charSpace
	}
	if isUpper(ch) {
		info |= charUpper
	}
	return info
}

// charInfoOf is info for a text character.
func (t *gramTable) charInfoOf(r rune) charInfo {
	if uint32(r) < bmpSize {
		return t.bmp[r]
	}
	ch := t.norm.normalizeRune(r)
	info := charInfo(t.other[ch])
	if isUpper(ch) {
		info |= charUpper
	}
	return info
}

func (t *gramTable) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> t.shift)
}

// lookup is the gram id of key, or -1.
func (t *gramTable) lookup(key uint64) int32 {
	mask := len(t.slots) - 1
	for h := t.home(key); ; h = (h + 1) & mask {
		s := t.slots[h]
		if s == 0 {
			return -1
		}
		if s>>t.idBits == key {
			return int32(s&(1<<t.idBits-1)) - 1
		}
	}
}

// extract lists the text's n-grams that some profile holds
// (_extract_ngrams over NGram.add_char), as gram ids, in text order,
// appended to out.
//
// NGram keeps a window of the last three normalized characters, restarted
// as a lone space after a space, and skips the n-grams of a character
// that follows an uppercase one in an uppercase run (a word in capitals).
// Here the window is the char ids p, q of its two characters before the
// current one c (0 where the window is shorter, as for a character no
// n-gram holds: either way no n-gram through it is known).
func (t *gramTable) extract(text []rune, out []int32) []int32 {
	b := t.charBits
	var p, q uint64 = 0, uint64(t.bmp[' '] & charIDs)
	lastSpace, lastUpper, capital := true, false, false
	for _, r := range text {
		info := t.charInfoOf(r)
		if lastSpace {
			p, capital = 0, false
			if info&charSpace != 0 {
				continue
			}
		}
		c := uint64(info & charIDs)
		up := info&charUpper != 0
		if up {
			if lastUpper {
				capital = true
			}
		} else {
			capital = false
		}
		lastSpace, lastUpper = info&charSpace != 0, up
		a := p
		p, q = q, c
		if capital || c == 0 {
			continue
		}
		if id := t.uni[c]; id >= 0 && info&charSpace == 0 {
			out = append(out, id)
		}
		if p == 0 {
			continue
		}
		if id := t.lookup(p<<b | c); id >= 0 {
			out = append(out, id)
		}
		if a == 0 {
			continue
		}
		if id := t.lookup(a<<(2*b) | p<<b | c); id >= 0 {
			out = append(out, id)
		}
	}
	return out
}
