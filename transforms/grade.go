package transforms

import (
	"math/big"
	"regexp"
	"strings"
)

// Verdict is the grader's decision on one generation.
type Verdict struct {
	Extracted string // the final answer found (empty when none)
	HasAnswer bool
	Correct   bool
	Reason    string // no-answer, string-match, numeric-match or mismatch
}

// GraderName identifies this grader in the answers table.
const GraderName = "boxed-v1"

// Grade extracts the final answer of a generation and compares it with the
// gold answer. The answer is the last \boxed{} after the reasoning block,
// else the last one inside it.
func Grade(text, gold string) Verdict {
	pred, ok := FinalBoxed(text)
	if !ok {
		return Verdict{Reason: "no-answer"}
	}
	v := Verdict{Extracted: pred, HasAnswer: true}
	v.Correct, v.Reason = Equivalent(gold, pred)
	return v
}

// FinalBoxed returns the content of the last \boxed{} (or \fbox{}) after the
// closing </think>, or, when there is none there, the last one in the text.
func FinalBoxed(text string) (string, bool) {
	if i := strings.LastIndex(text, ThinkClose); i >= 0 {
		if s, ok := LastBoxed(text[i+len(ThinkClose):]); ok {
			return s, true
		}
	}
	return LastBoxed(text)
}

// LastBoxed returns the content of the last \boxed{...} or \fbox{...} whose
// braces balance; nested braces are kept.
func LastBoxed(text string) (string, bool) {
	best, bestAt := "", -1
	for _, cmd := range []string{`\boxed`, `\fbox`} {
		for from := 0; ; {
			i := strings.Index(text[from:], cmd)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(cmd)
			j := from
			for j < len(text) && text[j] == ' ' {
				j++
			}
			if j >= len(text) || text[j] != '{' {
				continue
			}
			if content, ok := balanced(text[j:]); ok && at > bestAt {
				best, bestAt = content, at
			}
		}
	}
	return best, bestAt >= 0
}

// balanced returns what lies between s[0] == '{' and its matching '}'.
func balanced(s string) (string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // an escaped brace does not count
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[1:i], true
			}
		}
	}
	return "", false
}

// Equivalent compares a gold answer with a prediction: equal after
// normalization, or equal as numbers (integers, decimals, fractions).
func Equivalent(gold, pred string) (bool, string) {
	g, p := Normalize(gold), Normalize(pred)
	if g == p && g != "" {
		return true, "string-match"
	}
	gn, gok := ParseNumber(g)
	pn, pok := ParseNumber(p)
	if gok && pok && gn.Cmp(pn) == 0 {
		return true, "numeric-match"
	}
	return false, "mismatch"
}

var (
	textCmd    = regexp.MustCompile(`\\(?:text|mathrm|textbf|mbox)\{([^{}]*)\}`)
	spaceCmd   = regexp.MustCompile(`\\[,;:! ]|\\quad|\\qquad|~`)
	leadingVar = regexp.MustCompile(`^[a-zA-Z]\s*=\s*`)
)

// Normalize puts an answer string in a canonical form: no math delimiters,
// no spacing commands or \left/\right, \dfrac and \tfrac as \frac, \text{}
// unwrapped, no trailing period, no leading "x =", no whitespace.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "$", "")
	s = strings.TrimPrefix(s, `\(`)
	s = strings.TrimSuffix(s, `\)`)
	s = strings.TrimPrefix(s, `\[`)
	s = strings.TrimSuffix(s, `\]`)
	s = textCmd.ReplaceAllString(s, "$1")
	s = spaceCmd.ReplaceAllString(s, "")
	r := strings.NewReplacer(`\left`, "", `\right`, "", `\dfrac`, `\frac`, `\tfrac`, `\frac`, `\displaystyle`, "")
	s = r.Replace(s)
	s = strings.TrimSpace(s)
	s = leadingVar.ReplaceAllString(s, "")
	s = strings.TrimRight(s, ".。")
	s = strings.Join(strings.Fields(s), "")
	return s
}

var (
	fracRe   = regexp.MustCompile(`^(-?)\\frac\{?(-?\d+)\}?\{?(-?\d+)\}?$`)
	slashRe  = regexp.MustCompile(`^(-?\d+)/(\d+)$`)
	numberRe = regexp.MustCompile(`^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$`)
)

// ParseNumber reads a normalized integer, decimal (thousands separated by
// commas allowed) or fraction (\frac{a}{b}, a/b) as an exact rational.
func ParseNumber(s string) (*big.Rat, bool) {
	if m := fracRe.FindStringSubmatch(s); m != nil {
		r, ok := new(big.Rat).SetString(m[2] + "/" + m[3])
		if !ok || m[3] == "0" {
			return nil, false
		}
		if m[1] == "-" {
			r.Neg(r)
		}
		return r, true
	}
	if slashRe.MatchString(s) {
		return new(big.Rat).SetString(s)
	}
	if numberRe.MatchString(s) {
		return new(big.Rat).SetString(strings.ReplaceAll(s, ",", ""))
	}
	return nil, false
}
