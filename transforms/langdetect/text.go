package langdetect

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Text preparation, as Detector.append and Detector.cleaning_text do it:
// URLs and e-mail addresses become spaces, Vietnamese is composed, the
// text is cut to its first maxTextLength characters with runs of spaces
// collapsed, and a text mostly in a non-Latin script loses its Latin
// letters.

// urlMaxRun and the mail limits are the repetition bounds of langdetect's
// URL_RE (https?://[-_.?&~;+=/#0-9A-Za-z]{1,2076}) and MAIL_RE
// ([-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}).
const (
	urlMaxRun   = 2076
	mailMaxUser = 64
	mailMaxPart = 255
)

func isURLChar(r rune) bool {
	switch r {
	case '-', '_', '.', '?', '&', '~', ';', '+', '=', '/', '#':
		return true
	}
	return isAlnum(r)
}

func isAlnum(r rune) bool {
	return '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z'
}

// isMailChar is [-_.0-9A-Za-z]; isHostChar the same without the dot.
func isMailChar(r rune) bool { return r == '.' || isHostChar(r) }
func isHostChar(r rune) bool { return r == '-' || r == '_' || isAlnum(r) }

// spaceOut replaces each leftmost match in text with a space. match looks
// for one at p and returns it as text[start:end] (start at p or after the
// previous match); without one, it returns ok false and end where the scan
// goes on.
func spaceOut(text []rune, match func(p int) (start, end int, ok bool)) []rune {
	var out []rune
	last := 0 // text[last:] is not copied yet
	for p := 0; p < len(text); {
		start, end, ok := match(p)
		if ok {
			out = append(append(out, text[last:start]...), ' ')
			last = end
		}
		p = end
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}

// removeURLs replaces each leftmost URL_RE match with a space.
func removeURLs(text []rune) []rune {
	return spaceOut(text, func(p int) (start, end int, ok bool) {
		if p+8 > len(text) {
			return 0, len(text), false
		}
		if text[p] != 'h' || text[p+1] != 't' || text[p+2] != 't' || text[p+3] != 'p' {
			return 0, p + 1, false
		}
		q := p + 4
		if text[q] == 's' {
			q++
		}
		if q+3 > len(text) || text[q] != ':' || text[q+1] != '/' || text[q+2] != '/' {
			return 0, p + 1, false
		}
		q += 3
		end = q
		for end < len(text) && end-q < urlMaxRun && isURLChar(text[end]) {
			end++
		}
		if end == q {
			return 0, p + 1, false
		}
		return p, end, true
	})
}

// removeMails replaces each leftmost MAIL_RE match with a space. A match's
// user part is the run of mail characters right before an '@' (at most 64
// of them, so it starts at most 64 before); the host part takes as many
// characters as the greedy groups do, backing off one when the last group
// would be empty.
func removeMails(text []rune) []rune {
	return spaceOut(text, func(p int) (start, end int, ok bool) {
		if !isMailChar(text[p]) {
			return 0, p + 1, false
		}
		at := p
		for at < len(text) && isMailChar(text[at]) {
			at++
		}
		// No match starts in text[p:at] unless '@' follows the run.
		end, ok = 0, at < len(text) && text[at] == '@'
		if ok {
			end, ok = mailHostEnd(text, at+1)
		}
		if !ok {
			return 0, at + 1, false
		}
		return max(p, at-mailMaxUser), end, true
	})
}

// mailHostEnd matches [-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255} at from.
func mailHostEnd(text []rune, from int) (end int, ok bool) {
	b := from
	for b < len(text) && b-from < mailMaxPart && isHostChar(text[b]) {
		b++
	}
	if b == from {
		return 0, false
	}
	a := b
	for a < len(text) && a-b < mailMaxPart && isMailChar(text[a]) {
		a++
	}
	if a > b {
		return a, true
	}
	// The second group takes the host part's last character.
	if b-from >= 2 {
		return b, true
	}
	return 0, false
}

// prepareMargin bounds how far back the end of a text can change what
// the URL, mail and Vietnamese passes make of it: a URL match reads at
// most 8 + urlMaxRun characters ahead of where it starts, a mail match
// starts at most mailMaxUser characters before its '@' and ends at most
// 2 * mailMaxPart + 1 after it (the run before the '@' is read to its end,
// but only its last mailMaxUser characters can be replaced), and a
// Vietnamese vowel composes with the next character. Rounded up.
const prepareMargin = 4096

// prepare turns a text into the characters langdetect extracts n-grams
// from: the first maxTextLength characters once URLs and mail addresses
// are spaced out and Vietnamese composed.
//
// Only a prefix of the text is read: the passes are run on the first
// maxTextLength + prepareMargin characters, and on twice as many while
// what they leave is shorter than that. Each pass reads left to right
// and looks at most its part of prepareMargin ahead, and leaves at most
// one character for each it reads, so once the prefix's result holds
// maxTextLength + prepareMargin characters, its first maxTextLength are
// those of the whole text's (prepareWhole in the tests checks this).
func (m *model) prepare(text string, maxTextLength int) []rune {
	return m.prepareInto(nil, text, maxTextLength)
}

// prepareInto is prepare, the result in buf's array when it fits.
//
// Most texts hold nothing the passes replace: they are then skipped, and
// the characters kept are decoded from the text straight into buf.
func (m *model) prepareInto(buf []rune, text string, maxTextLength int) []rune {
	if !m.mayReplace(text, maxTextLength+prepareMargin) {
		return appendFirstChars(buf, text, maxTextLength)
	}
	for k := maxTextLength + prepareMargin; ; k *= 2 {
		head, whole := runePrefix(text, k)
		runes := m.spaceOutAndCompose([]rune(head))
		if whole || len(runes) >= maxTextLength+prepareMargin {
			return cleanLatin(appendFirstRunes(buf[:0], runes, maxTextLength))
		}
	}
}

// mayReplace reports whether the passes could change the text's first k
// characters: it is false when their bytes (within the first
// utf8.UTFMax * k) hold no '@' (every mail address has one), no "://"
// (every URL) and no first byte of a Vietnamese mark's encoding. The
// passes then leave those characters as they are, and prepare keeps the
// first maxTextLength of them.
func (m *model) mayReplace(text string, k int) bool {
	window := text
	if k < len(text)/utf8.UTFMax {
		window = text[:utf8.UTFMax*k]
	}
	if strings.IndexByte(window, '@') >= 0 || strings.Contains(window, "://") {
		return true
	}
	for _, lead := range m.norm.viMarkLeads {
		if strings.IndexByte(window, lead) >= 0 {
			return true
		}
	}
	return false
}

// runePrefix is text's first n characters, and whether that is all of it.
func runePrefix(text string, n int) (string, bool) {
	if len(text) <= n { // n characters hold at least n bytes
		return text, true
	}
	for i := range text {
		if n == 0 {
			return text[:i], false
		}
		n--
	}
	return text, true
}

// spaceOutAndCompose replaces URLs and mail addresses with a space and
// composes Vietnamese.
func (m *model) spaceOutAndCompose(runes []rune) []rune {
	runes = removeURLs(runes)
	runes = removeMails(runes)
	return m.norm.normalizeVietnamese(runes)
}

// appendFirstRunes is append(): the first maxTextLength characters, a
// space after a space dropped, appended to kept; cleaning_text follows.
func appendFirstRunes(kept, runes []rune, maxTextLength int) []rune {
	var pre rune = -1
	for _, ch := range runes[:min(len(runes), maxTextLength)] {
		if ch != ' ' || pre != ' ' {
			kept = append(kept, ch)
		}
		pre = ch
	}
	return kept
}

// gramsOf is the grams of text as prepared (prepareInto, then extract),
// in s's buffers. When the passes that replace would change nothing
// (mayReplace), the text is read once: its characters kept go straight to
// their charInfo, not through a slice of runes (firstInfos).
func (m *model) gramsOf(s *scratch, text string, maxTextLength int) []int32 {
	if m.mayReplace(text, maxTextLength+prepareMargin) {
		s.prepared = m.prepareInto(s.prepared, text, maxTextLength)
		return m.grams.extract(s.prepared, s.grams[:0], &s.memo)
	}
	s.memo.infos = m.grams.firstInfos(s.memo.infos, text, maxTextLength)
	return m.grams.extractInfos(s.memo.infos, s.grams[:0], &s.memo)
}

// firstInfos is appendFirstChars with each character kept as its
// charInfo (into kept's array when it fits): the Latin ones marked
// charLatin as they are read, and removed at the end when cleaning_text
// drops them; a character's charInfo does not depend on its neighbours,
// so extraction then reads what it would from appendFirstChars' runes.
func (t *gramTable) firstInfos(kept []charInfo, text string, maxTextLength int) []charInfo {
	bmp := t.bmp
	size := min(len(text), maxTextLength)
	kept = slices.Grow(kept[:0], size)[:size]
	k := 0
	pre := -1 // the previous character, when it is ASCII
	latin, nonLatin := 0, 0
	for i, n := 0, 0; i < len(text) && n < maxTextLength; n++ {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			isLatin := (uint32(c-'A') - ('z' - 'A' + 1)) >> 31 // see appendFirstChars
			latin += int(isLatin)
			if c != ' ' || pre != ' ' {
				kept[k] = bmp[c] | charInfo(isLatin)*charLatin
				k++
			}
			pre = int(c)
			continue
		}
		var ch rune
		switch {
		case c >= 0xc2 && c < 0xe0 && i+1 < len(text) && text[i+1]&0xc0 == 0x80:
			ch = rune(c&0x1f)<<6 | rune(text[i+1]&0x3f)
			i += 2
		case c >= 0xe0 && c < 0xf0 && i+2 < len(text) && text[i+1]&0xc0 == 0x80 && text[i+2]&0xc0 == 0x80 &&
			(c != 0xe0 || text[i+1] >= 0xa0) && (c != 0xed || text[i+1] < 0xa0): // not overlong, not a surrogate
			ch = rune(c&0x0f)<<12 | rune(text[i+1]&0x3f)<<6 | rune(text[i+2]&0x3f)
			i += 3
		default: // four bytes, or not UTF-8
			var w int
			ch, w = utf8.DecodeRuneInString(text[i:])
			i += w
		}
		if countsAsNonLatin(ch) {
			nonLatin++
		}
		if uint32(ch) < bmpSize {
			kept[k] = bmp[ch]
		} else {
			kept[k] = t.charInfoOf(ch)
		}
		k++
		pre = -1 // not a space
	}
	kept = kept[:k]
	if latin*2 >= nonLatin {
		return kept
	}
	out := kept[:0]
	for _, info := range kept {
		if info&charLatin == 0 {
			out = append(out, info)
		}
	}
	return out
}

