package study

// Grader is answers.grader: which grader decided a verdict.
type Grader string

// The graders.
const (
	// MathVerify grades as the paper's Math-Verify does.
	MathVerify Grader = "math-verify"
	// Multilingual is datg's grader: answer markers in the study's
	// languages, native digits and more (transforms/answer).
	Multilingual Grader = "multilingual"
)

// Graders lists the graders, the paper's first.
var Graders = []Grader{MathVerify, Multilingual}

// ParseGrader returns the grader s names.
func ParseGrader(s string) (Grader, error) { return parse(s, Graders, ErrUnknownGrader) }
