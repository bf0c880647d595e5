package transforms

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/datg/datg/study"
)

// Thresholds of the compliance check. A language counts as detected when it
// holds at least MinLanguageShare of the reasoning's letters, as
// langdetect's detect_langs reports languages above probability 0.1 (the
// paper's protocol); a reasoning shorter than MinLength (TextLength: about
// eight English words) is too short to tell.
const (
	MinLanguageShare = 0.1
	MinLength        = 40
)

// ReasoningText is the part of a trace whose language is checked: the
// reasoning the model wrote, without the direct-first prefix datg put in
// its mouth and without the visible answer after </think>.
func ReasoningText(text, prefix string) string {
	s := strings.TrimPrefix(text, ThinkOpen)
	if prefix != "" {
		s = strings.TrimPrefix(s, prefix)
	}
	if i := strings.Index(s, ThinkClose); i >= 0 {
		s = s[:i]
	}
	return s
}

// Letters counts the letters of s (unicode.IsLetter), reading ASCII
// without decoding and the Basic Multilingual Plane from a bitmap.
func Letters(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				n++
			}
			i++
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		if r < 1<<16 {
			if bmpLetters[r>>6]&(1<<(r&63)) != 0 {
				n++
			}
		} else if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// bmpLetters has a bit for each letter of the Basic Multilingual Plane
// (unicode.Letter's 16-bit ranges; 8 KB).
var bmpLetters = func() *[1 << 10]uint64 {
	var bits [1 << 10]uint64
	for _, rg := range unicode.Letter.R16 {
		for c := uint32(rg.Lo); c <= uint32(rg.Hi); c += uint32(rg.Stride) {
			bits[c>>6] |= 1 << (c & 63)
		}
	}
	return &bits
}()

// Weights of TextLength, in letters of an alphabet that writes every sound
// as a letter and its words apart, as English does; an English word holds
// 4.79 letters on average (Norvig, "English Letter Frequency Counts:
// Mayzner Revisited", over the Google Books n-grams).
const (
	// hanWeight: a Han character is a morpheme, and Chinese writes about
	// 1.5 characters per English word (translation practice counts 1,300 to
	// 1,800 Chinese characters for 1,000 English words): 4.79 / 1.5 ≈ 3.
	hanWeight = 3
	// kanaWeight: a kana is one mora, a consonant and a vowel in Hepburn
	// romanization; Japanese, kanji and kana, writes 2 to 2.5 characters
	// per English word (translation practice divides characters by 2 to
	// 2.5), 1.9 to 2.4 letters a character, which 3 for kanji and 2 for kana
	// give.
	kanaWeight = 2
)

// Hangul syllables (Unicode 3.12, "Conjoining Jamo Behavior"): a syllable
// of the block decomposes canonically into a leading consonant, a vowel
// and, unless its index is a multiple of hangulTCount, a trailing one.
const (
	hangulFirst  = 0xAC00
	hangulLast   = 0xD7A3
	hangulTCount = 28
)

// TextLength is how much text s holds, counted in letters of an alphabet
// like English's, so the same content measures about the same in every
// script. Letters count by Letters; scripts that write without spaces or
// pack several sounds in a character would otherwise count a fraction of an
// English text of the same content (about a third for Chinese):
//   - a combining mark counts 1, as a letter: the abugidas (Bengali,
//     Telugu, Devanagari, Thai, Lao, Khmer, Myanmar...) write most vowels as
//     marks (Unicode category M), which a transliteration writes as letters;
//   - a Hangul syllable counts its jamo, 2 or 3 (its canonical
//     decomposition);
//   - a Hiragana or Katakana character counts kanaWeight, a Han character
//     hanWeight.
//
// On the demo set's questions (the same 15 problems in the 12 languages)
// every language measures 0.98 to 1.38 times English (letters alone: 0.33
// for Chinese, 0.51 Korean, 0.54 Japanese, 0.68 Bengali).
func TextLength(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= hangulFirst && r <= hangulLast:
			n += 2
			if (r-hangulFirst)%hangulTCount != 0 {
				n++
			}
		case unicode.Is(unicode.Han, r):
			n += hanWeight
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			n += kanaWeight
		case unicode.IsLetter(r) || unicode.IsMark(r):
			n++
		}
	}
	return n
}

