package answer

import "strings"

// mathSpan is a math expression written in a text: $…$, $$…$$, \(…\) or
// \[…\], its content and where it starts and ends.
type mathSpan struct {
	start, end int
	content    string
}

// mathSpans finds the math expressions of a text in order. Inline ones
// ($…$, \(…\)) end on their line; display ones ($$…$$, \[…\]) may run over
// lines (a matrix), and so may an inline one inside an environment. A $
// right after a digit is a currency sign, not an opening (18$), and \$ is
// always one.
func mathSpans(s string) []mathSpan {
	var out []mathSpan
	scanned(len(s))
	for i := 0; i < len(s); {
		var open, close string
		switch {
		case s[i] == '\\' && i+1 < len(s):
			switch s[i+1] {
			case '(':
				open, close = `\(`, `\)`
			case '[':
				open, close = `\[`, `\]`
			default:
				i += 2 // \$, \\ and commands
				continue
			}
		case s[i] == '$' && strings.HasPrefix(s[i:], "$$"):
			open, close = "$$", "$$"
		case s[i] == '$' && (i == 0 || s[i-1] < '0' || s[i-1] > '9'):
			open, close = "$", "$"
		default:
			i++
			continue
		}
		from := i + len(open)
		j := closing(s[from:], close, close == "$" || close == `\)`)
		if j < 0 {
			i = from
			continue
		}
		if content := s[from : from+j]; strings.TrimSpace(content) != "" {
			out = append(out, mathSpan{start: i, end: from + j + len(close), content: content})
		}
		i = from + j + len(close)
	}
	return out
}

// closing is where close first occurs in s, not escaped by a backslash;
// -1 when it does not, or when inline and a line ends first, outside an
// environment (a matrix's rows may go on over lines).
func closing(s, close string, inline bool) int {
	envs := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\n' && inline && envs <= 0:
			scanned(i)
			return -1
		case strings.HasPrefix(s[i:], `\begin{`):
			envs++
			i += len(`\begin`)
		case strings.HasPrefix(s[i:], `\end{`):
			envs--
			i += len(`\end`)
		case s[i] == '\\' && close != `\)` && close != `\]`:
			i++ // \$ inside math is a dollar sign
		case strings.HasPrefix(s[i:], close):
			scanned(i)
			return i
		case s[i] == '\\':
			i++
		}
	}
	scanned(len(s))
	return -1
}
