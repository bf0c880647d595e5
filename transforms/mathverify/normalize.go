package mathverify

// normalize_latex of latex2sympy2_extended (math_normalization.py) with the
// configuration Math-Verify's LatexExtractionConfig uses by default:
// basic_latex, units, malformed_operators and nits on, equations off, and
// boxed "all" ("last" for the bare \boxed{...} pattern).

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type boxedMode int

const (
	boxedAll boxedMode = iota
	boxedLast
)

func isPySpace(r rune) bool { return isSpaceU(r) }

// extractBoxedContent is extract_boxed_content: boxes are found from the
// right; in "last" mode an earlier box joins only when it is close to the
// later one (under 10 characters apart, or under 70 with a separator and a
// different content).
func extractBoxedContent(text string, mode boxedMode) string {
	if content, ok := boxedContent([]rune(text), mode); ok {
		return content
	}
	return text
}

// boxedContent is extractBoxedContent of the runes rs, or false where
// that returns its text unchanged.
func boxedContent(rs []rune, mode boxedMode) (string, bool) {
	var results []string
	currentPos := len(rs)
	lastBoxedStart := -1
	maxPos := len(rs)
	for {
		startIdx, cmdLen := lastBoxCommand(rs, currentPos)
		if startIdx < 0 {
			break
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
			counted(1)
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
		return "", false
	}
	for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
		results[i], results[j] = results[j], results[i]
	}
	return strings.Join(results, ","), true
}

// lastBoxCommand is the later of rs.rfind("\\boxed", 0, end) and
// rs.rfind("\\fbox", 0, end), the command's start and length, or -1:
// extract_boxed_content takes the later of its two searches. One search
// back from end for both, which stops at the first it meets: searching
// for each alone read a whole trace back for the \fbox it never holds.
// (The two cannot start at one index.)
func lastBoxCommand(rs []rune, end int) (start, length int) {
	boxed, fbox := []rune(`\boxed`), []rune(`\fbox`)
	for i := min(end, len(rs)) - len(fbox); i >= 0; i-- {
		if rs[i] != '\\' {
			continue
		}
		if runesAt(rs, i, fbox) {
			counted(end - i)
			return i, len(fbox)
		}
		if i+len(boxed) <= end && runesAt(rs, i, boxed) {
			counted(end - i)
			return i, len(boxed)
		}
	}
	counted(end)
	return -1, 0
}

func runesAt(rs []rune, i int, sub []rune) bool {
	if i < 0 || i+len(sub) > len(rs) {
		return false
	}
	for j, r := range sub {
		if rs[i+j] != r {
			return false
		}
	}
	return true
}

// hasBoxSeparator is VALID_SEPARATOR_PATTERN: \b(and|or)\b, a comma or a
// semicolon.
func hasBoxSeparator(s string) bool {
	return strings.ContainsAny(s, ",;") || hasWord([]rune(s), "and") || hasWord([]rune(s), "or")
}

// hasWord reports whether rs holds w as a whole word (\bw\b).
func hasWord(rs []rune, w string) bool {
	wr := []rune(w)
	for i := 0; i+len(wr) <= len(rs); i++ {
		if runesAt(rs, i, wr) && (i == 0 || !isWordU(rs[i-1])) &&
			(i+len(wr) == len(rs) || !isWordU(rs[i+len(wr)])) {
			return true
		}
	}
	return false
}

// sub is Python's re.sub with a function replacement.
func sub(p *pattern, text string, repl func(rs []rune, s span) string) string {
	if p.first != nil && !p.first.anyIn(text) {
		return text // no rune a match begins with
	}
	rs := []rune(text)
	m := newMatcher(rs)
	spans := p.findAll(m)
	m.release()
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(string(rs[last:s.start]))
		b.WriteString(repl(rs, s))
		last = s.end
	}
	b.WriteString(string(rs[last:]))
	return b.String()
}

func literal(s string) func([]rune, span) string {
	return func([]rune, span) string { return s }
}

