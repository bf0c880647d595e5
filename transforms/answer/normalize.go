package answer

import (
	"math/big"
	"strings"
)

// maxAnswerLen bounds what is parsed; a longer "answer" is compared as text.
const maxAnswerLen = 4000

// textCmdExpr is a text command and its opening brace.
const textCmdExpr = `\\(?:text|textnormal|textup|textsf|texttt|textbf|textit|textrm|mathrm|mathit|mathsf|mathtt|mbox|hbox|operatorname|mathbf|boldsymbol|bm|emph)\s*\{`

var (
	// {,} before a group of three digits separates thousands (1{,}000);
	// before other digits it is a decimal comma (0{,}65).
	decimalBraceRe = lazyRegexp(`(\d)\{,\}(\d{1,2}|\d{4,})\b`)
	logNoArgRe     = lazyRegexp(`\\log_\{?(\d+)\}?\s*$`)
	thinGroupRe    = lazyRegexp(`(\d)(?:\\[,;:! ]|\{,\}|\\thinspace ?|[  ])(\d{3})\b`)
	thousandsRe    = lazyRegexp(`(^|[^\d.,])(\d{1,3}(?:,\d{3})+)($|[^\d,]|,\s)`)
	spaceGroupRe   = lazyRegexp(`(^|[^\d.])(\d{1,3}(?: \d{3})+)($|[^\d])`)
	degreeRe       = lazyRegexp(`\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\degree\b`)
	dotGroupsRe    = lazyRegexp(`(^|[^\d.])(\d{1,3}(?:\.\d{3}){2,})($|[^\d.]|\.$|\.\s)`)
	// French interval notation: ]a, b] is (a, b], [a, b[ is [a, b).
	frenchRe       = lazyRegexp(`(^|[^\\\w])([\[\]])([^\[\]]*[,;][^\[\]]*)([\[\]])`)
	escapedSpaceRe = lazyRegexp(`(^|[^\\])\\ `)
	unitPowerRe    = lazyRegexp(`^\s*\^\s*(?:\d|\{\s*\d\s*\})`)
	// km/h written as \text{km}/\text{h}: the unit after the slash goes too.
	perUnitRe = lazyRegexp(`^\s*/\s*\\(?:text|textnormal|textrm|mathrm|mbox)\s*\{([^{}]*)\}`)
	// a power inside a unit's text: \text{m^2}, \mathrm{cm^{3}}
	innerPowerRe = lazyRegexp(`\^\s*(?:\d|\{\s*\d\s*\})`)
	repeatingRe  = lazyRegexp(`(\d*)\.(\d*)(?:\\overline\s*\{(\d+)\}|\\dot\s*\{(\d)\}|\\dot\s*(\d)|\((\d+)\))`)
	textCmdRe    = lazyRegexp(textCmdExpr)
	// textCmdPrefixRe is textCmdRe at the start of a text only: looking
	// for it from every backslash of a text must not read the rest each time.
	textCmdPrefixRe = lazyRegexp(`^` + textCmdExpr)
	integConstRe    = lazyRegexp(`\s*\+\s*(?:[CcK](?:_\{?\d+\}?)?|\\mathrm\{C\})\s*$`)
	trailingPunct   = ".。．،,;:\t\n\r"
)

// sizing commands and \left/\right only shape brackets; they carry no math.
var sizeReplacer = strings.NewReplacer(
	`\left`, "", `\right`, "", `\bigl`, "", `\bigr`, "", `\Bigl`, "", `\Bigr`, "",
	`\biggl`, "", `\biggr`, "", `\Biggl`, "", `\Biggr`, "", `\big`, "", `\Big`, "", `\bigg`, "", `\Bigg`, "",
	`\displaystyle`, "", `\textstyle`, "", `\limits`, "", `\nolimits`, "",
	`\dfrac`, `\frac`, `\tfrac`, `\frac`, `\cfrac`, `\frac`, `\dbinom`, `\binom`, `\tbinom`, `\binom`,
	`\!`, "", `\,`, " ", `\;`, " ", `\:`, " ", `\quad`, " ", `\qquad`, " ", `~`, " ",
	`\%`, "%", `\$`, " ", "\u00a0", " ", "\u2009", " ", "\u202f", " ",
)

