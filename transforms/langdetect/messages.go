package langdetect

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// messages.properties is langdetect's table of normalization classes (the
// Kanji classes and the Vietnamese composition tables), as Debian's
// python3-langdetect 1.0.9 ships it in langdetect/utils/.
//
//go:embed messages.properties
var messagesFile []byte

// readMessages parses the properties file as langdetect's Messages does:
// key=value lines, \uXXXX escapes decoded; the keys keep their file order.
func readMessages(data []byte) (keys []string, values map[string][]rune, err error) {
	values = map[string][]rune{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		key, value, _ := strings.Cut(text, "=")
		decoded, err := unescape(value)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: messages.properties line %d: %v", ErrBadProfile, line, err)
		}
		if _, seen := values[key]; !seen {
			keys = append(keys, key)
		}
		values[key] = decoded
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: messages.properties: %v", ErrBadProfile, err)
	}
	return keys, values, nil
}

// unescape decodes \uXXXX escapes; other characters stand for themselves.
func unescape(s string) ([]rune, error) {
	var out []rune
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], `\u`) {
			if i+6 > len(s) {
				return nil, fmt.Errorf("truncated escape %q", s[i:])
			}
			v, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
			if err != nil {
				return nil, fmt.Errorf("bad escape %q", s[i:i+6])
			}
			out = append(out, rune(v))
			i += 6
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, r)
		i += size
	}
	return out, nil
}

// normalization is NGram's character tables.
type normalization struct {
	latin1Excluded map[rune]bool
	cjk            map[rune]rune // a Kanji to its class's first character
	viBase         []rune        // TO_NORMALIZE_VI_CHARS
	viMark         []rune        // DMARK_CLASS
	viMarkLeads    []byte        // the first bytes of the marks' UTF-8
	viComposed     [][]rune      // NORMALIZED_VI_CHARS_<mark>: [mark][base]
}

func newNormalization() (*normalization, error) {
	keys, values, err := readMessages(messagesFile)
	if err != nil {
		return nil, err
	}
	get := func(key string) ([]rune, error) {
		v, ok := values[key]
		if !ok {
			return nil, fmt.Errorf("%w: messages.properties has no %s", ErrBadProfile, key)
		}
		return v, nil
	}
	n := &normalization{latin1Excluded: map[rune]bool{}, cjk: map[rune]rune{}}
	excluded, err := get("NGram.LATIN1_EXCLUDE")
	if err != nil {
		return nil, err
	}
	for _, r := range excluded {
		n.latin1Excluded[r] = true
	}
	// The Kanji classes in file order (NGram.CJK_CLASS lists them so); a
	// character of two classes would map to the later one's.
	for _, k := range keys {
		if !strings.HasPrefix(k, "NGram.KANJI_") {
			continue
		}
		class := values[k]
		if len(class) == 0 {
			continue
		}
		for _, r := range class {
			n.cjk[r] = class[0]
		}
	}
	if n.viBase, err = get("TO_NORMALIZE_VI_CHARS"); err != nil {
		return nil, err
	}
	if n.viMark, err = get("DMARK_CLASS"); err != nil {
		return nil, err
	}
	for _, mark := range []string{"0300", "0301", "0303", "0309", "0323"} {
		composed, err := get("NORMALIZED_VI_CHARS_" + mark)
		if err != nil {
			return nil, err
		}
		if len(composed) != len(n.viBase) {
			return nil, fmt.Errorf("%w: NORMALIZED_VI_CHARS_%s has %d characters for %d bases", ErrBadProfile, mark, len(composed), len(n.viBase))
		}
		n.viComposed = append(n.viComposed, composed)
	}
	for _, r := range n.viMark {
		lead := string(r)[0]
		if !slices.Contains(n.viMarkLeads, lead) {
			n.viMarkLeads = append(n.viMarkLeads, lead)
		}
	}
	if len(n.viComposed) != len(n.viMark) {
		return nil, fmt.Errorf("%w: %d Vietnamese marks, %d composition tables", ErrBadProfile, len(n.viMark), len(n.viComposed))
	}
	return n, nil
}

// normalizeRune is NGram.normalize: the character a profile n-gram holds
// for ch (a space for what langdetect ignores).
func (n *normalization) normalizeRune(ch rune) rune {
	switch {
	case ch <= 0x7F: // Basic Latin: letters only
		if ch < 'A' || ('Z' < ch && ch < 'a') || 'z' < ch {
			return ' '
		}
	case ch <= 0xFF: // Latin-1 Supplement
		if n.latin1Excluded[ch] {
			return ' '
		}
	case 0x180 <= ch && ch <= 0x24F: // Latin Extended-B: Romanian comma below -> cedilla
		switch ch {
		case 0x219:
			return 0x15F
		case 0x21B:
			return 0x163
		}
	case 0x2000 <= ch && ch <= 0x206F: // General Punctuation
		return ' '
	case 0x600 <= ch && ch <= 0x6FF: // Arabic: Farsi yeh -> Arabic yeh
		if ch == 0x6CC {
			return 0x64A
		}
	case 0x1E00 <= ch && ch <= 0x1EFF: // Latin Extended Additional
		if ch >= 0x1EA0 {
			return 0x1EC3
		}
	case 0x3040 <= ch && ch <= 0x309F: // Hiragana
		return 0x3042
	case 0x30A0 <= ch && ch <= 0x30FF: // Katakana
		return 0x30A2
	case 0x3100 <= ch && ch <= 0x312F, 0x31A0 <= ch && ch <= 0x31BF: // Bopomofo (Extended)
		return 0x3105
	case 0x4E00 <= ch && ch <= 0x9FFF: // CJK Unified Ideographs
		if r, ok := n.cjk[ch]; ok {
			return r
		}
	case 0xAC00 <= ch && ch <= 0xD7AF: // Hangul Syllables
		return 0xAC00
	}
	return ch
}

// normalizeVietnamese is NGram.normalize_vi: a vowel followed by a
// combining tone mark becomes the precomposed letter.
func (n *normalization) normalizeVietnamese(text []rune) []rune {
	if !containsAny(text, n.viMark) {
		return text
	}
	out := make([]rune, 0, len(text))
	for i := 0; i < len(text); i++ {
		if i+1 < len(text) {
			if b := index(n.viBase, text[i]); b >= 0 {
				if m := index(n.viMark, text[i+1]); m >= 0 {
					out = append(out, n.viComposed[m][b])
					i++
					continue
				}
			}
		}
		out = append(out, text[i])
	}
	return out
}

func index(set []rune, r rune) int {
	for i, s := range set {
		if s == r {
			return i
		}
	}
	return -1
}

func containsAny(text, set []rune) bool {
	lo, hi := slices.Min(set), slices.Max(set)
	for _, r := range text {
		if lo <= r && r <= hi && index(set, r) >= 0 {
			return true
		}
	}
	return false
}
