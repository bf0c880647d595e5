package answer

import (
	"regexp"
	"strings"
)

// maxAnswerLen bounds what is parsed; a longer "answer" is compared as text.
const maxAnswerLen = 4000

var (
	thinGroupRe   = regexp.MustCompile(`(\d)(?:\\[,;:! ]|\{,\}|\\thinspace ?|[  ])(\d{3})\b`)
	thousandsRe   = regexp.MustCompile(`(^|[^\d.,])(\d{1,3}(?:,\d{3})+)($|[^\d,]|,\s)`)
	spaceGroupRe  = regexp.MustCompile(`(^|[^\d.])(\d{1,3}(?: \d{3})+)($|[^\d])`)
	degreeRe      = regexp.MustCompile(`\^\s*\{?\s*\\circ\s*\}?|°|\\degree\b`)
	textCmdRe     = regexp.MustCompile(`\\(?:text|textbf|textit|textrm|mathrm|mathit|mathsf|mathtt|mbox|hbox|operatorname|mathbf|boldsymbol|bm|emph)\s*\{`)
	integConstRe  = regexp.MustCompile(`\s*\+\s*[Cc]\s*$`)
	trailingPunct = regexp.MustCompile(`[\s.。．،,;:]+$`)
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
	s = strings.TrimSpace(s)
	if box, ok := LastBoxed(s); ok && strings.TrimSpace(strings.Replace(s, `\boxed{`+box+`}`, "", 1)) == "" {
		s = box
	}
	s = strings.ReplaceAll(s, `\$`, " ")
	s = strings.ReplaceAll(s, "$", "")
	s = strings.TrimSpace(s)
	for _, p := range [][2]string{{`\(`, `\)`}, {`\[`, `\]`}} {
		if strings.HasPrefix(s, p[0]) && strings.HasSuffix(s, p[1]) {
			s = strings.TrimSpace(s[len(p[0]) : len(s)-len(p[1])])
		}
	}
	s = unwrapText(s)
	s = thinGroupRe.ReplaceAllString(s, "$1$2")
	s = thinGroupRe.ReplaceAllString(s, "$1$2")
	s = sizeReplacer.Replace(s)
	s = degreeRe.ReplaceAllString(s, "")
	s = thousandsRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := thousandsRe.FindStringSubmatch(m)
		return sub[1] + strings.ReplaceAll(sub[2], ",", "") + sub[3]
	})
	s = spaceGroupRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := spaceGroupRe.FindStringSubmatch(m)
		return sub[1] + strings.ReplaceAll(sub[2], " ", "") + sub[3]
	})
	s = integConstRe.ReplaceAllString(s, "")
	s = trailingPunct.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

// unwrapText replaces \text{...} (and similar) by its content between spaces.
func unwrapText(s string) string {
	for i := 0; i < 64; i++ {
		loc := textCmdRe.FindStringIndex(s)
		if loc == nil {
			return s
		}
		inner, ok := balanced(s[loc[1]-1:])
		if !ok {
			return s[:loc[0]] + " " + s[loc[1]:]
		}
		s = s[:loc[0]] + " " + inner + " " + s[loc[1]-1+len(inner)+2:]
	}
	return s
}

// squash is the text form of an answer that could not be parsed.
func squash(s string) string {
	s = normalize(s)
	var b strings.Builder
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
