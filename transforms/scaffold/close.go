package scaffold

import "bytes"

// cutAtClose applies rule 1. The scaffold ends at the first closing tag: a
// "</execution_state>" is the stop string a server did not honour, and a
// "</think>" means the model ended its reasoning inside the plan; whatever
// follows is phase-2 text (often the answer) that must not be fixed into the
// scaffold. Opening tags before the cut are nested blocks the prompt forbids;
// only the tag goes, since the plan around it is still plan.
//
// It returns the kept text, the lines that lost an opening tag (a line left
// blank by that is dropped), and the removals.
//
// The body is copied byte by byte and a tag is acted on when its last byte
// arrives. That finds tags in input order (no tag can overlap another), and
// it also catches a tag formed by removing one from the middle of another,
// as in "</execution_<execution_state>state>", without rescanning: a body of
// many nested tags stays linear.
func cutAtClose(body string) (string, map[int]bool, []Removal) {
	var removed []Removal
	var nested map[int]bool
	out := make([]byte, 0, len(body))
	ln := 1 // line of the end of out; tags hold no newline, so it is the input's line
	for i := 0; i < len(body); i++ {
		out = append(out, body[i])
		switch body[i] {
		case '\n':
			ln++
		case '>':
			if bytes.HasSuffix(out, []byte(openTag)) {
				out = out[:len(out)-len(openTag)]
				if nested == nil {
					nested = map[int]bool{}
				}
				nested[ln] = true
				removed = append(removed, Removal{Kind: kindNestedOpen, Text: openTag, Line: ln})
				continue
			}
			tag := ""
			if bytes.HasSuffix(out, []byte(Close)) {
				tag = Close
			} else if bytes.HasSuffix(out, []byte(thinkClose)) {
				tag = thinkClose
			}
			if tag == "" {
				continue
			}
			// A bare tag with nothing after it is the stop string echoed
			// back (include_stop_str_in_output); only text after it is a
			// leak worth recording.
			if rest := body[i+1:]; !isBlank(rest) {
				removed = append(removed, Removal{Kind: kindAfterClose, Text: tag + rest, Line: ln})
			}
			return string(out[:len(out)-len(tag)]), nested, removed
		}
	}
	return string(out), nested, removed
}