// LettersAndLength is (Letters(s), TextLength(s), utf8.ValidString(s)) in
// one pass: ASCII, most of a trace's text whatever its language, read
// eight bytes at a time without a table, the two- and three-byte characters
// (the rest of the Basic Multilingual Plane) decoded here and classed with
// one read of bmpClasses (unicode.IsLetter and the Han, kana and Hangul
// range tables cost a binary search each: a third of langcheck's time on a
// Chinese trace; utf8.DecodeRuneInString's call per character, and a
// second pass for the validity Segments needs, a tenth).
func LettersAndLength(s string) (letters, length int, valid bool) {
	_, letters, length, valid = stripAndCount(s, false)
	return letters, length, valid
}

// StripMathAndCount is (StripMath(s), LettersAndLength(StripMath(s))) in
// one pass over s: the search for the math delimiters '$' and '\' is part
// of the count's eight-byte reads (a strings.Index call for each, two or
// three a span, was most of the stripping's time on real traces), and the
// spans are not counted (each is a space in the stripped text, neither a
// letter nor of any length; a span's delimiters are ASCII, so the
// characters either side are read as in the stripped text).
func StripMathAndCount(s string) (stripped string, letters, length int, valid bool) {
	return stripAndCount(s, true)
}

// stripAndCount is StripMathAndCount, or, when strip is false,
// LettersAndLength with s as it is.
func stripAndCount(s string, strip bool) (stripped string, letters, length int, valid bool) {
	classes := bmpClasses()
	valid = true
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	var b strings.Builder
	last := 0 // s[last:] is not written to b yet
	var spans mathSpans
	asciiLetters := 0 // counted in letters and length at the end
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			// Eight bytes at a time, up to the first that is not ASCII or
			// is a math delimiter: each byte, lowered (| 0x20), is a
			// letter when it is 'a' (0x61) to 'z' (0x7a), which adding 0x1f
			// and 0x05 tells by the high bit of each sum (an ASCII byte
			// plus either never carries into the next byte; a carry out of
			// a byte that is not ASCII goes into the later bytes, not
			// counted). The words of a run are read in this inner loop,
			// which keeps few values live (going round the outer loop for
			// each word spilled its registers).
			start := i
			for i+8 <= len(s) {
				e := s[i : i+8]
				w := uint64(e[0]) | uint64(e[1])<<8 | uint64(e[2])<<16 | uint64(e[3])<<24 |
					uint64(e[4])<<32 | uint64(e[5])<<40 | uint64(e[6])<<48 | uint64(e[7])<<56
				lower := w | 0x2020202020202020
				isLetter := (lower + 0x1f1f1f1f1f1f1f1f) &^ (lower + 0x0505050505050505) & highs
				stop := w & highs
				if strip {
					// The bytes equal to '$' or '\' (a byte less one
					// borrows only from a byte that is 0: the lowest one
					// marked is right, those above it are not read).
					x, y := w^('$'*ones), w^('\\'*ones)
					stop |= ((x-ones)&^x | (y-ones)&^y) & highs
				}
				if stop != 0 {
					ascii := bits.TrailingZeros64(stop) / 8 // the ASCII bytes before the stop
					asciiLetters += bits.OnesCount64(isLetter & (1<<(8*ascii) - 1))
					i += ascii
					break
				}
				asciiLetters += bits.OnesCount64(isLetter)
				i += 8
			}
			if i != start {
				continue
			}
			// s[i] is a delimiter, or one of the last 7 bytes.
			if strip && (c == '$' || c == '\\') {
				if end := spans.end(s, i); end >= 0 {
					if b.Len() == 0 {
						b.Grow(len(s))
					}
					b.WriteString(s[last:i])
					b.WriteByte(' ')
					last, i = end, end
					continue
				}
			}
			i++
			if 'a' <= c|0x20 && c|0x20 <= 'z' {
				letters++
				length++
			}
			continue
		}
		// The characters up to the next ASCII byte, in an inner loop for
		// the same reason as the ASCII words'.
		for {
			var class runeClass
			switch {
			case c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80:
				class = classes[rune(c&0x1f)<<6|rune(s[i+1]&0x3f)]
				i += 2
			case c >= 0xe0 && c < 0xf0 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 &&
				(c != 0xe0 || s[i+1] >= 0xa0) && (c != 0xed || s[i+1] < 0xa0): // not overlong, not a surrogate
				class = classes[rune(c&0x0f)<<12|rune(s[i+1]&0x3f)<<6|rune(s[i+2]&0x3f)]
				i += 3
			default: // four bytes, or not UTF-8 (read as U+FFFD)
				r, width := utf8.DecodeRuneInString(s[i:])
				if width == 1 {
					valid = false
				}
				i += width
				if r < 1<<16 {
					class = classes[r]
				} else {
					class = classOf(r)
				}
			}
			letters += int(class >> letterShift)
			length += int(class & weightMask)
			if i >= len(s) {
				break
			}
			if c = s[i]; c < utf8.RuneSelf {
				break
			}
		}
	}
	letters += asciiLetters
	length += asciiLetters
	if last == 0 {
		return s, letters, length, valid
	}
	b.WriteString(s[last:])
	return b.String(), letters, length, valid
}

