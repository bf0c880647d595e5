package langdetect

import (
	"fmt"
	"math/bits"
	"slices"
)

// The n-gram look-up. Extraction looks up each of the (up to) 30,000
// n-grams of a text's 10,000 characters, so it is built for that: one
// table read normalizes a character and gives its small id and its
// unigram's gram id, and a bigram or trigram is a key of packed character
// ids in a flat open-addressing table.

// charInfo is what extraction needs of a text character, from its
// normalized form: its id among the characters of the profiles' n-grams
// (0 for a character no n-gram holds) in the low 31 bits, its gram id
// plus 1 as a unigram (0 for none) in bits 32-61, and whether it is
// uppercase (bit 62) or a space (bit 63). Bit 31 (charLatin) marks, while
// gramsOf reads a text, the characters cleaning_text may drop ('A' to 'z').
type charInfo uint64

const (
	charSpace   charInfo = 1 << 63
	charUpper   charInfo = 1 << 62
	charLatin   charInfo = 1 << 31
	charIDs     charInfo = 1<<31 - 1
	charUniBits          = 30
	charUniMask charInfo = (1<<charUniBits - 1) << 32
)

// bmpSize: characters below it get their charInfo from a flat table; the
// rest (outside the Basic Multilingual Plane) are worked out one by one.
const bmpSize = 0x10000

// gramTable is the profiles' n-grams, as gram ids.
type gramTable struct {
	norm     *normalization
	bmp      *[bmpSize]charInfo // charInfo of every character below bmpSize
	other    map[rune]charInfo  // charInfo of the n-grams' characters from bmpSize up, flags aside
	keys     keyTable           // the bigrams and trigrams
	charBits uint
}

// keyTable is an open-addressing hash table from n-gram keys to gram ids:
// a key is the n-gram's char ids a<<2b | b<<b | c (a = 0 for a bigram,
// b = charBits), and slots hold key<<idBits | (gram id + 1), 0 when empty.
type keyTable struct {
	slots  []uint64
	idBits uint
	shift  uint // 64 - log2(len(slots))
}

func (k *keyTable) home(key uint64) int {
	// The shift counts masked: Go checks a shift by a variable for counts
	// of 64 and more unless the count is masked.
	return int((key * 0x9e3779b97f4a7c15) >> (k.shift & 63))
}

// find is the gram id of key, or -1.
func (k *keyTable) find(key uint64) int32 {
	mask := len(k.slots) - 1
	for h := k.home(key) & mask; ; h = (h + 1) & mask {
		s := k.slots[h]
		if s == 0 {
			return -1
		}
		if s>>(k.idBits&63) == key {
			return int32(s&(1<<(k.idBits&63)-1)) - 1
		}
	}
}

func (k *keyTable) insert(key uint64, id int) {
	mask := len(k.slots) - 1
	h := k.home(key) & mask
	for k.slots[h] != 0 {
		h = (h + 1) & mask
	}
	k.slots[h] = key<<k.idBits | uint64(id+1)
}

// newGramTable indexes grams (each one to three normalized characters;
// grams[i] has gram id i).
func newGramTable(norm *normalization, grams [][]rune) (*gramTable, error) {
	t := &gramTable{norm: norm, bmp: new([bmpSize]charInfo), other: map[rune]charInfo{}}
	// A text's characters are looked up normalized, so an n-gram holding a
	// character normalization never gives (a Hangul syllable other than
	// U+AC00, a Kanji other than its class's first) is never found: such
	// n-grams are left out of the table, and their characters get no id.
	reachable := map[rune]bool{' ': true}
	for r := range rune(bmpSize) {
		reachable[norm.normalizeRune(r)] = true
	}
	// (normalizeRune leaves every character from bmpSize up as it is.)
	canOccur := func(r rune) bool { return r >= bmpSize && norm.normalizeRune(r) == r || reachable[r] }
	// The characters' infos without flags: id and unigram.
	chars := map[rune]charInfo{' ': 1} // the space first, so it always has an id
	nKeys := 0
	var kept []int
	for id, g := range grams {
		if len(g) < 1 || len(g) > 3 {
			return nil, fmt.Errorf("%w: n-gram %q of %d characters", ErrBadProfile, string(g), len(g))
		}
		if !all(g, canOccur) {
			continue
		}
		kept = append(kept, id)
		if len(g) > 1 {
			nKeys++
		}
		for _, r := range g {
			if _, ok := chars[r]; !ok {
				chars[r] = charInfo(len(chars) + 1)
			}
		}
	}
	nChars := len(chars) + 1 // with id 0, no character
	t.charBits = uint(bits.Len(uint(nChars - 1)))
	t.keys.idBits = uint(bits.Len(uint(len(grams))))
	if 3*t.charBits+t.keys.idBits > 64 || len(grams) >= 1<<charUniBits || uint64(nChars) > uint64(charIDs) {
		return nil, fmt.Errorf("%w: %d n-grams over %d characters do not fit the look-up table", ErrBadProfile, len(grams), nChars)
	}
	size := 1 << bits.Len(uint(2*nKeys)) // at most half full
	t.keys.slots = make([]uint64, size)
	t.keys.shift = uint(64 - bits.Len(uint(size-1)))
	for _, id := range kept {
		g := grams[id]
		if len(g) == 1 {
			if g[0] != ' ' {
				chars[g[0]] |= charInfo(id+1) << 32
			}
			continue
		}
		var key uint64
		for _, r := range g {
			key = key<<t.charBits | uint64(chars[r]&charIDs)
		}
		t.keys.insert(key, id)
	}
	for r := range rune(bmpSize) {
		ch := norm.normalizeRune(r)
		t.bmp[r] = chars[ch] | flags(ch)
	}
	for r, info := range chars {
		if r >= bmpSize {
			t.other[r] = info
		}
	}
	return t, nil
}

