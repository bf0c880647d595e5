package mathverify

import (
	"strings"
	"unicode/utf8"
)

// Cheap necessary conditions of normalization's substitutions: a text
// that fails one has no match of that substitution's pattern, so the
// substitution would return it unchanged and is not run. Running one
// means converting the text to runes and trying the pattern's program at
// every position a match can begin; on a short answer ("140,892") that
// was most of normalizing it, for nothing.
// TestNormalizationGuardsAreNecessary checks each against its pattern.

// skipDoomedSubs turns the guards on; tests turn it off to compare
// normalization with and without them.
var skipDoomedSubs = true

// mayMatchSizedDelim: \left or \mleft (\right, \mright) before a delimiter.
func mayMatchLeft(text string) bool  { return strings.Contains(text, "left") }
func mayMatchRight(text string) bool { return strings.Contains(text, "right") }

// mayMatchPermutation: (a)_{b}.
func mayMatchPermutation(text string) bool { return strings.Contains(text, ")_{") }

// mayMatchToRemove: \mathrm{th}, \!, \text{ }, \$ or $, a quote, \displaystyle.
func mayMatchToRemove(text string) bool {
	return strings.ContainsAny(text, "$\"'") || strings.Contains(text, `\!`) ||
		strings.Contains(text, `\mathrm{th}`) || strings.Contains(text, `\text`) || strings.Contains(text, `\displaystyle`)
}

// mayMatchReplace is one of replace_in_latex's alternatives (buildReplace,
// in order): \math.., \text.., \dfrac \tfrac \cfrac, a space before ".",
// "{.", "~=", "{" and "," (\s*{\s*,\s*}), "and" or "or", \text{ (and,
// or, percent...), a backslash before a space, "inf" (infinity, inf),
// \ldots, "percent" or "pct" (percentage too), " sqrt".
func mayMatchReplace(text string) bool {
	for _, s := range replaceNeeds {
		if strings.Contains(text, s) {
			return true
		}
	}
	if strings.Contains(text, "{") && strings.Contains(text, ",") {
		return true
	}
	// A space rune before "." or after a backslash (decoded as []rune
	// decodes: an invalid byte is U+FFFD, not a space).
	prev := utf8.RuneError
	for _, r := range text {
		if (r == '.' && isSpaceU(prev)) || (prev == '\\' && isSpaceU(r)) {
			return true
		}
		prev = r
	}
	return false
}

var replaceNeeds = []string{`\math`, `\text`, `\dfrac`, `\tfrac`, `\cfrac`, "{.", "~=", "and", "or", "inf", `\ldots`, "percent", "pct", " sqrt"}

// mayMatchUnitSup: \text{...} or \mbox{...} at the end.
func mayMatchUnitSup(text string) bool {
	return strings.Contains(text, `\text{`) || strings.Contains(text, `\mbox{`)
}

// subIf is sub where may is a necessary condition of a match in text.
func subIf(may func(string) bool, p *pattern, text string, repl func(rs []rune, s span) string) string {
	if skipDoomedSubs && !may(text) {
		return text
	}
	return sub(p, text, repl)
}
