package tables

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every text a table shows may come from the run (model names, languages,
// levels, methods, aligners, ...), so every renderer escapes all of it, the
// fixed text included, with the one function of its format: texEscape,
// mdEscape (mdBlock at the start of a paragraph), csvCell; figure texts go
// through oneLine.

// oneLine makes text one printable line: invalid UTF-8 becomes U+FFFD, and
// control characters (CR, LF, TAB, the other C0 and C1 codes, DEL), line and
// paragraph separators and bidirectional formatting characters (which can
// make a cell read in another order than it is stored) become spaces.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
}

// texSpecials are LaTeX's special characters and what prints each
// literally (and the tables' arrows and ±, their math symbols). With them
// replaced and no line break left, no text can start a
// command, a group, a comment, a math or alignment switch, or end a
// comment line. < > | print wrongly in the default OT1 encoding; [ ] are
// braced so that a row starting with one is not taken for \\'s optional
// argument.
var texSpecials = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`^`, `\textasciicircum{}`, `_`, `\_`, `~`, `\textasciitilde{}`, `%`, `\%`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`, `[`, `{[}`, `]`, `{]}`,
	// The tables' own symbols, which pdflatex does not take as UTF-8
	// without packages: the paper's metric directions and mean ± sd.
	// Math symbols, not textcomp's: their fonts are in every TeX install
	// (Debian's texlive-latex-base), where TS1 text fonts need more.
	"↑", `$\uparrow$`, "↓", `$\downarrow$`, "±", `$\pm$`)

// texEscape makes text literal in LaTeX, in a cell or a comment.
func texEscape(s string) string { return texSpecials.Replace(oneLine(s)) }

// mdSpecials are the characters with a meaning inline in Markdown (GitHub's
// included: tables, strikethrough, math) or HTML. HTML's are written as
// entities, the rest backslash-escaped (CommonMark escapes any ASCII
// punctuation that way).
var mdSpecials = strings.NewReplacer(
	`&`, `&amp;`, `<`, `&lt;`, `>`, `&gt;`,
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `~`, `\~`, `|`, `\|`,
	`[`, `\[`, `]`, `\]`, `$`, `\$`)

// mdEscape makes text literal inline in Markdown: in a table cell, a title
// or within a paragraph.
func mdEscape(s string) string { return mdSpecials.Replace(oneLine(s)) }

// mdBlock makes text literal as a paragraph of its own (a caption): inline
// escapes (> among them), and no leading indentation or marker that would
// make the line a heading, a list, a quote or a rule.
func mdBlock(s string) string {
	s = strings.TrimLeft(oneLine(s), " ")
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '+', '-', '=':
		return `\` + s[:1] + mdEscape(s[1:])
	}
	// "1." and "1)" start an ordered list.
	if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (s[i] == '.' || s[i] == ')') {
		return mdEscape(s[:i]) + `\` + mdEscape(s[i:])
	}
	return mdEscape(s)
}

// csvCell is a text cell of a CSV, which encoding/csv quotes as RFC 4180
// says. A text starting with = + - @ TAB or CR would be a formula to a
// spreadsheet (OWASP's "CSV injection"); it gets a leading apostrophe,
// which spreadsheets hide and which keeps it text. Numbers are written by
// plain and never reach here, and a text that reads as a number
// ("-0.5") is left as it is: no spreadsheet takes a number for a formula.
func csvCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}
