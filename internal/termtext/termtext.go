// Package termtext makes messages safe to print on one terminal line.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// OneLine joins a multi-line message (errors.Join's) into one line, with
// every character a terminal would act on rather than show escaped: an
// error may quote a file name, a model's or a server's text, and ESC or BEL
// there would retitle or clear the operator's terminal.
func OneLine(msg string) string {
	return EscapeControls(strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " "))
}

// EscapeControls writes C0 and C1 controls, DEL, invalid UTF-8, line and
// paragraph separators and bidirectional formatting characters as Go
// escapes (\x1b, \u202e).
func EscapeControls(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0x061c || r == 0x200e || r == 0x200f ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