// flags are a normalized character's space and uppercase bits.
func flags(ch rune) charInfo {
	var f charInfo
	if ch == ' ' {
		f |= charSpace
	}
	if isUpper(ch) {
		f |= charUpper
	}
	return f
}

func all(rs []rune, f func(rune) bool) bool {
	for _, r := range rs {
		if !f(r) {
			return false
		}
	}
	return true
}

// charInfoOf is a text character's charInfo.
func (t *gramTable) charInfoOf(r rune) charInfo {
	if uint32(r) < bmpSize {
		return t.bmp[r]
	}
	ch := t.norm.normalizeRune(r)
	return t.other[ch] | flags(ch)
}

// extract lists the text's n-grams that some profile holds
// (_extract_ngrams over NGram.add_char), as gram ids, in text order,
// appended to out; memo remembers words' grams from text to text.
//
// NGram keeps a window of the last three normalized characters, restarted
// as a lone space after a space, and skips the n-grams of a character
// that follows an uppercase one in an uppercase run (a word in capitals).
// After a space the window's state is always the same, so the grams of a
// word (its characters up to and including the space that ends it) depend
// on its characters alone: texts repeat their words, and each word's grams
// are looked up once and copied where it comes again, in this text or a
// later one.
func (t *gramTable) extract(text []rune, out []int32, memo *wordMemo) []int32 {
	bmp := t.bmp
	infos := slices.Grow(memo.infos[:0], len(text))[:len(text)]
	for i, r := range text {
		if uint32(r) < bmpSize {
			infos[i] = bmp[r]
		} else {
			infos[i] = t.charInfoOf(r)
		}
	}
	memo.infos = infos
	return t.extractInfos(infos, out, memo)
}

// extractInfos is extract of the characters infos (memo.infos or not),
// which it overwrites.
func (t *gramTable) extractInfos(infos []charInfo, out []int32, memo *wordMemo) []int32 {
	out = slices.Grow(out[:0], 3*len(infos))[:3*len(infos)]
	// infos[:k] are the characters read, a space after a space left out
	// (adding nothing); infos[wordStart:k] is the word being read. k is
	// never past the character read, so they are written in place.
	n, k, wordStart := 0, 0, 0
	var hash uint64
	last := t.bmp[' ']
	for _, info := range infos {
		if info&last&charSpace != 0 { // one branch, seldom taken: two would mispredict
			continue // a space after a space adds nothing
		}
		last = info
		infos[k] = info
		k++
		hash = (bits.RotateLeft64(hash, 23) ^ uint64(info)) * 0x9e3779b97f4a7c15
		if info&charSpace == 0 {
			continue
		}
		// A word ends here.
		n = memo.wordGrams(t, infos[wordStart:k], hash, out, n)
		wordStart, hash = k, 0
	}
	// The last word, with no space after it.
	n = t.wordGrams(infos[wordStart:k], out, n)
	return out[:n]
}

