package references

import "errors"

// ErrNoReasoning means the reference model returned no reasoning in any
// reply of the first round while the derivation is its reasoning
// (--derivation reasoning): it hides its chain of thought (OpenAI's
// reasoning models do), so no attempt could become a reference. The run
// stops there; the replies are journaled, so a rerun with --derivation
// answer uses them without asking again.
var ErrNoReasoning = errors.New("the reference model returned no reasoning")
