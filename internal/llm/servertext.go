package llm

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// maxQuotedBytes bounds how much of a server's text one error or log line
// quotes: enough to read what a server said, never a megabyte of HTML.
const maxQuotedBytes = 1 << 10

// maxErrorBytes bounds the whole text of an error the pool returns, which
// may join several endpoints' last errors (each quoting at most
// maxQuotedBytes of a body).
const maxErrorBytes = 16 << 10

// serverText makes text a server sent safe to print in one line of an
// error or log: the API key redacted first (so a cut cannot leave part of
// it), every control character escaped (ESC and BEL would retitle or clear
// the operator's terminal), and cut after maxQuotedBytes with how long it
// was.
func serverText(s, key string) string {
	size := len(s)
	if key != "" {
		s = strings.ReplaceAll(s, key, "[REDACTED]")
	}
	return cut(s, maxQuotedBytes, size)
}

// printable escapes what a terminal would act on rather than show, and cuts
// the result after limit bytes (saying how many bytes there were): C0
// controls (newline and tab among them), DEL, C1 controls, invalid UTF-8,
// line and paragraph separators, and bidirectional formatting characters
// (which can make a line read in another order than it is written).
func printable(s string, limit int) string { return cut(s, limit, len(s)) }

// cut is printable(s, limit) for a text that had size bytes as it came.
func cut(s string, limit, size int) string {
	if safe(s) && len(s) <= limit {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= limit {
			fmt.Fprintf(&b, "… (%d bytes)", size)
			return b.String()
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// safe reports whether s prints as it is.
func safe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune)
		}
	}
	return true
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// quoted is a server's value as an error names it: in quotes, printable.
func quoted(s string) string { return `"` + printable(s, maxQuotedBytes) + `"` }

// cleanServerError makes the server's text that go-openai put into err
// printable (serverText): the message of a JSON error body, the whole body
// of any other, and the status line. The error keeps its type, so it is
// classified as before.
func (e *endpoint) cleanServerError(err error) error {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		apiErr.Message = serverText(apiErr.Message, e.key)
		apiErr.HTTPStatus = serverText(apiErr.HTTPStatus, e.key)
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		reqErr.Body = []byte(serverText(string(reqErr.Body), e.key))
		reqErr.HTTPStatus = serverText(reqErr.HTTPStatus, e.key)
	}
	return err
}