// appendFirstChars is cleanLatin(appendFirstRunes(kept, []rune(text),
// maxTextLength)) in one pass over the string (an invalid byte reads as
// U+FFFD, as in []rune(text)): the characters are decoded in place, two-
// and three-byte ones without a call, and counted for cleaning_text as
// they are kept (spaces count as neither Latin nor not, so dropping one
// changes no count).
func appendFirstChars(kept []rune, text string, maxTextLength int) []rune {
	size := min(len(text), maxTextLength)
	kept = slices.Grow(kept[:0], size)[:size]
	k := 0
	var pre rune = -1
	latin, nonLatin := 0, 0
	for i, n := 0, 0; i < len(text) && n < maxTextLength; n++ {
		c := text[i]
		if c < utf8.RuneSelf { // most characters of most traces
			i++
			// 'A' <= c && c <= 'z' counted without a branch (on text
			// mixing scripts it mispredicts): c-'A', wrapped to a byte, is
			// below the range's size exactly for the range's characters,
			// and then subtracting the size sets the top bit.
			latin += int((uint32(c-'A') - ('z' - 'A' + 1)) >> 31)
			if c != ' ' || pre != ' ' {
				kept[k] = rune(c)
				k++
			}
			pre = rune(c)
			continue
		}
		// Decoded as a range loop does (an invalid byte is U+FFFD): two-
		// and three-byte characters here.
		var ch rune
		switch {
		case c >= 0xc2 && c < 0xe0 && i+1 < len(text) && text[i+1]&0xc0 == 0x80:
			ch = rune(c&0x1f)<<6 | rune(text[i+1]&0x3f)
			i += 2
		case c >= 0xe0 && c < 0xf0 && i+2 < len(text) && text[i+1]&0xc0 == 0x80 && text[i+2]&0xc0 == 0x80 &&
			(c != 0xe0 || text[i+1] >= 0xa0) && (c != 0xed || text[i+1] < 0xa0): // not overlong, not a surrogate
			ch = rune(c&0x0f)<<12 | rune(text[i+1]&0x3f)<<6 | rune(text[i+2]&0x3f)
			i += 3
		default: // four bytes, or not UTF-8
			var w int
			ch, w = utf8.DecodeRuneInString(text[i:])
			i += w
		}
		if countsAsNonLatin(ch) {
			nonLatin++
		}
		kept[k] = ch // not a space
		k++
		pre = ch
	}
	kept = kept[:k]
	if latin*2 >= nonLatin {
		return kept
	}
	return dropLatin(kept)
}

// cleanLatin is cleaning_text: a text with more than twice as many
// non-Latin characters (U+0300 and above, Latin Extended Additional
// aside) as Latin ones ('A' to 'z') loses its Latin ones.
func cleanLatin(text []rune) []rune {
	latin, nonLatin := 0, 0
	for _, ch := range text {
		switch {
		case 'A' <= ch && ch <= 'z':
			latin++
		case countsAsNonLatin(ch):
			nonLatin++
		}
	}
	if latin*2 >= nonLatin {
		return text
	}
	return dropLatin(text)
}

// dropLatin removes the Latin characters ('A' to 'z') of text, in place.
func dropLatin(text []rune) []rune {
	out := text[:0]
	for _, ch := range text {
		if ch < 'A' || 'z' < ch {
			out = append(out, ch)
		}
	}
	return out
}

// countsAsNonLatin is a character cleanLatin counts as not Latin (U+0300
// and above, Latin Extended Additional aside); appendFirstChars counts
// them the same way, so its shortcut decides as cleanLatin would.
func countsAsNonLatin(ch rune) bool { return ch >= 0x300 && !(0x1E00 <= ch && ch <= 0x1EFF) }
