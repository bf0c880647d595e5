package transforms

import "fmt"

// English is the pivot language of every direction.
const English = "en"

// The four input-reasoning directions of the study.
const (
	EnEn = "en-en" // English problem, English reasoning
	EnX  = "en-x"  // English problem, reasoning in x
	XEn  = "x-en"  // problem in x, English reasoning
	XX   = "x-x"   // problem and reasoning in x
)

// Directions lists the directions in the paper's order.
var Directions = []string{EnEn, EnX, XEn, XX}

// Direction names the direction of an (input, reasoning) language pair.
func Direction(inputLang, reasoningLang string) (string, error) {
	switch {
	case inputLang == English && reasoningLang == English:
		return EnEn, nil
	case inputLang == English:
		return EnX, nil
	case reasoningLang == English:
		return XEn, nil
	case inputLang == reasoningLang:
		return XX, nil
	}
	return "", fmt.Errorf("input %s, reasoning %s: %w", inputLang, reasoningLang, ErrNoDirection)
}

// TargetLang is the language a trace's cell is reported under: the
// non-English one of its pair, or English for en-en (the SQL macro
// target_lang reads it the same way).
func TargetLang(inputLang, reasoningLang string) string {
	if reasoningLang == English {
		return inputLang
	}
	return reasoningLang
}

// DirectionPairs expands a direction over a target language x into the
// (input, reasoning) pair it denotes; en-en ignores x.
func DirectionPairs(direction, x string) (inputLang, reasoningLang string, err error) {
	switch direction {
	case EnEn:
		return English, English, nil
	case EnX:
		return English, x, nil
	case XEn:
		return x, English, nil
	case XX:
		return x, x, nil
	}
	return "", "", fmt.Errorf("%q: %w", direction, ErrNoDirection)
}
