package imports

import (
	"errors"
	"fmt"
	"unicode"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/strictjson"
)

// identifierFault tells what makes s unfit for an identifier-like field,
// or "" when nothing does. Such a field is matched, grouped and shown on
// one line (a table cell, an error, a page): it may hold no control
// character (Unicode Cc: C0 with tab and newline, DEL, C1), no line or
// paragraph separator (U+2028, U+2029), and no bidirectional control
// (UAX #9's explicit formatting characters and marks; the "Trojan Source"
// characters of CVE-2021-42574), which can make one id display as another.
// Text fields (a trace's text, anchors, evidence) may hold newlines and
// tabs and are not checked here.
func identifierFault(s string) string {
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return fmt.Sprintf("%U, a control character", r)
		case r == '\u2028' || r == '\u2029':
			return fmt.Sprintf("%U, a line or paragraph separator", r)
		case bidiControl(r):
			return fmt.Sprintf("%U, a bidirectional control", r)
		}
	}
	return ""
}

// bidiControl reports the characters of UAX #9 that change the direction
// text is displayed in: ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI,
// FSI and PDI.
func bidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || ('\u202A' <= r && r <= '\u202E') || ('\u2066' <= r && r <= '\u2069')
}

// identifier checks that the identifier-like value s of field is one: the
// error is a *fieldError wrapping ErrBadIdentifier, showing s escaped.
func identifier(field, s string) error {
	if fault := identifierFault(s); fault != "" {
		return bad(field, "%w: %q holds %s", ErrBadIdentifier, s, fault)
	}
	return nil
}

// identifiers checks each field's value, in order, and returns the first
// problem.
func identifiers(fields ...[2]string) error {
	for _, f := range fields {
		if err := identifier(f[0], f[1]); err != nil {
			return err
		}
	}
	return nil
}

// recordError places the problem err with a field of the record on line
// of the file path: a *fieldError names its field, after within (the field
// whose value was checked), wrapped in ErrBadRecord.
func recordError(path string, line int, within string, err error) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		return inputerr.Field(path, line, joinField(within, fe.field), fmt.Errorf("%w: %w", ErrBadRecord, fe.err))
	}
	return inputerr.Field(path, line, within, fmt.Errorf("%w: %w", ErrBadRecord, err))
}

// joinField names field inside within ("dag" and "nodes[0].anchor" give
// dag.nodes[0].anchor).
func joinField(within, field string) string {
	switch {
	case within == "":
		return field
	case field == "" || field[0] == '[':
		return within + field
	}
	return within + "." + field
}

// checkText refuses a JSON document (a record's line, or the JSON a
// string field holds, within names that field) holding a string that is
// not Unicode text, naming the string's field. A document that is not
// JSON passes: decoding it reports that.
func checkText(path string, line int, within string, doc []byte) error {
	var ue *strictjson.UnicodeError
	if err := strictjson.CheckUnicode(doc); !errors.As(err, &ue) {
		return nil
	}
	where := fmt.Sprintf("byte %d of the line", ue.Column)
	if within != "" {
		where = fmt.Sprintf("line %d, byte %d of the JSON in %s", ue.Line, ue.Column, within)
	}
	return inputerr.Field(path, line, joinField(within, ue.Path),
		fmt.Errorf("%w: %w: %s (%s)", ErrBadRecord, strictjson.ErrInvalidUnicode, ue.Reason, where))
}
