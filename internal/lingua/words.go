package lingua

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// word is one of the text's words: runes[start:end] of the lowered text,
// with what the rules and the filter ask of its alphabets, noted as the
// split reads it (each of them read the word's alphabets again).
type word struct {
	start, end int32
	// rules has a bit for each language its alphabets point to
	// (ruleLanguage; languageByRules).
	rules uint16
	// mixed: not all its characters are in its first one's alphabet
	// (languagesByFilter).
	mixed bool
}

// ruleBits is 1 << ruleLanguage[a], or 0 where a points to no language.
var ruleBits = func() (bits [numAlphabets]uint16) {
	for a, l := range ruleLanguage {
		if l >= 0 {
			bits[a] = 1 << l
		}
	}
	return bits
}()

// text is a text read for lingua-go's steps: its runes lowered, each
// one's alphabet, and its words.
type text struct {
	runes   []rune
	scripts []alphabet
	words   []word
	// letters counts the letters of the text as read, before lowering
	// (unicode.IsLetter, invalid UTF-8 as U+FFFD: transforms.Letters).
	letters int
}

// split lowers s and splits it into words as lingua-go does
// (strings.ToLower, then the regular expression
// \p{Han}|\p{Hangul}|\p{Hiragana}|\p{Katakana}|\p{L}+: a Han, Hangul or
// kana character alone, else a run of letters, which may hold Han). Invalid
// UTF-8 lowers to U+FFFD, not a letter. It reuses t's slices.
func (t *text) split(s string) {
	// The slices are worked on in locals, written by index (a character
	// is at least a byte, so len(s) bounds the runes): appending to t's
	// fields loaded and stored their headers for each character.
	runes := slices.Grow(t.runes[:0], len(s))[:len(s)]
	scripts := slices.Grow(t.scripts[:0], len(s))[:len(s)]
	words := t.words[:0]
	n := 0 // runes[:n] are written
	letters := 0
	inWord := false    // a run of letters is open
	var first alphabet // the open run's first character's
	for i := 0; i < len(s); {
		var r rune
		var kind uint8
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z':
				r, kind = rune(c), uint8(latinScript)|isLetterKind
				letters++
			case 'A' <= c && c <= 'Z':
				r, kind = rune(c+'a'-'A'), uint8(latinScript)|isLetterKind
				letters++
			default:
				inWord = false
				continue
			}
		} else {
			// Two- and three-byte characters are decoded here (not
			// overlong, not a surrogate: as utf8.DecodeRuneInString, whose
			// call for each non-ASCII character was a tenth of the split's
			// samples in langcheck's profile).
			switch {
			case c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80:
				r = rune(c&0x1f)<<6 | rune(s[i+1]&0x3f)
				i += 2
			case c >= 0xe0 && c < 0xf0 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 &&
				(c != 0xe0 || s[i+1] >= 0xa0) && (c != 0xed || s[i+1] < 0xa0):
				r = rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
				i += 3
			default: // four bytes, or not UTF-8 (read as U+FFFD)
				var size int
				r, size = utf8.DecodeRuneInString(s[i:])
				i += size
			}
			if r < 1<<16 {
				info := bmp[r]
				letters += int(info.kind&isLetterKind) >> isLetterShift // r is a letter
				// The lower case's kind is the character's: no character
				// of the plane changes alphabet or letterhood when lowered
				// (TestLoweringKeepsTheKind), so its entry is not read.
				r, kind = info.lower, info.kind
			} else {
				if unicode.IsLetter(r) {
					letters++
				}
				r = unicode.ToLower(r)
				kind = kindOf(r)
			}
		}
		a := alphabet(kind &^ isLetterKind)
		switch {
		case inWord && kind&isLetterKind != 0:
			w := &words[len(words)-1]
			w.end++
			w.rules |= ruleBits[a]
			w.mixed = w.mixed || a != first
		case a == hanScript || a == hangulScript || a == hiraganaScript || a == katakanaScript:
			words = append(words, word{start: int32(n), end: int32(n) + 1, rules: ruleBits[a]})
			inWord = false
		case kind&isLetterKind != 0:
			words = append(words, word{start: int32(n), end: int32(n) + 1, rules: ruleBits[a]})
			inWord, first = true, a
		default:
			inWord = false
			continue
		}
		runes[n], scripts[n] = r, a
		n++
	}
	t.runes, t.scripts, t.words = runes[:n], scripts[:n], words
	t.letters = letters
}

func kindOf(r rune) uint8 {
	kind := uint8(scriptOfSlow(r))
	if unicode.IsLetter(r) {
		kind |= isLetterKind
	}
	return kind
}
