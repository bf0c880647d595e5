package study

import "errors"

// Sentinel errors of parsing. Each Parse function wraps one with the value
// and the known values, so errors.Is tells the kind and the message says
// what to write instead.
var (
	// ErrUnknownLanguage means a code is none of the study's 12 languages.
	ErrUnknownLanguage = errors.New("unknown language")
	// ErrUnknownLevel means a string is none of PolyMath's levels.
	ErrUnknownLevel = errors.New("unknown level")
	// ErrNoDirection means a direction name, or an (input, reasoning)
	// language pair, is none of the study's directions (en-en, en-x, x-en,
	// x-x with the same x).
	ErrNoDirection = errors.New("not a study direction")
	// ErrUnknownMethod means a string is none of the trace methods.
	ErrUnknownMethod = errors.New("unknown method")
	// ErrUnknownPhase means a string is none of a trial's phases.
	ErrUnknownPhase = errors.New("unknown phase")
	// ErrUnknownGrader means a string is none of the graders.
	ErrUnknownGrader = errors.New("unknown grader")
	// ErrUnknownDetector means a string is none of the language detectors.
	ErrUnknownDetector = errors.New("unknown detector")
	// ErrUnknownDerivation means a string is none of the derivations.
	ErrUnknownDerivation = errors.New("unknown derivation")
	// ErrUnknownStatus means a string is none of the statuses of its kind.
	ErrUnknownStatus = errors.New("unknown status")
)
