package scaffold

import "github.com/datg/datg/transforms"

// openTag starts an execution-state block; the body Sanitize sees comes
// after it, so any further occurrence is a nested block the model opened.
const openTag = "<execution_state>"

// thinkClose ends the model's reasoning block. Inside the scaffold it means
// the model stopped planning and started answering.
const thinkClose = transforms.ThinkClose

// Open is the assistant prefill that starts phase 1 (after "<think>\n");
// BodyStart is its part inside the block, where the body Sanitize reads
// begins; Close ends the block.
const (
	BodyStart = "Known:\n-"
	Open      = openTag + "\n" + BodyStart
	Close     = "</execution_state>"
)

// Removal kinds. They are plain strings so removals can be stored and
// counted as they are.
const (
	kindAfterClose = "after-close" // text after a </execution_state> or </think>
	kindNestedOpen = "nested-open" // a further <execution_state> tag
	kindBoxed      = "boxed"       // a line holding \boxed
	kindAnswerLine = "answer-line" // a line named Final/Answer
	kindResult     = "result"      // a computed result masked as ?
)

// Removal is one thing Sanitize took out.
type Removal struct {
	Kind string // "after-close" (text after a </execution_state> or </think>), "nested-open" (a further <execution_state> tag), "boxed" (a line holding \boxed), "answer-line" (a line named Final/Answer...), "result" (a computed result masked as ?)
	Text string // what was removed (the whole line for lines; the tag and what follows for after-close; the number for results, e.g. "9")
	Line int    // 1-based line in the input where it was
}

// Block is the full phase-2 prefix part: "<execution_state>\n" + clean + "\n" + Close + "\n".
func Block(clean string) string {
	return openTag + "\n" + clean + "\n" + Close + "\n"
}
