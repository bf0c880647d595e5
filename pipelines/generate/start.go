package generate

import (
	"fmt"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/llm"
)

// Start plans a validated run's jobs and opens the pool and the journal
// (close it when done). Generation and the test-time controls start alike;
// stage names the run in messages.
func (c Config) Start(stage string) (*Plan, llm.Journaled, func() error, error) {
	p, err := NewPlan(c.Data, c.Study)
	if err != nil {
		return nil, llm.Journaled{}, nil, err
	}
	p.prompts = c.Prompts
	if p.Size() == 0 {
		return nil, llm.Journaled{}, nil, inputerr.Invalid(fmt.Errorf("nothing to %s: directions %v over languages %v give no query", stage, c.Study.Directions, c.Study.Langs))
	}
	target := llm.Target{Endpoints: c.Endpoints, APIKey: c.APIKey, Pool: c.Pool}
	target.Pool.SlotsPerEndpoint = c.Study.SlotsPerEndpoint
	client, closeJournal, err := target.Open(c.Data, stage, c.Stderr)
	if err != nil {
		return nil, llm.Journaled{}, nil, err
	}
	return p, client, closeJournal, nil
}