// normalize rewrites an answer string into the form the lexer reads: no
// math delimiters or \boxed wrapper, \text{} unwrapped into words, digit
// groups joined, degree signs and a constant of integration dropped.
func normalize(s string) string {
	s = nativeDigits(strings.TrimSpace(s))
	if isPlainNumber(s) {
		return s
	}
	if strings.Contains(s, `\boxed`) || strings.Contains(s, `\fbox`) {
		if box, ok := LastBoxed(s); ok && strings.TrimSpace(strings.Replace(s, `\boxed{`+box+`}`, "", 1)) == "" {
			s = box
		}
	}
	s = strings.ReplaceAll(s, `\$`, " ")
	s = strings.ReplaceAll(s, "$", "")
	s = strings.TrimSpace(s)
	for _, p := range [][2]string{{`\(`, `\)`}, {`\[`, `\]`}} {
		if strings.HasPrefix(s, p[0]) && strings.HasSuffix(s, p[1]) {
			s = strings.TrimSpace(s[len(p[0]) : len(s)-len(p[1])])
		}
	}
	hasBackslash := strings.Contains(s, `\`)
	if hasBackslash {
		s = unwrapText(s)
	}
	if strings.ContainsAny(s, "[]") && !strings.Contains(s, `\begin`) {
		s = frenchRe().ReplaceAllStringFunc(s, frenchInterval)
	}
	if strings.Contains(s, "{,}") {
		s = decimalBraceRe().ReplaceAllString(s, "$1.$2")
	}
	if strings.Contains(s, `\log_`) {
		// A malformed "\log_2" with nothing after it means log 2.
		s = logNoArgRe().ReplaceAllString(s, `\log $1`)
	}
	if containsAny(s, `\,`, `\;`, `\:`, `\!`, `\ `, "{,}", `\thinspace`, "\u00a0", "\u2009", "\u202f", "  ") {
		s = thinGroupRe().ReplaceAllString(s, "$1$2")
		s = thinGroupRe().ReplaceAllString(s, "$1$2")
	}
	if hasBackslash || strings.ContainsAny(s, "~%$\u00a0\u2009\u202f") {
		s = sizeReplacer.Replace(s)
		if strings.Contains(s, `\ `) {
			s = escapedSpaceRe().ReplaceAllString(s, "$1 ") // "\ " is a space; "\\ " ends a matrix row
		}
	}
	if strings.Contains(s, `\circ`) || strings.Contains(s, `\degree`) {
		s = degreeRe().ReplaceAllString(s, "°")
	}
	if strings.Contains(s, `\overline`) || strings.Contains(s, `\dot`) || strings.Contains(s, ".(") || strings.Contains(s, ". (") {
		s = repeatingRe().ReplaceAllStringFunc(s, repeatingDecimal)
	}
	if strings.Count(s, ".") >= 2 {
		s = dotGroupsRe().ReplaceAllStringFunc(s, func(m string) string {
			sub := dotGroupsRe().FindStringSubmatch(m)
			return sub[1] + strings.ReplaceAll(sub[2], ".", "") + sub[3]
		})
	}
	if strings.Contains(s, ",") {
		s = thousandsRe().ReplaceAllStringFunc(s, func(m string) string {
			sub := thousandsRe().FindStringSubmatch(m)
			return sub[1] + strings.ReplaceAll(sub[2], ",", "") + sub[3]
		})
	}
	if strings.Contains(s, " ") {
		s = spaceGroupRe().ReplaceAllStringFunc(s, func(m string) string {
			sub := spaceGroupRe().FindStringSubmatch(m)
			return sub[1] + strings.ReplaceAll(sub[2], " ", "") + sub[3]
		})
	}
	if strings.Contains(s, "+") && strings.ContainsAny(s, "CcK") {
		s = integConstRe().ReplaceAllString(s, "")
	}
	s = strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune(trailingPunct, r) || r == ' ' })
	return strings.TrimSpace(s)
}

// isPlainNumber reports whether s is an optionally signed integer or
// decimal with nothing around it, which needs no normalization.
func isPlainNumber(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0 && i+1 < len(s):
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

func frenchInterval(m string) string {
	sub := frenchRe().FindStringSubmatch(m)
	open, close := sub[2], sub[4]
	if open == "[" && close == "]" {
		return m
	}
	if open == "]" {
		open = "("
	}
	if close == "[" {
		close = ")"
	}
	return sub[1] + open + sub[3] + close
}

// unwrapText replaces \text{...} (and similar) by its content between
// spaces. Text without digits that follows a number is a unit (km/h,
// dollars) and goes, unless it is a conjunction that joins solutions.
func unwrapText(s string) string {
	for i := 0; i < 64; i++ {
		loc := textCmdRe().FindStringIndex(s)
		if loc == nil {
			return s
		}
		inner, ok := balanced(s[loc[1]-1:])
		if !ok {
			return s[:loc[0]] + " " + s[loc[1]:]
		}
		before, after := s[:loc[0]], s[loc[1]-1+len(inner)+2:]
		switch {
		case percentWords[strings.ToLower(strings.TrimSpace(inner))] == percentAfter && endsWithNumber(before):
			inner = "%" // 50\text{ pct}
		case isUnitText(innerPowerRe().ReplaceAllString(inner, "")) && endsWithNumber(before):
			inner = ""
			after = unitPowerRe().ReplaceAllString(after, "") // cm^2 goes with cm
			if m := perUnitRe().FindStringSubmatch(after); m != nil && isUnitText(m[1]) {
				after = after[len(m[0]):]
			}
		}
		s = before + " " + inner + " " + after
	}
	return s
}

func isUnitText(t string) bool {
	t = strings.TrimSpace(t)
	if t == "" || conjunctions[strings.ToLower(t)] != "" {
		return false
	}
	for _, r := range t {
		if r >= '0' && r <= '9' || r == '=' || r == '<' || r == '>' {
			return false
		}
	}
	return true
}

func endsWithNumber(s string) bool {
	for {
		// Spacing before a unit: ~, \, \; \: \! \quad and "\ ".
		t := strings.TrimRight(s, " {}~")
		for _, sp := range []string{`\,`, `\;`, `\:`, `\!`, `\quad`, `\`} {
			t = strings.TrimSuffix(t, sp)
		}
		if t == s {
			break
		}
		s = t
	}
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

var conjunctionWord = lazyRegexp(`(?i)\b(?:and|or)\b`)

// looseText is the text compared when an answer is not math: normalized,
// without spaces or grouping braces (\pmod{4} and \pmod 4 read alike), and
// "or"/"and" between values as commas.
func looseText(norm string) string {
	return strip(conjunctionWord().ReplaceAllString(norm, ","), " \t\n\r{}")
}

// strip drops every rune of chars from s.
func strip(s, chars string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(chars, r) {
			return -1
		}
		return r
	}, s)
}

// repeatingDecimal writes 0.1\overline{6} (or 0.1\dot{6}, 0.1(6)) as the
// fraction it denotes.
func repeatingDecimal(m string) string {
	sub := repeatingRe().FindStringSubmatch(m)
	whole, fixed := sub[1], sub[2]
	rep := sub[3] + sub[4] + sub[5] + sub[6]
	if whole == "" {
		whole = "0"
	}
	// x = whole.fixed(rep) = (whole fixed rep - whole fixed) / ((10^|rep| - 1) 10^|fixed|)
	all, ok1 := new(big.Int).SetString(whole+fixed+rep, 10)
	head, ok2 := new(big.Int).SetString(whole+fixed, 10)
	if !ok1 || !ok2 || len(rep) > 30 || len(fixed) > 30 {
		return m
	}
	num := new(big.Int).Sub(all, head)
	den := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(rep))), nil), big.NewInt(1))
	den.Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(fixed))), nil))
	r := new(big.Rat).SetFrac(num, den)
	return `\frac{` + r.Num().String() + `}{` + r.Denom().String() + `}`
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
