package study

// Phase is trials.phase: which part of a control method a trial is.
type Phase string

// The trial phases.
const (
	// PhaseScaffold is Formula-Retry's phase 1 (trial 0): the
	// execution-state scaffold.
	PhaseScaffold Phase = "scaffold"
	// PhaseReasoning is a reasoning attempt.
	PhaseReasoning Phase = "reasoning"
)

// Phases lists the phases in the order a trial runs them.
var Phases = []Phase{PhaseScaffold, PhaseReasoning}

// ParsePhase returns the phase s names.
func ParsePhase(s string) (Phase, error) { return parse(s, Phases, ErrUnknownPhase) }
