package main

import (
	"strings"
	"unicode"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/termtext"
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
	return termtext.OneLine(msg)
}

// flagOf is the command's flag that sets a Config field (a path, such as
// Faults.ErrorRate, for a nested one), or "" when none does (the message
// keeps the field's name).
func (c *Command) flagOf(field string) string {
	if f, ok := c.FieldFlags[field]; ok {
		return f
	}
	if f, ok := poolFieldFlags[field]; ok && c.Flag.Lookup(f) != nil {
		return f
	}
	// A nested config's field (Faults.ErrorRate) is set by the flag of its
	// own name (--error-rate).
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
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

// poolFieldFlags are the flags of llm.Target's fields (llmflags.go) whose
// names are not their fields' in kebab case.
var poolFieldFlags = map[string]string{
	"Pool.SlotsPerEndpoint": "slots",
	"Pool.RequestTimeout":   "timeout",
	"Pool.RequestDeadline":  "deadline",
	"Pool.BackoffBase":      "backoff",
	"Batch.Enabled":         "batch",
	"Batch.Poll":            "batch-poll",
	"Batch.Rounds":          "batch-rounds",
}