// runeClass is what LettersAndLength counts of a character: whether it is
// a letter (the high bit) and its TextLength weight (the low bits, 0 to 3).
type runeClass uint8

const (
	letterShift = 7
	weightMask  = 1<<letterShift - 1
)

// classOf is r's runeClass, from Letters' and TextLength's definitions.
func classOf(r rune) runeClass {
	class := runeClass(TextLength(string(r)))
	if unicode.IsLetter(r) {
		class |= 1 << letterShift
	}
	return class
}

// bmpClasses is the runeClass of every character of the Basic
// Multilingual Plane (64 KB), built on first use.
var bmpClasses = sync.OnceValue(func() *[1 << 16]runeClass {
	var classes [1 << 16]runeClass
	for r := range rune(1 << 16) {
		classes[r] = classOf(r)
	}
	return &classes
})

// Segments cuts text into pieces of about size characters at sentence or
// line ends and returns at most max of them, spread evenly over the text,
// so the check of a runaway trace costs no more than that of a normal one.
//
// A piece ends at the first sentence or line end once it holds size bytes,
// or at 2*size bytes; pieces of white space alone are dropped. Only the
// pieces returned are copied: the text is read once, for the ends.
func Segments(text string, size, max int) []string {
	return SegmentsOf(text, utf8.ValidString(text), size, max)
}

// SegmentsOf is Segments(text, size, max) for a text whose validity is
// known: valid is utf8.ValidString(text) (LettersAndLength's third result),
// so the text is not read once more to learn it.
func SegmentsOf(text string, valid bool, size, max int) []string {
	var spans []span
	if valid {
		spans = pieces(text, size)
	} else {
		spans = piecesOfInvalid(text, size)
	}
	if len(spans) > max {
		picked := make([]span, max)
		for i := range picked {
			picked[i] = spans[i*len(spans)/max]
		}
		spans = picked
	}
	segs := make([]string, len(spans))
	for i, sp := range spans {
		piece := text[sp.start:sp.end]
		if valid {
			// A piece of valid UTF-8 cut between characters is valid.
			segs[i] = strings.TrimSpace(piece)
		} else {
			segs[i] = segmentText(piece)
		}
	}
	return segs
}

// span is a piece of a text: text[start:end].
type span struct{ start, end int }

// pieces are Segments' pieces of valid UTF-8, found without reading each
// piece whole: a piece's bytes are its length, so the search for its end
// starts where a sentence end could first close it (size bytes in, less the
// longest end's 3 bytes) and stops at 2*size bytes.
func pieces(text string, size int) []span {
	var spans []span
	for start := 0; start < len(text); {
		i := max(start, start+size-3)
		for i > start && i < len(text) && !utf8.RuneStart(text[i]) {
			i-- // back to the start of a character
		}
		next := len(text)
		for i < len(text) {
			// The text is valid UTF-8, so a character's first byte gives
			// its width, and an end of more than one byte is told by its
			// bytes: nothing is decoded.
			c, end := text[i], false
			switch {
			case c < utf8.RuneSelf:
				end = c == '\n' || c == '.' || c == '?' || c == '!'
				i++
			case c < 0xe0:
				end = c == 0xd8 && text[i+1] == 0x9f // '؟'
				i += 2
			case c < 0xf0:
				end = c == 0xe3 && text[i+1] == 0x80 && text[i+2] == 0x82 || // '。'
					c == 0xe0 && text[i+1] == 0xa5 && text[i+2] == 0xa4 // '।'
				i += 3
			default:
				i += 4
			}
			n := i - start
			if end && n >= size || n >= 2*size {
				next = i
				break
			}
		}
		if !isBlank(text[start:next]) {
			spans = append(spans, span{start, next})
		}
		start = next
	}
	return spans
}