var (
	leftDelims = []string{`\{`, `{`, `\|`, `|`, `[`, `(`, `\rbracl`, `\lgroup`, `\lbrace`, `\lbrack`,
		`\vert`, `\lvert`, `\lceil`, `\lfloor`, `\vert`, `\lvert`, `\langle`, `\llcorner`, `\ulcorner`}
	rightDelims = []string{`\}`, `}`, `\|`, `|`, `]`, `)`, `\rbrack`, `\rgroup`, `\rbrace`, `\rbrack`,
		`\vert`, `\rvert`, `\rceil`, `\rfloor`, `\vert`, `\rvert`, `\rangle`, `\lrcorner`, `\urcorner`}
	// The patterns normalize substitutes with, compiled on first use (as
	// allPatterns): only the graders need them.
	reLeft        = sync.OnceValue(func() *pattern { return sizedDelim("left", leftDelims) })
	reRight       = sync.OnceValue(func() *pattern { return sizedDelim("right", rightDelims) })
	rePermutation = sync.OnceValue(buildPermutation)
	reToRemove    = sync.OnceValue(buildToRemove)
	reReplace     = sync.OnceValue(buildReplace)
	reUnitSup     = sync.OnceValue(buildUnitSup)
	reMalformed   = sync.OnceValue(buildMalformed)
)