// wordGrams writes the grams of the characters infos (read from the state
// after a space: a word, or the end of the text, holding no space but at
// its end) to out[n:] and returns the new end.
func (t *gramTable) wordGrams(infos []charInfo, out []int32, n int) int {
	keys, b := t.keys, t.charBits&63
	// The window: the char ids p, q of its two characters before the
	// current one c (0 where the window is shorter, as for a character no
	// n-gram holds: either way no n-gram through it is known).
	var p, q uint64 = 0, uint64(t.bmp[' '] & charIDs)
	var last charInfo
	capital := false
	for _, info := range infos {
		if info&charUpper == 0 {
			capital = false
		} else if last&charUpper != 0 {
			capital = true
		}
		last = info
		c := uint64(info & charIDs)
		a := p
		p, q = q, c
		if capital || c == 0 {
			continue
		}
		if u := info & charUniMask; u != 0 {
			out[n] = int32(u>>32) - 1
			n++
		}
		if p == 0 {
			continue
		}
		if id := keys.find(p<<b | c); id >= 0 {
			out[n] = id
			n++
		}
		if a == 0 {
			continue
		}
		if id := keys.find(a<<(2*b) | p<<b | c); id >= 0 {
			out[n] = id
			n++
		}
	}
	return n
}

// wordMemo remembers words' grams, from one text to the next (a detector's
// pooled scratch keeps one per worker): a word's grams depend on its
// characters alone, so they are the same in every text. Common words are
// then looked up once per worker, not once per text. It holds up to
// memoSlots/2 words, memoMaxInfos of their characters and memoMaxGrams of
// their grams, and starts empty again when one of them is full.
type wordMemo struct {
	infos []charInfo // extract's scratch: the text's characters
	slots []memoSlot
	words []charInfo // the remembered words' characters
	grams []int32    // the remembered words' grams
	used  int        // slots in use
	// resets counts the times the full memo was emptied (for the tests).
	resets int
}

// memoSlot is a remembered word: its characters words[word:word+wordLen]
// and its grams grams[gram:gram+gramLen]; wordLen 0 marks an empty slot.
type memoSlot struct {
	hash             uint32
	word, gram       int32
	wordLen, gramLen uint8
}

const (
	memoBits  = 13
	memoSlots = 1 << memoBits
	// Words are remembered up to memoMaxWord characters (a long one, as a
	// run of Chinese without spaces, seldom comes again).
	memoMaxWord  = 32
	memoMaxInfos = 1 << 15
	memoMaxGrams = 1 << 16
)

// A word of memoMaxWord characters has at most 3 grams a character: its
// number of grams fits memoSlot's gramLen (this fails to compile if not).
const _ = uint8(3 * memoMaxWord)

// reset empties the memo.
func (m *wordMemo) reset() {
	if m.slots == nil {
		m.slots = make([]memoSlot, memoSlots)
	} else {
		clear(m.slots)
		m.resets++
	}
	m.words, m.grams, m.used = m.words[:0], m.grams[:0], 0
}

// wordGrams writes the grams of the word (hash is its hash) to out[n:],
// copied from the memo if it was seen before, and returns the new end.
func (m *wordMemo) wordGrams(t *gramTable, word []charInfo, hash uint64, out []int32, n int) int {
	if len(word) > memoMaxWord {
		return t.wordGrams(word, out, n)
	}
	if m.slots == nil {
		m.reset()
	}
	mask := len(m.slots) - 1
	h := uint32(hash)
	for i := int(hash >> (64 - memoBits)); ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.wordLen == 0 {
			end := t.wordGrams(word, out, n)
			m.remember(word, hash, out[n:end])
			return end
		}
		if s.hash == h && slices.Equal(m.words[s.word:s.word+int32(s.wordLen)], word) {
			return n + copy(out[n:], m.grams[s.gram:s.gram+int32(s.gramLen)])
		}
	}
}

// remember adds a word not in the memo, with its grams, emptying the memo
// first when it is full.
func (m *wordMemo) remember(word []charInfo, hash uint64, grams []int32) {
	if m.used >= memoSlots/2 || len(m.words)+len(word) > memoMaxInfos || len(m.grams)+len(grams) > memoMaxGrams {
		m.reset()
	}
	mask := len(m.slots) - 1
	i := int(hash>>(64-memoBits)) & mask
	for m.slots[i].wordLen != 0 {
		i = (i + 1) & mask
	}
	m.slots[i] = memoSlot{hash: uint32(hash), word: int32(len(m.words)), gram: int32(len(m.grams)), wordLen: uint8(len(word)), gramLen: uint8(len(grams))}
	m.words = append(m.words, word...)
	m.grams = append(m.grams, grams...)
	m.used++
}
