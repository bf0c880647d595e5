package mathverify

// The lexer of latex2sympy2_extended's grammar (PS.g4): longest match,
// ties to the rule defined first; skipped spacing commands; a character
// no rule accepts is an error (the ANTLR error listener raises).

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

type token struct {
	t string // token type
	s string // text
}

type litRule struct {
	text  string
	typ   string
	order int
}

// buildLitRules is the literal rules in ANTLR's order (lexByFirst's
// source).
func buildLitRules() []litRule {
	var rs []litRule
	order := 0
	add := func(typ string, texts ...string) {
		for _, t := range texts {
			rs = append(rs, litRule{t, typ, order})
		}
		order++
	}
	// implicit parser literals come first in ANTLR
	add("TRANSPOSE", "^T", "^{T}", `^{\top}`, "'")
	add("DEGREE", `^\circ`, `^\degree`, `^\circle`, "^°", `^{\circ}`, `^{\degree}`, `^{\circle}`, "^{°}")
	add("SKIP", `\,`, `\thinspace`, `\:`, `\medspace`, `\;`, `\thickspace`, `\quad`, `\qquad`, `\!`,
		`\negthinspace`, `\negmedspace`, `\negthickspace`, `\$`, `\vrule`, `\vcenter`, `\vbox`, `\vskip`, `\vspace`, `\hfil`)
	add("ADD", "+", "∔", "⊕", "⊞")
	add("SUB", "-", "−", "∸")
	add("MUL", "*", "×", "⋅", "⋄", "⊡", "∗", "⋆", "∘", "∙", "⊗", "⊠", "⋈", "⋉", "⋊")
	add("DIV", "/", "÷", "∕", `\over`)
	add("L_PAREN", "(")
	add("R_PAREN", ")")
	add("L_PAREN_VISUAL", `\(`)
	add("R_PAREN_VISUAL", `\)`)
	add("L_GROUP", `\lgroup`)
	add("R_GROUP", `\rgroup`)
	add("L_BRACE", "{")
	add("R_BRACE", "}")
	add("L_BRACE_VISUAL", `\{`)
	add("R_BRACE_VISUAL", `\}`)
	add("L_BRACE_CMD", `\lbrace`)
	add("R_BRACE_CMD", `\rbrace`)
	add("L_BRACKET", "[")
	add("R_BRACKET", "]")
	add("L_BRACK", `\lbrack`)
	add("R_BRACK", `\rbrack`)
	add("PHANTOM_CMD", `\phantom`)
	add("BOXED_CMD", `\boxed`)
	add("BAR", "|")
	add("L_VERT", `\lvert`)
	add("R_VERT", `\rvert`)
	add("VERT", `\vert`)
	add("NORM", `\|`)
	add("L_ANGLE", `\langle`)
	add("R_ANGLE", `\rangle`)
	add("L_FLOOR", `\lfloor`)
	add("R_FLOOR", `\rfloor`)
	add("LL_CORNER", `\llcorner`)
	add("LR_CORNER", `\lrcorner`)
	add("L_CEIL", `\lceil`)
	add("R_CEIL", `\rceil`)
	add("UL_CORNER", `\ulcorner`)
	add("UR_CORNER", `\urcorner`)
	add("FUNC_LIM", `\lim`)
	add("LIM_APPROACH_SYM", `\to`, `\rightarrow`, `\Rightarrow`, `\longrightarrow`, `\Longrightarrow`)
	add("FUNC_INT", `\int`)
	add("FUNC_SUM", `\sum`)
	add("FUNC_PROD", `\prod`)
	for _, f := range []string{"log", "ln", "exp", "sin", "cos", "tan", "csc", "sec", "cot"} {
		add("FN1", `\`+f)
	}
	add("FUNC_GAMMA", `\Gamma`, `\gamma`)
	for _, f := range []string{"arcsin", "arccos", "arctan", "arccsc", "arcsec", "arccot", "sinh", "cosh", "tanh",
		"arsinh", "arcosh", "artanh", "arcsinh", "arccosh", "arctanh"} {
		add("FN1", `\`+f)
	}
	add("OPNAME1", "arsinh", "arcsinh", "arcosh", "arccosh", "artanh", "arctanh")
	add("OPNAME2", "gcd", "lcm")
	add("OPNAME1", "floor", "ceil")
	add("FUNC_SQRT", `\sqrt`)
	add("FN2", `\gcd`, `\lcm`)
	add("FN1", `\floor`, `\ceil`)
	add("FN2", `\max`, `\min`)
	add("FN1", `\det`)
	add("OPNAME1", "eye")
	add("OPNAME2", "zeros", "ones")
	add("OPNAME1", "cols", "rows")
	add("OPNAME2", "diag")
	add("OPNAME1", "norm", "rank", "trace", "tr", "rref")
	add("OPNAME2", "hstack", "vstack", "orth", "ortho", "orthogonal", "orthogonalize")
	add("OPNAME1", "nullspace", "eig", "eigen", "diagonalize", "eigenvals", "eigenvalues", "eigenvects", "eigenvectors", "svd", "SVD")
	add("CMD_TIMES", `\times`)
	add("CMD_CDOT", `\cdot`)
	add("CMD_DIV", `\div`)
	add("CMD_FRAC", `\frac`, `\dfrac`, `\tfrac`, `\cfrac`)
	add("CMD_BINOM", `\binom`, `\tbinom`, `\dbinom`)
	add("CMD_CHOOSE", `\choose`)
	add("CMD_MOD", `\mod`)
	add("CMD_MATHIT", `\mathit`)
	add("CMD_OPERATORNAME", `\operatorname`)
	add("MATRIX_TYPE", "matrix", "pmatrix", "bmatrix", "vmatrix")
	add("MATRIX_DEL_COL", "&")
	add("MATRIX_DEL_ROW", `\\`)
	add("UNDERSCORE", "_")
	add("CARET", "^")
	add("COLON", ":")
	add("SEMICOLON", ";")
	add("COMMA", ",")
	add("PERIOD", ".")
	add("EXP_E", "e", `\exponentialE`)
	add("E_NOTATION_E", "E")
	add("MATRIX_XRIGHTARROW", `\xrightarrow`, `\xRightarrow`)
	add("TRANSFORM_EXCHANGE", "<->", "<=>", `\leftrightarrow`, `\Leftrightarrow`)
	add("IN", `\in`)
	add("ASSIGNMENT", "=", "≡", "≣", "≟", "≎", "≏", "≐", "≑", "≒", "≓", "≔", "≕", "≖", "≗")
	add("EQUAL", "==", `\equiv`)
	add("APPROX", "~=", "≈", "≊", "≋", "≃", "≅", `\approx`)
	add("LT", "<", "≪", "≺", "⋖", `\lt`)
	add("LTE", `\leq`, `\le`, `\leqslant`, "≤", "≦", "≲", "≾", "<=")
	add("GT", ">", "≫", "≻", "⋗", `\gt`)
	add("GTE", `\geq`, `\ge`, `\geqslant`, "≥", "≧", "≳", "≿", ">=")
	add("UNEQUAL", "!=", "!==", `\ne`, `\neq`, `\not\equiv`, "≠", "≁", "≄", "≇", "≉", "≢")
	add("BANG", "!")
	add("SYMBOL", `\partial`, `\infty`, `\$\infty`, `\infty\%`, `\infty%`)
	add("SET_NATURALS", `\mathbb{N}`, "ℕ")
	add("SET_INTEGERS", `\mathbb{Z}`, "ℤ")
	add("SET_RATIONALS", `\mathbb{Q}`, "ℚ")
	add("SET_REALS", `\mathbb{R}`, "ℝ")
	add("SET_COMPLEX", `\mathbb{C}`, "ℂ")
	add("SET_PRIMES", `\mathbb{P}`, "ℙ")
	add("UNION", `\cup`, "∪")
	add("INTERSECTION", `\cap`, "∩")
	add("SET_MINUS", `\setminus`, "∖")
	add("PLUS_MINUS", `\pm`, "±", "∓", `\mp`)
	add("SET_EMPTY", `\emptyset`, "∅", `\{\}`, `\lbrace\rbrace`)
	add("SUPSET", `\supseteq`, "⊇")
	add("SUBSET", `\subseteq`, "⊆")
	add("NOTIN", `\notin`, "∉")
	return rs
}

// Orders of the pattern rules, placed among the literal rules as PS.g4
// defines them (only ties between equally long matches need them).
const (
	orderDifferential = 500
	orderLetter       = 502
	orderNumber       = 503
	orderPercent      = 504
	orderGreek        = 505
	orderOther        = 506
	orderAccent       = 510
	orderMatrix       = 300
)

var greekLetters = []string{`\alpha`, "α", `\beta`, "β", `\gamma`, "γ", `\Gamma`, "Γ", `\delta`, "δ", `\Delta`, "Δ",
	`\epsilon`, "ε", `\varepsilon`, "ϵ", `\zeta`, "ζ", `\eta`, "η", `\theta`, "θ", `\Theta`, "Θ", `\vartheta`, "ϑ",
	`\iota`, "ι", `\kappa`, "κ", `\lambda`, "λ", `\Lambda`, "Λ", `\mu`, "μ", `\nu`, "ν", `\xi`, "ξ", `\Xi`, "Ξ",
	`\omicron`, "ο", `\pi`, "π", `\Pi`, "Π", `\varpi`, "ϖ", `\rho`, "ρ", `\varrho`, "ϱ", `\sigma`, "σ", `\Sigma`, "Σ",
	`\varsigma`, "ς", `\tau`, "τ", `\upsilon`, "υ", `\Upsilon`, "Υ", `\phi`, "φ", `\Phi`, "Φ", `\varphi`, "ϕ",
	`\chi`, "χ", `\psi`, "ψ", `\Psi`, "Ψ", `\omega`, "ω", `\Omega`, "Ω"}

var otherSymbols = []string{`\Bbbk`, `\wp`, `\nabla`, `\bigstar`, `\angle`, `\nexists`, `\diagdown`, `\measuredangle`,
	`\eth`, "ℵ", "ℶ", "ℷ", "ℸ", `\diagup`, `\sphericalangle`, `\clubsuit`, `\varnothing`, `\Diamond`, `\complement`,
	`\diamondsuit`, `\imath`, `\Finv`, `\triangledown`, `\heartsuit`, `\jmath`, `\Game`, `\triangle`, `\spadesuit`,
	`\ell`, `\hbar`, `\vartriangle`, `\hslash`, `\blacklozenge`, `\lozenge`, `\blacksquare`, `\mho`, `\blacktriangle`,
	`\sharp`, `\prime`, `\Im`, `\flat`, `\square`, `\backprime`, `\Re`, `\natural`, `\surd`, `\circledS`}

var accentCmds = []string{`\acute`, `\bar`, `\overline`, `\breve`, `\check`, `\widecheck`, `\dot`, `\ddot`, `\grave`,
	`\hat`, `\tilde`, `\widetilde`, `\vec`, `\overrightarrow`, `\bm`, `\boldsymbol`, `\text`, `\textit`, `\textbf`,
	`\textnormal`, `\mathbb`, `\mathbin`, `\mathbf`, `\mathcal`, `\mathclap`, `\mathclose`, `\mathellipsis`,
	`\mathfrak`, `\mathinner`, `\mathit`, `\mathnormal`, `\mathop`, `\mathopen`, `\mathord`, `\mathpunct`,
	`\mathrel`, `\mathring`, `\mathrlap`, `\mathrm`, `\mathscr`, `\mathsf`, `\mathsterling`, `\mathtt`, `\mbox`}

const maxTokens = 4000

// lexEntries are the literal rules, Greek letters and other symbols that
// begin with one rune, in their lists' order.
type lexEntries struct {
	lits         []litRule
	greek, other []string
}

var noLexEntries lexEntries

// lexByFirst indexes the literal rules, greekLetters and otherSymbols by
// their first rune: lex tried every entry at every position (a sixth of
// the time of grading a short answer). Built on first use, not at init:
// only the graders lex.
var lexByFirst = sync.OnceValue(indexLexEntries)

func indexLexEntries() map[rune]*lexEntries {
	m := map[rune]*lexEntries{}
	at := func(s string) *lexEntries {
		r := []rune(s)[0]
		if m[r] == nil {
			m[r] = &lexEntries{}
		}
		return m[r]
	}
	for _, lr := range buildLitRules() {
		e := at(lr.text)
		e.lits = append(e.lits, lr)
	}
	for _, g := range greekLetters {
		e := at(g)
		e.greek = append(e.greek, g)
	}
	for _, g := range otherSymbols {
		e := at(g)
		e.other = append(e.other, g)
	}
	return m
}

func isWS(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }

func lex(src string) ([]token, error) {
	rs := []rune(src)
	counted(len(rs))
	// A token's text is cut from src (no copy) where src is valid UTF-8:
	// b is the byte offset of rune i. Otherwise it is the runes' string,
	// whose U+FFFD stand for the invalid bytes.
	fromSource := !lexTextFromRunes && utf8.ValidString(src)
	b := 0
	toks := make([]token, 0, 8)
	byFirst := lexByFirst()
	for i := 0; i < len(rs); {
		if isWS(rs[i]) {
			b += utf8.RuneLen(rs[i])
			i++
			continue
		}
		bestLen, bestOrder, bestTyp := 0, 1<<30, ""
		consider := func(n, order int, typ string) {
			if n > bestLen || (n == bestLen && n > 0 && order < bestOrder) {
				bestLen, bestOrder, bestTyp = n, order, typ
			}
		}
		// Only the entries beginning with rs[i] can match at i
		// (prefixLen compares every rune): lexByFirst lists them.
		first := byFirst[rs[i]]
		if first == nil {
			first = &noLexEntries
		}
		for _, lr := range first.lits {
			if n := prefixLen(rs, i, lr.text); n > 0 {
				consider(n, lr.order, lr.typ)
			}
		}
		consider(lexNumberish(rs, i))
		consider(lexDifferential(rs, i), orderDifferential, "DIFFERENTIAL")
		if isASCIILetter(rs[i]) && rs[i] != 'e' && rs[i] != 'E' {
			consider(1, orderLetter, "LETTER")
		}
		for _, g := range first.greek {
			if n := prefixLen(rs, i, g); n > 0 {
				if i+n < len(rs) && rs[i+n] == ' ' {
					n++
				}
				consider(n, orderGreek, "GREEK_CMD")
			}
		}
		for _, g := range first.other {
			if n := prefixLen(rs, i, g); n > 0 {
				if i+n < len(rs) && rs[i+n] == ' ' {
					n++
				}
				consider(n, orderOther, "OTHER_SYMBOL_CMD")
			}
		}
		if rs[i] == '\\' {
			consider(lexAccent(rs, i), orderAccent, "ACCENT")
			n, typ := lexMatrixEnv(rs, i)
			consider(n, orderMatrix, typ)
		}
		if bestLen == 0 {
			return nil, fmt.Errorf("%w: %q at %d", ErrLex, string(rs[i]), i)
		}
		n := 0 // the token's bytes
		if fromSource {
			for _, r := range rs[i : i+bestLen] {
				n += utf8.RuneLen(r)
			}
		}
		if bestTyp != "SKIP" {
			text := src[b : b+n]
			if !fromSource {
				text = string(rs[i : i+bestLen])
			}
			toks = append(toks, token{bestTyp, text})
			if len(toks) > maxTokens {
				return nil, fmt.Errorf("%w: more than %d tokens", ErrTooBig, maxTokens)
			}
		}
		i += bestLen
		b += n
	}
	return toks, nil
}

// lexTextFromRunes makes lex build every token's text from its runes, as
// it did before cutting them from the source; tests compare the two.
var lexTextFromRunes = false

func prefixLen(rs []rune, i int, s string) int {
	n := 0
	for _, r := range s {
		if i+n >= len(rs) || rs[i+n] != r {
			return 0
		}
		n++
	}
	return n
}

// lexNumberish is NUMBER, E_NOTATION and PERCENT_NUMBER.
func lexNumberish(rs []rune, i int) (int, int, string) {
	j := i
	for j < len(rs) && isASCIIDigit(rs[j]) {
		j++
	}
	if j < len(rs)-1 && rs[j] == '.' && isASCIIDigit(rs[j+1]) {
		j++
		for j < len(rs) && isASCIIDigit(rs[j]) {
			j++
		}
	}
	if j == i {
		return 0, 0, ""
	}
	n, order, typ := j-i, orderNumber, "NUMBER"
	// E_NOTATION: NUMBER E [+-]? DIGIT+
	if j < len(rs) && rs[j] == 'E' {
		k := j + 1
		if k < len(rs) && (rs[k] == '+' || rs[k] == '-') {
			k++
		}
		d := k
		for k < len(rs) && isASCIIDigit(rs[k]) {
			k++
		}
		if k > d {
			return k - i, orderNumber, "E_NOTATION"
		}
	}
	// PERCENT_NUMBER: NUMBER WS_CHAR? ('\%' | '%')
	k := j
	if k < len(rs) && isWS(rs[k]) {
		k++
	}
	if k < len(rs) && rs[k] == '%' {
		return k + 1 - i, orderPercent, "PERCENT_NUMBER"
	}
	if k+1 < len(rs) && rs[k] == '\\' && rs[k+1] == '%' {
		return k + 2 - i, orderPercent, "PERCENT_NUMBER"
	}
	return n, order, typ
}

// lexDifferential is DIFFERENTIAL: 'd' WS_CHAR*? ([a-zA-Z] | '\' [a-zA-Z]+).
func lexDifferential(rs []rune, i int) int {
	if rs[i] != 'd' {
		return 0
	}
	j := i + 1
	for j < len(rs) && isWS(rs[j]) {
		j++
	}
	if j < len(rs) && isASCIILetter(rs[j]) {
		return j + 1 - i
	}
	if j+1 < len(rs) && rs[j] == '\\' && isASCIILetter(rs[j+1]) {
		k := j + 1
		for k < len(rs) && isASCIILetter(rs[k]) {
			k++
		}
		return k - i
	}
	return 0
}

// lexAccent is ACCENT: a command, an optional space, then braces closed at
// the first }.
func lexAccent(rs []rune, i int) int {
	best := 0
	for _, c := range accentCmds {
		n := prefixLen(rs, i, c)
		if n == 0 {
			continue
		}
		j := i + n
		if j < len(rs) && isWS(rs[j]) {
			j++
		}
		if j >= len(rs) || rs[j] != '{' {
			continue
		}
		k := j + 1
		for k < len(rs) && rs[k] != '}' {
			k++
		}
		if k < len(rs) && k+1-i > best {
			best = k + 1 - i
		}
	}
	return best
}

func lexMatrixEnv(rs []rune, i int) (int, string) {
	s := string(rs[i:min(len(rs), i+40)])
	for _, t := range []string{"matrix", "pmatrix", "bmatrix"} {
		if strings.HasPrefix(s, `\begin{`+t+"}") {
			return len([]rune(`\begin{` + t + "}")), "MATRIX_START"
		}
		if strings.HasPrefix(s, `\end{`+t+"}") {
			return len([]rune(`\end{` + t + "}")), "MATRIX_END"
		}
	}
	if strings.HasPrefix(s, `\begin{vmatrix}`) {
		return len(`\begin{vmatrix}`), "DET_START"
	}
	if strings.HasPrefix(s, `\end{vmatrix}`) {
		return len(`\end{vmatrix}`), "DET_END"
	}
	if strings.HasPrefix(s, `\end{array}`) {
		return len(`\end{array}`), "MATRIX_END"
	}
	if strings.HasPrefix(s, `\begin{array}{`) {
		j := i + len(`\begin{array}{`)
		for j < len(rs) && (rs[j] == 'c' || rs[j] == 'l' || rs[j] == 'r') {
			j++
		}
		if j < len(rs) && rs[j] == '}' {
			return j + 1 - i, "MATRIX_START"
		}
	}
	return 0, ""
}
