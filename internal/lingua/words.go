package lingua

import (
	"unicode"
	"unicode/utf8"
)

// word is one of the text's words: runes[start:end] of the lowered text.
type word struct{ start, end int32 }

// splitWords lowers text and splits it into words as lingua-go does
// (strings.ToLower, then the regular expression
// \p{Han}|\p{Hangul}|\p{Hiragana}|\p{Katakana}|\p{L}+: a Han, Hangul or
// kana character alone, else a run of letters, which may hold Han). Invalid
// UTF-8 lowers to U+FFFD, not a letter. It appends the lowered runes to
// runes and the words to words.
func splitWords(text string, runes []rune, words []word) ([]rune, []word) {
	base := len(runes)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			runes = append(runes, rune(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		runes = append(runes, unicode.ToLower(r))
		i += size
	}
	for i := base; i < len(runes); {
		r := runes[i]
		if isSingleCharacterWord(r) {
			words = append(words, word{int32(i), int32(i + 1)})
			i++
			continue
		}
		if !isLetter(r) {
			i++
			continue
		}
		j := i + 1
		for j < len(runes) && isLetter(runes[j]) {
			j++
		}
		words = append(words, word{int32(i), int32(j)})
		i = j
	}
	return runes, words
}

// isSingleCharacterWord tells a character lingua-go takes as a word alone.
func isSingleCharacterWord(r rune) bool {
	if r < utf8.RuneSelf {
		return false
	}
	switch scriptOf(r) {
	case hanScript, hangulScript, hiraganaScript, katakanaScript:
		return true
	}
	return false
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}
