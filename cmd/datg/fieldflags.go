package main

import (
	"strings"
	"unicode"

	"github.com/datg/datg/internal/inputerr"
)

// describe is an error as the command line says it: one line, each Config
// field a library error names (inputerr.FieldError) shown as the flag
// that sets it.
func (c *Command) describe(err error) string {
	msg := err.Error()
	for _, fe := range inputerr.Fields(err) {
		if flag := c.flagOf(fe.Field); flag != "" {
			msg = strings.ReplaceAll(msg, fe.Error(), "--"+flag+": "+fe.Err.Error())
		}
	}
	return oneLine(stringError(msg))
}

// flagOf is the command's flag that sets a Config field, or "" when none
// does (the message keeps the field's name).
func (c *Command) flagOf(field string) string {
	if f, ok := c.FieldFlags[field]; ok {
		return f
	}
	if name := kebab(field); c.Flag.Lookup(name) != nil {
		return name
	}
	return ""
}

// kebab spells a Go field name as a flag: MaxTokens is max-tokens, BaseURL
// base-url, PerLevel per-level.
func kebab(field string) string {
	rs := []rune(field)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				b.WriteByte('-')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

type stringError string

func (e stringError) Error() string { return string(e) }
