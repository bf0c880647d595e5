package lingua

import (
	"unicode"
	"unicode/utf8"
)

// word is one of the text's words: runes[start:end] of the lowered text.
type word struct{ start, end int32 }

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
	t.runes, t.scripts, t.words = t.runes[:0], t.scripts[:0], t.words[:0]
	letters := 0
	inWord := false // a run of letters is open
	for i := 0; i < len(s); {
		var r rune
		var kind uint8
		if c := s[i]; c < utf8.RuneSelf {
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
			var size int
			r, size = utf8.DecodeRuneInString(s[i:])
			i += size
			if r < 1<<16 {
				info := bmp[r]
				letters += int(info.kind&isLetterKind) >> isLetterShift // r is a letter
				r = info.lower
				if r < 1<<16 {
					kind = bmp[r].kind
				} else {
					kind = kindOf(r)
				}
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
			t.words[len(t.words)-1].end++
		case a == hanScript || a == hangulScript || a == hiraganaScript || a == katakanaScript:
			n := int32(len(t.runes))
			t.words = append(t.words, word{n, n + 1})
			inWord = false
		case kind&isLetterKind != 0:
			n := int32(len(t.runes))
			t.words = append(t.words, word{n, n + 1})
			inWord = true
		default:
			inWord = false
			continue
		}
		t.runes, t.scripts = append(t.runes, r), append(t.scripts, a)
	}
	t.letters = letters
}

func kindOf(r rune) uint8 {
	kind := uint8(scriptOfSlow(r))
	if unicode.IsLetter(r) {
		kind |= isLetterKind
	}
	return kind
}
