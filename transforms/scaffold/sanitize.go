package scaffold

import "sort"

// Sanitize cleans a scaffold body: the text between "<execution_state>\n" and the closing tag,
// i.e. "Known:\n-" followed by what the model generated. It returns the body to put back
// between the tags and what it removed (nil when nothing).
//
// Rules, in order: cut at the first closing tag and drop nested opening
// tags; drop lines holding \boxed; drop lines named Final/Answer; mask
// computed results as "?"; trim trailing blank lines. Everything else is
// kept byte for byte (line endings included), and Sanitize(clean) returns
// clean with no removals, so a stored scaffold can be re-checked.
func Sanitize(body string) (clean string, removed []Removal) {
	s, nested, removed := cutAtClose(body)
	var kept []line
	for _, l := range splitLines(s) {
		if nested[l.num] && isBlank(l.text) {
			continue // the line held only the nested tag
		}
		if kind := dropKind(l.text); kind != "" {
			removed = append(removed, Removal{Kind: kind, Text: l.text, Line: l.num})
			continue
		}
		var masked []string
		l.text, masked = maskResults(l.text)
		for _, m := range masked {
			removed = append(removed, Removal{Kind: kindResult, Text: m, Line: l.num})
		}
		kept = append(kept, l)
	}
	// Report removals in input order, whichever rule found them.
	sort.SliceStable(removed, func(i, j int) bool { return removed[i].Line < removed[j].Line })
	if len(removed) == 0 {
		removed = nil
	}
	return joinLines(trimTrailingBlank(kept)), removed
}
