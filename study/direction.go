package study

import "fmt"

// Direction is an input-reasoning direction: the language of the problem
// and the language of the reasoning, English or another language x.
type Direction string

// The four directions of the study.
const (
	EnEn Direction = "en-en" // English problem, English reasoning
	EnX  Direction = "en-x"  // English problem, reasoning in x
	XEn  Direction = "x-en"  // problem in x, English reasoning
	XX   Direction = "x-x"   // problem and reasoning in x
)

// Directions lists the directions in the paper's order.
var Directions = []Direction{EnEn, EnX, XEn, XX}

// ParseDirection returns the direction s names.
func ParseDirection(s string) (Direction, error) { return parse(s, Directions, ErrNoDirection) }

// DirectionOf names the direction of an (input, reasoning) language pair.
func DirectionOf(inputLang, reasoningLang string) (Direction, error) {
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

// Pair expands the direction over a target language x into the (input,
// reasoning) pair it denotes; en-en ignores x.
func (d Direction) Pair(x string) (inputLang, reasoningLang string, err error) {
	switch d {
	case EnEn:
		return English, English, nil
	case EnX:
		return English, x, nil
	case XEn:
		return x, English, nil
	case XX:
		return x, x, nil
	}
	return "", "", fmt.Errorf("%q: %w", string(d), ErrNoDirection)
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
