package mathverify

// Normalization steps as they were before issue 19, kept as the oracles
// the linear ones must agree with.

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// refExtractBoxedContent is the old extract_boxed_content: boxes are found from the
// right; in "last" mode an earlier box joins only when it is close to the
// later one (under 10 characters apart, or under 70 with a separator and a
// different content).
func refExtractBoxedContent(text string, mode boxedMode) string {
	rs := []rune(text)
	var results []string
	currentPos := len(rs)
	lastBoxedStart := -1
	maxPos := len(rs)
	for {
		boxedIdx := rfindRunes(rs, []rune(`\boxed`), currentPos)
		fboxIdx := rfindRunes(rs, []rune(`\fbox`), currentPos)
		if boxedIdx < 0 && fboxIdx < 0 {
			break
		}
		startIdx := boxedIdx
		cmdLen := 6
		if fboxIdx > boxedIdx {
			startIdx, cmdLen = fboxIdx, 5
		}
		next := startIdx + cmdLen
		for next < maxPos && unicode.IsSpace(rs[next]) {
			next++
		}
		if next >= maxPos {
			break
		}
		if rs[next] != '{' {
			if len(results) == 0 {
				results = append(results, string(rs[next:]))
			}
			break
		}
		end := -1
		depth := 1
		for i := next; i+1 < maxPos; {
			i++
			if rs[i] == '{' {
				depth++
			} else if rs[i] == '}' {
				depth--
				if depth == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			if len(results) == 0 {
				results = append(results, string(rs[next:]))
			}
			break
		}
		content := strings.TrimFunc(string(rs[next+1:end]), unicode.IsSpace)
		if mode == boxedLast && lastBoxedStart >= 0 {
			prev := ""
			if len(results) > 0 {
				prev = results[len(results)-1]
			}
			between := rs[end+1 : lastBoxedStart]
			ok := len(between) < 10 ||
				(prev != content && len(between) < 70 && hasBoxSeparator(string(between)))
			if !ok {
				break
			}
		}
		if len(results) == 0 || results[len(results)-1] != content {
			results = append(results, content)
		}
		lastBoxedStart = startIdx
		maxPos = startIdx
		currentPos = startIdx
	}
	if len(results) == 0 {
		return text
	}
	for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
		results[i], results[j] = results[j], results[i]
	}
	return strings.Join(results, ",")
}

// refRemoveTrailingUnit is the old one re.sub of units_regex: the leftmost digit,
// closing brace or space followed by a unit word at the very end keeps
// only that character.
func refRemoveTrailingUnit(text string) string {
	rs := []rune(text)
	for p := 0; p < len(rs); p++ {
		c := rs[p]
		if !(isDigitU(c) || c == '}' || isSpaceU(c)) {
			continue
		}
		for q := p + 1; ; q++ {
			rest := strings.TrimRightFunc(string(rs[q:]), isSpaceU)
			if trailingUnits().set[rest] {
				return string(rs[:p+1])
			}
			if q >= len(rs) || !isSpaceU(rs[q]) {
				break
			}
		}
	}
	return text
}

var normalizeTokens = []string{`\boxed`, `\boxed{`, `\fbox`, `\fbox {`, "{", "}", " ", "  ", "\n", ",", ";", " and ", " or ", "1", "23", "x",
	"feet", " m east", "m", "cm", "sq . m", "es", "s", "°", "f", ".", "}", "\t"}

// The linear box reader and unit remover give what the old ones gave, on
// the graders' test cases, their boxes, and random texts of boxes, units
// and spaces.
func TestNormalizationAsBefore(t *testing.T) {
	texts := corpusTexts(t)
	rng := rand.New(rand.NewPCG(19, 21))
	for range 30000 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			b.WriteString(normalizeTokens[rng.IntN(len(normalizeTokens))])
		}
		texts = append(texts, b.String())
	}
	removed := 0
	for _, text := range texts {
		for _, mode := range []boxedMode{boxedAll, boxedLast} {
			if got, want := extractBoxedContent(text, mode), refExtractBoxedContent(text, mode); got != want {
				t.Fatalf("extractBoxedContent(%q, %v) = %q, before %q", text, mode, got, want)
			}
		}
		got, want := removeTrailingUnit(text), refRemoveTrailingUnit(text)
		if got != want {
			t.Fatalf("removeTrailingUnit(%q) = %q, before %q", text, got, want)
		}
		if got != text {
			removed++
		}
	}
	if removed < 1000 {
		t.Fatalf("only %d of %d texts lost a unit: the corpus does not exercise the remover", removed, len(texts))
	}
}

// rfindRunes is rs.rfind(sub, 0, end): the old box reader's search, one
// command at a time.
func rfindRunes(rs, sub []rune, end int) int {
	first := sub[0]
	for i := end - len(sub); i >= 0; i-- {
		if rs[i] == first && runesAt(rs, i, sub) {
			counted(end - len(sub) - i + 1)
			return i
		}
	}
	counted(max(0, end-len(sub)+1))
	return -1
}

func FuzzExtractBoxedContentAsBefore(f *testing.F) {
	for _, s := range []string{`\boxed{1}`, `\fbox{2} and \boxed {3}`, `x\boxed{\fbox{4}}`, `\boxe\fbox{5}`, `\boxed`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, mode := range []boxedMode{boxedAll, boxedLast} {
			if got, want := extractBoxedContent(text, mode), refExtractBoxedContent(text, mode); got != want {
				t.Fatalf("extractBoxedContent(%q, %v) = %q, before %q", text, mode, got, want)
			}
		}
	})
}