func sizedDelim(word string, delims []string) *pattern {
	b := &patternBuilder{}
	var alts []pnode
	for _, d := range delims {
		alts = append(alts, lit(d))
	}
	root := seq(lit(`\`), opt(lit("m")), lit(word), b.group("d", alt(alts...)))
	return b.build(root, func(rs []rune, i int) bool { return i < len(rs) && rs[i] == 0x5c })
}

func permChars() pnode {
	return cls(func(r rune) bool {
		return isASCIILetter(r) || isASCIIDigit(r) || strings.ContainsRune(`+-*/\ `, r)
	})
}

func buildPermutation() *pattern {
	b := &patternBuilder{}
	root := seq(lit("("), b.group("a", lazyPlus(permChars())), lit(")_{"), b.group("b", lazyPlus(permChars())), lit("}"))
	return b.build(root, nil)
}

func buildToRemove() *pattern {
	b := &patternBuilder{}
	root := alt(
		lit(`\mathrm{th}`),
		seq(lit(`\!`), star(space)),
		seq(lit(`\text`), star(space), lit("{"), star(space), lit("}")),
		lit(`\$`), lit(`$`),
		seq(notBehind(oneOf(`\`)), cls(oneOf(`"'`))),
		lit(`\displaystyle`),
	)
	return b.build(root, nil)
}

// The replacements of replace_in_latex, in their alternation order.
var replaceNames = []string{"math", "text", "frac", "decimal_space", "decimal_brace", "approx", "comma",
	"and_or", "and_or_text", "backslash_space", "infinity", "dot", "percentage", "percent", "pct",
	"percent_in_text", "pct_in_text", "percentage_in_text", "inf", "sqrt"}

var replaceWith = map[string]string{
	"math": `\text`, "text": `\text`, "frac": `\frac`, "decimal_space": " 0.", "decimal_brace": "{0.",
	"approx": `\approx`, "comma": ",", "and_or": ",", "and_or_text": ",", "backslash_space": " ",
	"infinity": `\infty`, "dot": " ", "percentage": "%", "percent": "%", "pct": "%",
	"percent_in_text": "%", "pct_in_text": "%", "percentage_in_text": "%", "inf": `\infty`, "sqrt": `\sqrt`,
}

func buildReplace() *pattern {
	b := &patternBuilder{}
	andOr := alt(lit("and"), lit("or"))
	notLetter := func(r rune) bool { return isASCIILetter(r) }
	word := func(w string) pnode { return seq(star(space), pWordB{}, lit(w), pWordB{}) }
	defs := []pnode{
		seq(lit(`\math`), alt(lit("rm"), lit("it"), lit("bf"))),
		seq(lit(`\text`), alt(lit("normal"), lit("bf"), lit("it"), lit("rm"))),
		seq(lit(`\`), cls(oneOf("dtc")), lit("frac")),
		seq(space, lit(".")),
		lit("{."),
		lit("~="),
		seq(star(space), lit("{"), star(space), lit(","), star(space), lit("}")),
		seq(notBehind(notLetter), opt(lit(",")), star(space), andOr, notAhead(cls(notLetter))),
		seq(opt(lit(",")), star(space), lit(`\text{`), star(space), andOr, star(space), lit("}")),
		seq(notBehind(oneOf(`\`)), lit(`\`), space),
		lit("infinity"),
		seq(opt(lit(",")), lit(`\ldots`)),
		word("percentage"), word("percent"), word("pct"),
		lit(`\text{percent}`), lit(`\text{pct}`), lit(`\text{percentage}`),
		seq(notBehind(oneOf(`\`)), lit("inf"), notAhead(lit("inity"))),
		lit(" sqrt"),
	}
	var alts []pnode
	for i, d := range defs {
		alts = append(alts, b.group(replaceNames[i], d))
	}
	return b.build(alt(alts...), nil)
}

func buildUnitSup() *pattern {
	b := &patternBuilder{}
	root := seq(
		lit(`\`), alt(lit("text"), lit("mbox")), lit("{"), lazyStar(anyDot), lit("}"),
		opt(alt(seq(lit("^"), digit), seq(lit("{^"), digit, lit("}")))),
		pEnd{},
	)
	return b.build(root, nil)
}

// The malformed-operator fixes of _fix_malformed_operators, in order, each
// with its replacement built from the groups a and b.
type malformedFix struct {
	p    *pattern
	need string // every match holds it
	repl func(a, b string) string
}

func buildMalformed() []malformedFix {
	sp := opt(space)
	mk := func(need string, root func(b *patternBuilder) pnode, repl func(a, b string) string) malformedFix {
		b := &patternBuilder{}
		return malformedFix{p: b.build(root(b), nil), need: need, repl: repl}
	}
	return []malformedFix{
		mk("^", func(b *patternBuilder) pnode {
			return seq(lit("^"), sp, lit("("), b.group("a", lazyStar(anyDot)), lit(")"))
		}, func(a, _ string) string { return "^{" + a + "}" }),
		mk("sqrt", func(b *patternBuilder) pnode {
			return seq(lit("sqrt"), sp, lit("("), b.group("a", lazyStar(anyDot)), lit(")"))
		}, func(a, _ string) string { return `\sqrt{` + a + "}" }),
		mk(`\frac`, func(b *patternBuilder) pnode {
			return seq(lit(`\frac`), sp, b.group("a", digit), sp, b.group("b", plus(digit)))
		}, func(a, c string) string { return `\frac{` + a + "}{" + c + "}" }),
		mk(`\log_`, func(b *patternBuilder) pnode {
			return seq(lit(`\log_`), sp, b.group("a", digit), sp, b.group("b", plus(digit)))
		}, func(a, c string) string { return `\log_{` + a + "}{" + c + "}" }),
		mk(`\frac`, func(b *patternBuilder) pnode {
			return seq(lit(`\frac`), sp, lit("{"), b.group("a", lazyStar(anyDot)), lit("}"), sp, b.group("b", digit))
		}, func(a, c string) string { return `\frac{` + a + "}{" + c + "}" }),
		mk(`\frac`, func(b *patternBuilder) pnode {
			return seq(lit(`\frac`), sp, b.group("a", digit), sp, lit("{"), b.group("b", lazyStar(anyDot)), lit("}"))
		}, func(a, c string) string { return `\frac{` + a + "}{" + c + "}" }),
		mk(`\sqrt`, func(b *patternBuilder) pnode {
			return seq(lit(`\sqrt`), sp, b.group("a", digit))
		}, func(a, _ string) string { return `\sqrt{` + a + "}" }),
	}
}

// units is the list of latex2sympy2_extended's unit words (the first entry
// is "integer" "point" joined, as Python concatenates the two literals).
var units = []string{"integerpoint", "feet", "sue", "digit", "pound", "meal", "edge", "student",
	"children ticket", "multiple", "east", "degree", "mph", "kmph", "ft", "m square", " m east", "sq m",
	"deg", "mile", "q .", "monkey", "prime", "ratio", "profit of rs", "rd", "o", "gm", "p . m", "lb",
	"tile", "per", "dm", "lt", "gain", "ab", "way", "west", "a .", "b .", "c .", "d .", "e .", "f .",
	"g .", "h .", "t", "h", "no change", "men", "soldier", "pie", "bc", "excess", "st", "inches", "noon",
	"cent", "by", "gal", "kmh", "c", "acre", "rise", "a . m", "th", "π r 2", "sq", "mark", "l", "toy",
	"coin", "sq . m", "gallon", "° f", "profit", "minw", "yr", "women", "am", "pm", "hr", "cu cm",
	"square", "v â € ™", "are", "rupee", "rounds", "cubic", "cc", "mtr", "s", "ohm", "number", "kmph",
	"day", "hour", "minute", "min", "second", "man", "woman", "sec", "cube", "mt", "sq inch", "mp",
	"∏ cm ³", "hectare", "more", "sec", "unit", "cu . m", "cm 2", "rs .", "rs", "kg", "g", "month", "km",
	"m", "cm", "mm", "apple", "liter", "loss", "yard", "pure", "year", "increase", "decrease", "d", "less",
	"Surface", "litre", "pi sq m", "s .", "metre", "meter", "inch"}

// unitWords are the unit words removeTrailingUnit looks for: each of
// units, and its plurals.
type unitWords struct {
	set      map[string]bool
	maxRunes int // the length of the longest, in runes
}

// trailingUnits is built on first use, not at init (750 words, 500 of them
// concatenated): only the graders normalize.
var trailingUnits = sync.OnceValue(buildUnitWords)

func buildUnitWords() *unitWords {
	w := &unitWords{set: map[string]bool{}}
	for _, u := range units {
		w.set[u], w.set[u+"s"], w.set[u+"es"] = true, true, true
	}
	for u := range w.set {
		w.maxRunes = max(w.maxRunes, utf8.RuneCountInString(u))
	}
	return w
}

// removeTrailingUnit is one re.sub of units_regex: the leftmost digit,
// closing brace or space followed by a unit word at the very end keeps
// only that character. The unit word may start right after that
// character or after spaces. So the unit words at the end (trailing
// spaces aside) are found first, each a suffix of at most words.maxRunes
// runes, looked up as a substring of text (no copy); for each, the
// leftmost character that can keep it is just before the spaces before
// the word (a digit or "}"), else the first of those spaces. Work is
// linear in the text; the leftmost over all words is the answer.
func removeTrailingUnit(text string) string {
	end := len(strings.TrimRightFunc(text, isSpaceU)) // bytes, as below
	counted(len(text))
	keep := -1 // bytes of text kept: the leftmost end found
	q := end
	words := trailingUnits()
	for n := 0; n < words.maxRunes && q > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:q])
		q -= size
		counted(1)
		if !words.set[text[q:end]] {
			continue
		}
		s := q // the spaces before the word begin at s
		for s > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:s])
			if !isSpaceU(r) {
				break
			}
			s -= size
			counted(1)
		}
		k := -1
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:s]); isDigitU(r) || r == '}' {
				k = s
			}
		}
		if k < 0 && s < q {
			_, size := utf8.DecodeRuneInString(text[s:])
			k = s + size
		}
		if k >= 0 && (keep < 0 || k < keep) {
			keep = k
		}
	}
	if keep < 0 {
		return text
	}
	if kept := text[:keep]; utf8.ValidString(kept) {
		return kept
	}
	return string([]rune(text[:keep])) // as the rune conversion gives it
}

func normalizeLatex(text string, mode boxedMode) string {
	return normalizeUnboxed(extractBoxedContent(text, mode))
}

// normalizeLatexRunes is normalizeLatex(string(rs), mode), without
// copying rs when its box holds the answer: the bare \boxed{.+} pattern
// takes a long trace from its first box to its last "}", and only the
// content of the last box is normalized.
func normalizeLatexRunes(rs []rune, mode boxedMode) string {
	if content, ok := boxedContent(rs, mode); ok {
		return normalizeUnboxed(content)
	}
	return normalizeUnboxed(string(rs))
}

// normalizeUnboxed is normalizeLatex past the extraction of boxes.
func normalizeUnboxed(text string) string {
	counted(40 * len(text)) // the passes below, each linear

	// basic_latex
	text = strings.ReplaceAll(text, `\mathrm{T}`, "T")
	text = strings.ReplaceAll(text, `\mathrm{d}`, "d")
	text = strings.ReplaceAll(text, `{\rm d}`, "d")
	text = strings.ReplaceAll(text, `\left[\begin{matrix}`, `\begin{bmatrix}`)
	text = strings.ReplaceAll(text, `\end{matrix}\right]`, `\end{bmatrix}`)
	if strings.Contains(text, `\`) {
		keep := func(rs []rune, s span) string { return s.text(rs, "d") }
		text = subIf(mayMatchLeft, reLeft(), text, keep)
		text = subIf(mayMatchRight, reRight(), text, keep)
		text = subIf(mayMatchPermutation, rePermutation(), text, func(rs []rune, s span) string {
			a, b := s.text(rs, "a"), s.text(rs, "b")
			return `\frac{(` + a + `)!}{((` + a + `)-(` + b + `))!}`
		})
	}
	text = subIf(mayMatchToRemove, reToRemove(), text, literal(""))
	text = subIf(mayMatchReplace, reReplace(), text, func(rs []rune, s span) string {
		for _, n := range replaceNames {
			if a, _ := s.group(n); a >= 0 {
				return replaceWith[n]
			}
		}
		return ""
	})
	text = strings.ReplaceAll(text, "\n", " ")
	text = strings.ReplaceAll(text, "\t", " ")
	if !strings.Contains(text, "matrix") {
		text = fixDoubledBackslash(text)
	}

	// units
	if t := strings.TrimFunc(subIf(mayMatchUnitSup, reUnitSup(), text, literal("")), isPySpace); t != "" && t != text {
		text = t
	}
	for i := 0; i < 2; i++ {
		if t := removeTrailingUnit(text); t != "" && t != text {
			text = t
		}
	}

	// nits
	if strings.HasPrefix(text, ".") {
		text = "0" + text
	}
	if text == "0.5" {
		text = `\frac{1}{2}`
	}

	// malformed_operators
	for _, f := range reMalformed() {
		need := func(text string) bool { return strings.Contains(text, f.need) }
		text = subIf(need, f.p, text, func(rs []rune, s span) string { return f.repl(s.text(rs, "a"), s.text(rs, "b")) })
	}
	text = strings.ReplaceAll(text, " sqrt", `\sqrt`)
	text = fixSqrt(text)
	text = fixFracs(text)
	text = fixASlashB(text)
	return strings.TrimFunc(text, isPySpace)
}

// fixDoubledBackslash is command_slash_fix_regex: \\ before a letter
// becomes \.
func fixDoubledBackslash(text string) string {
	if skipDoomedSubs && !strings.Contains(text, `\\`) && utf8.ValidString(text) {
		return text // what the conversion below would give back
	}
	rs := []rune(text)
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' && i+2 < len(rs) && rs[i+1] == '\\' && isASCIILetter(rs[i+2]) {
			out = append(out, '\\')
			i++
			continue
		}
		out = append(out, rs[i])
	}
	return string(out)
}

func fixSqrt(text string) string {
	if !strings.Contains(text, `\sqrt`) {
		return text
	}
	return bracePiecesAfter(text, `\sqrt`, func(p string, rs []rune) (string, bool) {
		if len(rs) > 0 && rs[0] != '{' && rs[0] != '[' {
			return "{" + string(rs[0]) + "}" + string(rs[1:]), true
		}
		return p, true
	})
}

func fixFracs(text string) string {
	if skipDoomedSubs && !strings.Contains(text, `\frac`) {
		return text // bracePiecesAfter's one piece, as it was
	}
	return bracePiecesAfter(text, `\frac`, func(p string, rs []rune) (string, bool) {
		switch {
		case len(rs) > 0 && rs[0] == '{':
			return p, true
		case len(rs) < 2:
			return "", false
		case rs[1] != '{':
			return "{" + string(rs[0]) + "}{" + string(rs[1]) + "}" + string(rs[2:]), true
		default:
			return "{" + string(rs[0]) + "}" + string(rs[1]) + string(rs[2:]), true
		}
	})
}

// bracePiecesAfter rewrites what follows each cmd in text, its leading
// spaces dropped, with fix (given it as a string and as runes). When fix
// reports false for a piece, text is returned as it was.
func bracePiecesAfter(text, cmd string, fix func(p string, rs []rune) (string, bool)) string {
	parts := strings.Split(text, cmd)
	var b strings.Builder
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		p = strings.TrimLeftFunc(p, isPySpace)
		fixed, ok := fix(p, []rune(p))
		if !ok {
			return text
		}
		b.WriteString(cmd + fixed)
	}
	return b.String()
}

func fixASlashB(text string) string {
	if skipDoomedSubs && strings.Count(text, "/") != 1 {
		return text
	}
	parts := strings.Split(text, "/")
	if len(parts) != 2 {
		return text
	}
	a, errA := strconv.Atoi(parts[0])
	c, errC := strconv.Atoi(parts[1])
	if errA != nil || errC != nil || text != strconv.Itoa(a)+"/"+strconv.Itoa(c) {
		return text
	}
	return `\frac{` + strconv.Itoa(a) + "}{" + strconv.Itoa(c) + "}"
}