// isBlank tells white space alone.
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// piecesOfInvalid are Segments' pieces of a text that is not valid UTF-8,
// read a character at a time (an invalid byte counts as U+FFFD, 3 bytes).
func piecesOfInvalid(text string, size int) []span {
	var spans []span
	start, n, blank := 0, 0, true // the current piece: where, its bytes, all space so far
	for i, r := range text {
		n += utf8.RuneLen(r) // an invalid byte is read as U+FFFD, 3 bytes
		if blank && !unicode.IsSpace(r) {
			blank = false
		}
		end := r == '\n' || r == '.' || r == '?' || r == '!' || r == '。' || r == '।' || r == '؟'
		if end && n >= size || n >= 2*size {
			next := i + utf8.RuneLen(r)
			if r == utf8.RuneError {
				_, w := utf8.DecodeRuneInString(text[i:])
				next = i + w
			}
			if !blank {
				spans = append(spans, span{start, next})
			}
			start, n, blank = next, 0, true
		}
	}
	if !blank {
		spans = append(spans, span{start, len(text)})
	}
	return spans
}

// segmentText is a piece as the characters read from it, trimmed: the
// piece itself, or, where it holds bytes that are not UTF-8, with each
// such byte read as U+FFFD.
func segmentText(piece string) string {
	if !utf8.ValidString(piece) {
		var b strings.Builder
		for _, r := range piece {
			b.WriteRune(r)
		}
		piece = b.String()
	}
	return strings.TrimSpace(piece)
}

// LanguageShares turns per-segment detections into each language's share
// of the letters (letters[i]: segment i's, Letters; segments detected as ""
// are left out).
func LanguageShares(letters []int, langs []string) map[string]float64 {
	weights := map[string]float64{}
	total := 0.0
	for i, n := range letters {
		if langs[i] == "" {
			continue
		}
		w := float64(n)
		weights[langs[i]] += w
		total += w
	}
	for l := range weights {
		weights[l] /= total
	}
	return weights
}

// sameLanguage reports whether a detection satisfies a request: Malay and
// Indonesian accept each other, as detectors confuse them.
func sameLanguage(requested, detected string) bool {
	if requested == detected {
		return true
	}
	pair := requested + detected
	return pair == "msid" || pair == "idms"
}

// SortByShare sorts languages by their share, largest first, then by code.
func SortByShare(langs []string, shares map[string]float64) {
	sort.Slice(langs, func(i, j int) bool {
		if shares[langs[i]] != shares[langs[j]] {
			return shares[langs[i]] > shares[langs[j]]
		}
		return langs[i] < langs[j]
	})
}

// Comply decides compliance from the languages' shares of a reasoning of
// the given length (TextLength). detected lists the languages holding at
// least MinLanguageShare, largest first.
func Comply(requested string, length int, shares map[string]float64) (detected []string, compliant bool, status study.ComplianceStatus) {
	switch {
	case length == 0:
		return nil, false, study.ComplianceEmpty
	case length < MinLength:
		return nil, false, study.ComplianceTooShort
	}
	// Malay and Indonesian count as one language for this request.
	grouped := map[string]float64{}
	for l, s := range shares {
		key := l
		if sameLanguage(requested, l) {
			key = requested
		}
		grouped[key] += s
	}
	for l, s := range grouped {
		if s >= MinLanguageShare {
			detected = append(detected, l)
		}
	}
	SortByShare(detected, grouped)
	switch {
	case len(detected) == 0:
		return nil, false, study.ComplianceTooShort
	case len(detected) > 1:
		return detected, false, study.ComplianceMixed
	}
	return detected, detected[0] == requested, study.ComplianceOK
}
