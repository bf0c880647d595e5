package generate

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/study"
)

// MaxSlotsPerEndpoint bounds the requests kept in flight per server. vLLM
// decodes at most max_num_seqs of them at once (256 by default); more only
// wait in its queue.
const MaxSlotsPerEndpoint = 4096

// fieldProblem is a study field out of its range.
type fieldProblem struct {
	name string   // the field as Go names it: Temperature, Budgets
	path []string // as the study file does: temperature, budgets/low
	err  error
}

// field is the field's path in the study file: budgets.low.
func (p fieldProblem) field() string { return strings.Join(p.path, ".") }

// configError is the problem as Validate reports it: the Go field, and
// the key within it (a budget's level) if any.
func (p fieldProblem) configError() error {
	if len(p.path) > 1 {
		return inputerr.BadField(p.name, "%s: %w", strings.Join(p.path[1:], "."), p.err)
	}
	return inputerr.BadField(p.name, "%w", p.err)
}

// rangeProblems checks each number of the study against the range a server
// takes (internal/bounds): the sampling settings, every budget (and that it
// is a level's), the seeds, the slots and the limit. top_k is always sent
// (-1 turns it off): left out, vLLM would apply the model's own default.
func (s Study) rangeProblems() []fieldProblem {
	var out []fieldProblem
	add := func(err error, name string, path ...string) {
		if err != nil {
			out = append(out, fieldProblem{name: name, path: path, err: err})
		}
	}
	add(bounds.Temperature(s.Temperature), "Temperature", "temperature")
	add(bounds.TopP(s.TopP), "TopP", "top_p")
	add(bounds.TopK(s.TopK), "TopK", "top_k")
	add(bounds.RepetitionPenalty(s.RepetitionPenalty), "RepetitionPenalty", "repetition_penalty")
	for _, level := range slices.Sorted(maps.Keys(s.Budgets)) {
		if !study.ValidLevel(level) {
			add(fmt.Errorf("names %q, which is no level (known: %v)", level, study.Levels), "Budgets", "budgets", level)
			continue
		}
		add(bounds.Budget(s.Budgets[level]), "Budgets", "budgets", level)
	}
	for _, seed := range s.Seeds {
		add(bounds.Seed(seed), "Seeds", "seeds")
	}
	switch {
	case s.SlotsPerEndpoint < 1:
		add(errors.New("must be at least 1"), "SlotsPerEndpoint", "slots_per_endpoint")
	case s.SlotsPerEndpoint > MaxSlotsPerEndpoint:
		add(fmt.Errorf("%w: %d is more than %d", bounds.ErrOutOfRange, s.SlotsPerEndpoint, MaxSlotsPerEndpoint), "SlotsPerEndpoint", "slots_per_endpoint")
	}
	if s.Limit < 0 {
		add(errors.New("must not be negative"), "Limit", "limit")
	}
	return out
}
