package lingua

import (
	"sync"
	"unicode"
)

// The study's languages, in the paper's order; a language is its index.
var codes = [numLanguages]string{"en", "fr", "ru", "zh", "ja", "ko", "id", "ms", "th", "bn", "sw", "te"}

const (
	english = iota
	french
	russian
	chinese
	japanese
	korean
	indonesian
	malay
	thai
	bengali
	swahili
	telugu
	numLanguages
)

// unknown is lingua-go's Unknown where rules count it like a language.
const unknown = numLanguages

// allLanguages is the set of every language, one bit per language.
const allLanguages = 1<<numLanguages - 1

// alphabet is one of lingua-go's alphabets (scripts), in lingua-go's order:
// a word belongs to the first whose script holds all its letters.
type alphabet uint8

const (
	noAlphabet alphabet = iota
	arabicScript
	armenianScript
	bengaliScript
	cyrillicScript
	devanagariScript
	georgianScript
	greekScript
	gujaratiScript
	gurmukhiScript
	hanScript
	hangulScript
	hebrewScript
	hiraganaScript
	katakanaScript
	latinScript
	tamilScript
	teluguScript
	thaiScript
	numAlphabets
)

// scriptTables are the Unicode scripts of the alphabets, indexed by alphabet.
var scriptTables = [numAlphabets]*unicode.RangeTable{
	nil, unicode.Arabic, unicode.Armenian, unicode.Bengali, unicode.Cyrillic, unicode.Devanagari,
	unicode.Georgian, unicode.Greek, unicode.Gujarati, unicode.Gurmukhi, unicode.Han, unicode.Hangul,
	unicode.Hebrew, unicode.Hiragana, unicode.Katakana, unicode.Latin, unicode.Tamil, unicode.Telugu, unicode.Thai,
}

// alphabetLanguages are the languages written in each alphabet (lingua-go's
// Language.alphabets, restricted to the study's languages).
var alphabetLanguages = [numAlphabets]uint16{
	bengaliScript:  1 << bengali,
	cyrillicScript: 1 << russian,
	hanScript:      1<<chinese | 1<<japanese,
	hangulScript:   1 << korean,
	hiraganaScript: 1 << japanese,
	katakanaScript: 1 << japanese,
	latinScript:    1<<english | 1<<french | 1<<indonesian | 1<<malay | 1<<swahili,
	teluguScript:   1 << telugu,
	thaiScript:     1 << thai,
}

// ruleLanguage is the language a letter counts for in lingua-go's rules:
// the one language (of all lingua-go's) of a script only it uses, or
// Chinese for Han. None of the study's languages has lingua-go's "unique
// characters" (letters of a shared script only one language uses).
var ruleLanguage = [numAlphabets]int8{
	noAlphabet: -1, arabicScript: -1, armenianScript: -1, bengaliScript: bengali, cyrillicScript: -1,
	devanagariScript: -1, georgianScript: -1, greekScript: -1, gujaratiScript: -1, gurmukhiScript: -1,
	hanScript: chinese, hangulScript: korean, hebrewScript: -1, hiraganaScript: japanese,
	katakanaScript: japanese, latinScript: -1, tamilScript: -1, teluguScript: telugu, thaiScript: thai,
}

// runeInfo is what lingua-go's steps ask of a code point: its alphabet
// (low 5 bits), whether it is a letter, and its lower case.
type runeInfo struct {
	lower rune
	kind  uint8
}

const (
	isLetterShift       = 5
	isLetterKind  uint8 = 1 << isLetterShift
)

// bmp holds runeInfo for the Basic Multilingual Plane, built once from the
// unicode package's tables (Unicode scripts do not overlap).
var (
	bmpOnce sync.Once
	bmp     *[1 << 16]runeInfo
)

func buildBMP() {
	var t [1 << 16]runeInfo
	for r := range rune(1 << 16) {
		t[r].lower = unicode.ToLower(r)
	}
	mark := func(table *unicode.RangeTable, kind uint8) {
		for _, rg := range table.R16 {
			for c := uint32(rg.Lo); c <= uint32(rg.Hi); c += uint32(rg.Stride) {
				t[c].kind |= kind
			}
		}
	}
	for a := alphabet(1); a < numAlphabets; a++ {
		mark(scriptTables[a], uint8(a))
	}
	mark(unicode.Letter, isLetterKind)
	bmp = &t
}

// scriptOf is the alphabet of r, or noAlphabet.
func scriptOf(r rune) alphabet {
	if uint32(r) < 1<<16 {
		return alphabet(bmp[r].kind &^ isLetterKind)
	}
	return scriptOfSlow(r)
}

func scriptOfSlow(r rune) alphabet {
	for a := alphabet(1); a < numAlphabets; a++ {
		if unicode.Is(scriptTables[a], r) {
			return a
		}
	}
	return noAlphabet
}
