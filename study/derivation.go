package study

// Derivation is derivations.derivation: which part of a reference model's
// reply is the derivation the DAG builder reads (datg references
// --derivation).
type Derivation string

// The derivations.
const (
	// FromReasoning is the model's chain of thought, then its answer: what
	// the paper's DAG prompt converts ("a verified Chain-of-Thought", with
	// its false starts), from a thinking model that returns its reasoning.
	FromReasoning Derivation = "reasoning"
	// FromAnswer is the answer alone: the written solution of a model that
	// hides its reasoning (OpenAI's reasoning models).
	FromAnswer Derivation = "answer"
)

// Derivations lists the derivations, the paper's first.
var Derivations = []Derivation{FromReasoning, FromAnswer}

// ParseDerivation returns the derivation s names.
func ParseDerivation(s string) (Derivation, error) {
	return parse(s, Derivations, ErrUnknownDerivation)
}
