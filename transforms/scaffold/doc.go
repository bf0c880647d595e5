// Package scaffold sanitizes the Formula-Retry execution-state scaffold.
//
// Formula-Retry (paper appendix "Formula-Retry Scaffold Prompt and Example",
// app:formula-prompt) runs in two phases. Phase 1 prefills
// "<think>\n<execution_state>\nKnown:\n-" and lets the model write a compact
// English/symbolic plan: known quantities and formula skeletons whose
// computed results are masked as "?", e.g.
//
//	Known:
//	- eggs_per_day = 16
//	Plan:
//	- remaining_per_day = 16 - 3 - 4 = ?
//
// The appendix requires that the scaffold "must not contain the final numeric
// result, a boxed answer, or a final-answer sentence", because phase 2 (the
// target-language reasoning, resampled on every retry while the scaffold is
// reused) would otherwise only copy an answer instead of reasoning. Models do
// not always obey, and servers do not always honour the stop string, so the
// pipeline passes the generated scaffold through Sanitize before phase 2
// continues after "</execution_state>", and stores the returned removals so
// the analysis can report how often and how the scaffold leaked.
//
// Sanitize is pure and never sees the gold answer: it must treat the
// Formula-Retry control exactly like the other methods, so it removes
// leaks by their form (a closing tag, \boxed, a line named Final/Answer, a
// number standing after a computation) and never by comparing with the
// answer.
package scaffold
